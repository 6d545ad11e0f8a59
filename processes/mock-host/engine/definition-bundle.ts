/**
 * A definition (DefinitionDocument[], entry first) bundled into one OpenAPI 3.x document whose
 * `$ref`s all point inside it, for openapi-sampler (New Mock's default bodies), which reads
 * nothing else; and the check every reference between its documents passes first, by the shared
 * rule, so the contract a mock checks against is refused for the same references. The documents
 * as written (Swagger 2.0 as 2.0) are what the contract check reads, by the same uris.
 */
import { pointerSegments, valueAt } from '../../../protocol/json-pointer.js';
import { ParleyError } from '../../../protocol/errors.js';
import { resolveRefLocation, type RefScope } from '../../../protocol/ref-location.js';
import { apiFolderScope, cachedDocumentPath, isCachedDocumentUri } from '../../../protocol/cached-definition-uri.js';
import type { Definition } from '../../../protocol/model/verdict.js';

/** One parsed OpenAPI (or Swagger 2.0) document as an object: a definition's entry, or its bundle. */
export type OpenApiDocument = Record<string, unknown>;

// swagger2openapi ships no types; the one function used is typed here.
type ConvertObj = (doc: unknown, options: Record<string, unknown>) => Promise<{ openapi: OpenApiDocument }>;
const SWAGGER2OPENAPI = 'swagger2openapi';

/** The documents by uri as the shared rule writes addresses (the first of two with one uri counts, as in the checker), and the entry, refused when missing. */
function indexed(definition: Definition): { byUri: Map<string, unknown>; entryUri: string; entry: object } {
  const byUri = new Map<string, unknown>();
  for (const doc of definition) if (!byUri.has(normalUri(doc.uri))) byUri.set(normalUri(doc.uri), doc.document);
  const first = definition[0];
  if (!first || !first.document || typeof first.document !== 'object') {
    throw new ParleyError('contract-unavailable', first ? `The cached definition's entry document ${shownName(first.uri)} is not an object.` : 'The cached definition has no documents.');
  }
  return { byUri, entryUri: normalUri(first.uri), entry: first.document };
}

/** An address as `resolveRefLocation` gives one (parsed, without fragment), so a reference's target is found by equality. */
function normalUri(uri: string): string {
  try {
    const url = new URL(uri);
    url.hash = '';
    return url.href;
  } catch {
    return uri;
  }
}

/**
 * Every `$ref` to another document checked by the shared rule, as bundling checks them, without
 * bundling: the contract a mock checks against is refused for the same references, by the same message.
 */
export function checkRefs(definition: Definition): void {
  const { byUri, entryUri } = indexed(definition);
  placeRefs(byUri, apiFolderScope(entryUri), false);
}

