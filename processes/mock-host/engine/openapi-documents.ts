/**
 * Turns an API's cached definition documents into one OpenAPI 3.x document whose `$ref`s all
 * point inside it, so samples, examples and schemas can be looked up without any file or network.
 */
import { ParleyError } from '../../../protocol/errors.js';

export interface OpenApiDocuments {
  /** Key of the entry document in `documents`. */
  entry: string;
  /** Parsed documents by the name `$ref`s use for them: a path relative to the API folder, or a URL. */
  documents: Record<string, unknown>;
}

export type OpenApiDocument = Record<string, unknown>;

// Relative names are given a fixed base so `$ref: ../x.yaml` resolves the way it does on disk.
const BASE = 'file:///api/';

function urlOf(name: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(name) ? name : new URL(name, BASE).href;
}

// swagger2openapi ships no types; the one function used is typed here.
type ConvertObj = (doc: unknown, options: Record<string, unknown>) => Promise<{ openapi: OpenApiDocument }>;
const SWAGGER2OPENAPI = 'swagger2openapi';

export async function bundleOpenApi(input: OpenApiDocuments): Promise<OpenApiDocument> {
  const byUrl = new Map<string, unknown>();
  for (const [name, doc] of Object.entries(input.documents)) byUrl.set(urlOf(name), doc);
  const entryUrl = urlOf(input.entry);
  const entry = byUrl.get(entryUrl);
  if (!entry || typeof entry !== 'object') {
    throw new ParleyError('contract-unavailable', `The cached definition has no document named ${input.entry}.`);
  }
  let bundled: OpenApiDocument;
  // One document whose $refs all point inside it is bundled already. The common case (a document
  // mock, most APIs) then never loads the ref parser: about 220 KB of code at a mock host's start.
  if (Object.keys(input.documents).length === 1 && !hasOutsideRef(entry)) return checkedOpenApi(await asOpenApi3(structuredClone(entry) as OpenApiDocument));
  try {
    const { bundleWithRefParser } = await import('./ref-parser-bundle.js');
    bundled = await bundleWithRefParser(entryUrl, entry, byUrl);
  } catch (err) {
    throw new ParleyError('contract-unavailable', `The cached definition could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return checkedOpenApi(await asOpenApi3(bundled));
}

/** A Swagger 2.0 document converted to OpenAPI 3.0; others as they are. */
async function asOpenApi3(document: OpenApiDocument): Promise<OpenApiDocument> {
  if (!(typeof document.swagger === 'string' && document.swagger.startsWith('2.'))) return document;
  const mod = (await import(SWAGGER2OPENAPI)) as { convertObj?: ConvertObj; default?: { convertObj: ConvertObj } };
  const convertObj = mod.convertObj ?? mod.default?.convertObj;
  if (!convertObj) throw new ParleyError('internal', 'swagger2openapi has no convertObj.');
  return (await convertObj(document, { patch: true, warnOnly: true })).openapi;
}

function checkedOpenApi(document: OpenApiDocument): OpenApiDocument {
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.')) {
    throw new ParleyError('contract-unsupported', 'The cached definition is not an OpenAPI 3.x or 2.0 document.');
  }
  return document;
}

/** Whether any `$ref` in `value` points outside its own document. */
function hasOutsideRef(value: unknown): boolean {
  const stack: unknown[] = [value];
  // A YAML alias can make the parsed document a graph, even a cycle: each node is seen once.
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) return true;
      if (child && typeof child === 'object') stack.push(child);
    }
  }
  return false;
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
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
