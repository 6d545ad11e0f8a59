/**
 * A definition prepared for checks: its documents indexed by uri, its schema resources (`$id`,
 * `$anchor`, `$dynamicAnchor` under 3.1+), `$ref` resolution across documents, and a memo of
 * compiled schema nodes. Nodes are compiled on first use, so the first check of a large
 * definition compiles only the schemas that check reaches.
 */
import { ParleyError } from '../../../protocol/errors.js';
import { resolveRefLocation } from '../../../protocol/ref-location.js';
import { followRefChain } from '../../../protocol/ref-chain.js';
import type { DefinitionDocument } from '../../../protocol/model/verdict.js';
import { compileInto } from './compile.js';
import type { Dialect, Resource, SchemaNode } from './evaluation.js';
import { escapeSegment, isObject, parsePointer, valueAt } from '../../../protocol/json-pointer.js';
import type { CompileHost, Loc } from './keywords/site.js';
import { normalizeDocumentUri, resolveReference } from './uri.js';

/** Values under these keys are data, not schemas: their `$id`s and anchors mean nothing. */
const DATA_KEYS = new Set(['enum', 'const', 'default', 'example', 'examples']);
/** Objects whose keys are names (a property called `default` is a schema, not data). */
const NAME_MAPS = new Set(['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas', 'schemas']);

export function detectDialect(entry: unknown): Dialect | undefined {
  if (!isObject(entry)) return undefined;
  if (typeof entry.openapi === 'string') {
    if (entry.openapi.startsWith('3.0')) return 'oas30';
    if (/^3\.[1-9]/.test(entry.openapi)) return 'oas31';
    return undefined;
  }
  if (entry.swagger === '2.0') return 'swagger2';
  return undefined;
}

export class PreparedDefinition implements CompileHost {
  readonly dialect: Dialect;
  readonly entryUri: string;
  readonly entry: Record<string, unknown>;
  /** Notes about the definition as a whole (e.g. an unknown jsonSchemaDialect). */
  readonly notes: string[] = [];
  private readonly documents = new Map<string, unknown>();
  private readonly resources = new Map<string, Resource>();
  /** A document's own base URI (its uri, or 3.2's `$self`). */
  private readonly docBase = new Map<string, string>();
  private readonly nodes = new Map<string, SchemaNode>();

  constructor(
    documents: readonly DefinitionDocument[],
    readonly fingerprint: string,
  ) {
    const first = documents[0];
    const dialect = first ? detectDialect(first.document) : undefined;
    if (!first || !dialect || !isObject(first.document)) {
      throw new ParleyError('unsupported-definition', 'The definition is not OpenAPI 3.x or Swagger 2.0.');
    }
    this.dialect = dialect;
    this.entry = first.document;
    this.entryUri = normalizeDocumentUri(first.uri);
    for (const doc of documents) {
      const uri = normalizeDocumentUri(doc.uri);
      if (this.documents.has(uri)) continue;
      this.documents.set(uri, doc.document);
      let base = uri;
      const self = isObject(doc.document) ? doc.document.$self : undefined;
      if (typeof self === 'string') base = resolveReference(self, uri)?.resource ?? uri;
      this.docBase.set(uri, base);
      this.resourceFor(uri, uri, '');
      if (base !== uri) this.resources.set(base, this.resources.get(uri)!);
      if (dialect === 'oas31') this.indexResources(uri, base, doc.document);
    }
    const jsd = this.entry.jsonSchemaDialect;
    if (typeof jsd === 'string' && !/json-schema\.org\/draft\/2020-12\/schema|spec\.openapis\.org\/oas\/3\.\d\/dialect/.test(jsd)) {
      this.notes.push(`jsonSchemaDialect ${jsd} is not supported; schemas are read as 2020-12`);
    }
  }

  /** Where a document's relative references resolve from. */
  baseOf(docUri: string): string {
    return this.docBase.get(docUri) ?? docUri;
  }

  schemaValue(loc: Loc): unknown {
    return valueAt(this.documents.get(loc.docUri), loc.pointer).value;
  }

  has(loc: Loc): boolean {
    return this.documents.has(loc.docUri) && valueAt(this.documents.get(loc.docUri), loc.pointer).found;
  }

  /** A `$ref` by the shared rule (protocol/ref-location), then looked up among the documents held. */
  resolveRef(ref: string, base: string): Loc | string {
    const located = resolveRefLocation(ref, base, { documentName: base.slice(base.lastIndexOf('/') + 1) || base });
    if (!located.ok) return located.error.message;
    const r = { resource: located.url, fragment: located.fragment };
    const resource = this.resources.get(r.resource);
    if (!resource) return `the reference ${ref} names a document the definition does not hold`;
    let pointer: string;
    if (r.fragment === '') pointer = resource.pointer;
    else if (r.fragment.startsWith('/')) pointer = resource.pointer + r.fragment;
    else {
      const anchored = resource.anchors.get(r.fragment);
      if (anchored === undefined) return `the reference ${ref} names an anchor that does not exist`;
      pointer = anchored;
    }
    const loc = { docUri: resource.docUri, pointer };
    if (!this.has(loc)) return `the reference ${ref} does not resolve`;
    return loc;
  }