export async function bundleOpenApi(definition: Definition): Promise<OpenApiDocument> {
  const { byUri, entryUri, entry } = indexed(definition);
  let bundled: OpenApiDocument;
  // One document whose $refs all point inside it is bundled already. The common case (a document
  // mock, most APIs) then never loads the ref parser: about 220 KB of code at a mock host's start.
  if (byUri.size === 1 && outsideRefHolders(entry).length === 0) return checkedOpenApi(await asOpenApi3(structuredClone(entry) as OpenApiDocument));
  const placed = placeRefs(byUri, apiFolderScope(entryUri));
  try {
    const { bundleWithRefParser } = await import('./ref-parser-bundle.js');
    bundled = await bundleWithRefParser(entryUri, placed.get(entryUri) as object, placed);
  } catch (err) {
    // placeRefs found every reference's document and the place it points at: what is left is the parser's own.
    throw new ParleyError('contract-unavailable', `The definition's documents could not be bundled into one: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  return checkedOpenApi(await asOpenApi3(bundled));
}

/** A Swagger 2.0 document converted to OpenAPI 3.0; others as they are. */
async function asOpenApi3(document: OpenApiDocument): Promise<OpenApiDocument> {
  if (!(typeof document.swagger === 'string' && document.swagger.startsWith('2.'))) return document;
  const mod = (await import(SWAGGER2OPENAPI)) as { convertObj?: ConvertObj; default?: { convertObj: ConvertObj } };
  const convertObj = mod.convertObj ?? mod.default?.convertObj;
  if (!convertObj) throw new ParleyError('internal', 'swagger2openapi has no convertObj.');
  // swagger2openapi copies objects by assignment, which drops a property named `__proto__` (the
  // sample then lacked a property the 2.0 check requires): it converts a copy with a stand-in name.
  // `anchors`: an object the document holds twice (a YAML alias) is copied, not refused.
  const converted = (await convertObj(renameOwnKey(document, PROTO, PROTO_STAND_IN), { patch: true, warnOnly: true, anchors: true })).openapi;
  return renameOwnKey(converted, PROTO_STAND_IN, PROTO);
}

const PROTO = '__proto__';
const PROTO_STAND_IN = '\u0000parley:__proto__';

/** Renames own keys `from` to `to` throughout, in place (each object once: a YAML alias may share one); `__proto__` is defined, never assigned. */
function renameOwnKey<T>(value: T, from: string, to: string): T {
  eachObject(value, (node) => {
    if (Array.isArray(node) || !Object.hasOwn(node, from)) return;
    const held = Object.getOwnPropertyDescriptor(node, from)!.value as unknown;
    delete (node as Record<string, unknown>)[from];
    Object.defineProperty(node, to, { value: held, enumerable: true, writable: true, configurable: true });
  });
  return value;
}

function checkedOpenApi(document: OpenApiDocument): OpenApiDocument {
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.')) {
    throw new ParleyError('contract-unsupported', 'The cached definition is not an OpenAPI 3.x or 2.0 document.');
  }
  return document;
}

/**
 * Copies of the documents with every `$ref` to another document checked by the shared rule
 * (protocol/ref-location) and written as the absolute address of a document held, so the ref
 * parser never resolves a reference by rules of its own. One that cannot be read refuses the
 * contract with a message naming the reference, its document and why. `copy` false only checks
 * (the documents as they are come back, unchanged).
 */
function placeRefs(byUri: ReadonlyMap<string, unknown>, within: RefScope['within'], copy = true): Map<string, unknown> {
  const placed = new Map<string, unknown>();
  for (const [uri, doc] of byUri) {
    const held = copy ? structuredClone(doc) : doc;
    const documentName = shownName(uri);
    for (const holder of refHolders(held, copy)) {
      const ref = holder.$ref;
      const target = resolveRefLocation(ref, uri, { documentName, ...(within ? { within } : {}) });
      if (!target.ok) throw new ParleyError('contract-unavailable', `The contract could not be read. ${target.error.message}`, { ref: target.error.ref, document: documentName });
      if (!byUri.has(target.url)) {
        // The reader reports why a file it could not read is missing (parley mock serve <file> refuses with that first); a
        // project's cached definition simply lacks it.
        throw new ParleyError('contract-unavailable', `The contract could not be read. The reference ${JSON.stringify(ref)} in ${documentName} names ${shownName(target.url)}, a file the definition does not have (it was missing, or could not be read, when the definition was read).`, { ref, document: documentName, reason: 'missing-document' });
      }
      // A pointer to nothing: the bundler would stop on it with its own words.
      if (copy && (target.fragment === '' || target.fragment.startsWith('/')) && !valueAt(byUri.get(target.url), target.fragment).found) {
        throw new ParleyError('contract-unavailable', `The contract could not be read. The reference ${JSON.stringify(ref)} in ${documentName} points at ${target.fragment}, which ${shownName(target.url)} does not have.`, { ref, document: documentName, reason: 'bad-pointer' });
      }
      if (copy && !ref.startsWith('#')) holder.$ref = target.href;
    }
    placed.set(uri, held);
  }
  return placed;
}

/** A document's name in messages: its path in the API folder, a local path, or its URL. */
function shownName(uri: string): string {
  if (isCachedDocumentUri(uri)) return cachedDocumentPath(uri);
  if (!uri.startsWith('file:')) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

/**
 * The objects whose `$ref` names another document (not `#...`), in document order (so the first
 * bad reference is the one reported). A YAML alias can make the parsed document a graph, even a
 * cycle: each node is seen once.
 */
function outsideRefHolders(value: unknown): { $ref: string }[] {
  return refHolders(value, false);
}

/** The objects with a `$ref`, in document order: those naming another document, and with `inside` those within it (`#/...`) too. */
function refHolders(value: unknown, inside: boolean): { $ref: string }[] {
  const holders: { $ref: string }[] = [];
  eachObject(value, (node) => {
    const ref = Array.isArray(node) ? undefined : (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && (inside || !ref.startsWith('#'))) holders.push(node as { $ref: string });
  });
  return holders;
}

/** Visits every object and array below `value` once, in document order, each before what it holds (it may change its own keys). */
function eachObject(value: unknown, visit: (node: object) => void): void {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    visit(node);
    const children = Array.isArray(node) ? node : Object.values(node);
    for (let i = children.length - 1; i >= 0; i--) if (children[i] && typeof children[i] === 'object') stack.push(children[i]);
  }
}

/** Follows internal `$ref`s (`#/...`) until a non-reference object is reached. */
export function deref<V = Record<string, unknown>>(doc: OpenApiDocument, value: unknown): V | undefined {
  let current = value;
  for (let hops = 0; hops < 32; hops++) {
    if (!current || typeof current !== 'object') return undefined;
    const ref = (current as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string') return current as V;
    current = pointer(doc, ref);
  }
  return undefined;
}

function pointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const key of pointerSegments(ref)) {
    // Own members only: `#/constructor` or `#/__proto__` point at nothing, not at Object's.
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