  namedSchema(name: string, fromDocUri: string): Loc | undefined {
    const container = this.dialect === 'swagger2' ? '/definitions/' : '/components/schemas/';
    for (const docUri of [fromDocUri, this.entryUri]) {
      const loc = { docUri, pointer: container + escapeSegment(name) };
      if (this.has(loc)) return loc;
    }
    return undefined;
  }

  describe(loc: Loc): string {
    const file = loc.docUri === this.entryUri ? '' : loc.docUri.slice(loc.docUri.lastIndexOf('/') + 1);
    return `${file}#${loc.pointer}`;
  }

  /** The compiled schema at a location; the same node every time, so recursion terminates. */
  nodeAt(loc: Loc): SchemaNode {
    const key = `${loc.docUri}#${loc.pointer}`;
    const existing = this.nodes.get(key);
    if (existing) return existing;
    const { base, resource } = this.baseAt(loc);
    const node: SchemaNode = { key, resource, keywords: [], ownsAnnotations: false, notes: [], errors: [] };
    node.pending = () => {
      const found = valueAt(this.documents.get(loc.docUri), loc.pointer);
      if (!found.found) node.errors.push(`no schema at ${this.describe(loc)}`);
      else compileInto(this, node, found.value, loc, base);
    };
    this.nodes.set(key, node);
    return node;
  }

  /** The node a `$dynamicAnchor` names inside a resource. */
  dynamicTarget(resource: Resource, anchor: string): SchemaNode | undefined {
    const pointer = resource.anchors.get(anchor);
    return pointer === undefined ? undefined : this.nodeAt({ docUri: resource.docUri, pointer });
  }

  /** Follows Reference Objects (responses, path items, media types) to the object they stand for. */
  follow(loc: Loc): { loc: Loc; value: unknown } | string {
    const end = followRefChain(loc, this.schemaValue(loc), (ref, from) => {
      const next = this.resolveRef(ref, this.baseOf(from.docUri));
      return typeof next === 'string' ? next : { at: next, value: this.schemaValue(next) };
    });
    if (end.ok) return { loc: end.at, value: end.value };
    return end.cycle ? `the reference at ${this.describe(loc)} goes round in a circle` : end.why;
  }

  /** Base URI and resource of a location: the nearest `$id` above it (3.1+), else its document. */
  private baseAt(loc: Loc): { base: string; resource: Resource } {
    let base = this.baseOf(loc.docUri);
    let resource = this.resources.get(base)!;
    if (this.dialect !== 'oas31') return { base, resource };
    let value = this.documents.get(loc.docUri);
    const step = (v: unknown) => {
      if (isObject(v) && typeof v.$id === 'string') {
        const r = resolveReference(v.$id, base);
        if (r) {
          base = r.resource;
          resource = this.resources.get(base) ?? resource;
        }
      }
    };
    step(value);
    for (const segment of parsePointer(loc.pointer) ?? []) {
      value = Array.isArray(value) ? value[Number(segment)] : isObject(value) ? value[segment] : undefined;
      step(value);
    }
    return { base, resource };
  }

  private resourceFor(uri: string, docUri: string, pointer: string): Resource {
    let resource = this.resources.get(uri);
    if (!resource) {
      resource = { uri, docUri, pointer, anchors: new Map(), dynamicAnchors: new Set() };
      this.resources.set(uri, resource);
    }
    return resource;
  }

  /** Walks a 3.1 document once for `$id`, `$anchor` and `$dynamicAnchor`. */
  private indexResources(docUri: string, docBase: string, document: unknown): void {
    const stack: { value: unknown; pointer: string; base: string; key: string }[] = [{ value: document, pointer: '', base: docBase, key: '' }];
    // A parsed YAML document can share objects (aliases): walk each object once.
    const seen = new Set<object>();
    while (stack.length > 0) {
      const { value, pointer, base: parentBase, key: ownKey } = stack.pop()!;
      if (typeof value === 'object' && value !== null) {
        if (seen.has(value)) continue;
        seen.add(value);
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], pointer: `${pointer}/${i}`, base: parentBase, key: '' });
        continue;
      }
      if (!isObject(value)) continue;
      let base = parentBase;
      if (typeof value.$id === 'string') {
        const r = resolveReference(value.$id, parentBase);
        if (r) {
          base = r.resource;
          // A document's own root `$id` is another name for the document's resource.
          if (pointer === '') this.resources.set(base, this.resources.get(docBase) ?? this.resourceFor(base, docUri, ''));
          else this.resourceFor(base, docUri, pointer);
        }
      }
      const resource = this.resources.get(base);
      if (resource) {
        if (typeof value.$anchor === 'string') resource.anchors.set(value.$anchor, pointer);
        if (typeof value.$dynamicAnchor === 'string') {
          resource.anchors.set(value.$dynamicAnchor, pointer);
          resource.dynamicAnchors.add(value.$dynamicAnchor);
        }
      }
      const names = NAME_MAPS.has(ownKey);
      for (const key of Object.keys(value)) {
        if (!names && (DATA_KEYS.has(key) || key.startsWith('x-'))) continue;
        stack.push({ value: value[key], pointer: `${pointer}/${escapeSegment(key)}`, base, key });
      }
    }
  }
}
