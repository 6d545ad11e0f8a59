/**
 * Sample bodies from schemas (protocol/schema-sample.ts). The sampler follows only `#/...`
 * references inside the one spec object it is given, so a definition split over several
 * documents is given to it as one synthetic spec holding every document, each `$ref` rewritten
 * to point inside it. The documents themselves are never changed.
 */
import { sampleSchema } from '../../../../../protocol/schema-sample.js';
import { refOf, type DocumentSet } from '../../load/document-set.js';
import { joinPointer, pointerSegments, valueAt } from '../../../../../protocol/json-pointer.js';
import type { SchemaHandle } from './model.js';
import { setOwn } from './values.js';

export interface SchemaShape {
  required: string[];
  properties: { name: string; schema: SchemaHandle }[];
}

export interface Sampler {
  /** A JSON value for the schema; undefined when none could be made. */
  json(schema: SchemaHandle): unknown;
  /** An XML document for the schema; undefined when none could be made. */
  xml(schema: SchemaHandle): string | undefined;
  /** Top-level properties and required names (through `$ref` and `allOf`). */
  shape(schema: SchemaHandle): SchemaShape;
  /** The schema a handle names, with `$ref`s followed. */
  resolve(schema: SchemaHandle): SchemaHandle | undefined;
}

const DOCUMENTS_KEY = 'x-parley-documents';

/**
 * `versionKey` tells openapi-sampler how to treat `$ref` siblings (ignored before 3.1).
 * `onError` hears why a sample failed.
 */
export function createSetSampler(set: DocumentSet, versionKey: Record<string, string>, onError: (schema: SchemaHandle, reason: string) => void): Sampler {
  let synthetic: Record<string, unknown> | undefined;
  const single = set.documents.length === 1;
  const specFor = (): Record<string, unknown> => {
    if (single) return set.entry.value as Record<string, unknown>;
    synthetic ??= { ...versionKey, [DOCUMENTS_KEY]: set.documents.map((doc) => rewriteRefs(doc.value, doc.url, set)) };
    return synthetic;
  };
  const nodeFor = (schema: SchemaHandle): unknown => {
    if (single) return schema.node;
    const index = set.documents.findIndex((d) => d.url === schema.docUrl);
    if (index < 0) return schema.node;
    const docs = specFor()[DOCUMENTS_KEY] as unknown[];
    return valueAt(docs[index], schema.pointer).value ?? schema.node;
  };
  // Operations share body schemas by reference (Graph: one entity's POST and PATCH at many
  // paths), so a sample of a bare `{ $ref }` is made once per target. Callers only read samples.
  const byRef = new Map<string, unknown>();
  const run = (schema: SchemaHandle, format: 'json' | 'xml'): unknown => {
    const ref = bareRef(schema.node);
    const key = ref === undefined ? undefined : `${format} ${schema.docUrl} ${ref}`;
    if (key !== undefined && byRef.has(key)) return byRef.get(key);
    let value: unknown;
    try {
      value = sampleSchema(nodeFor(schema), specFor(), { skip: 'readOnly', format });
    } catch (err) {
      onError(schema, err instanceof Error ? err.message : String(err));
      value = undefined;
    }
    if (key !== undefined) byRef.set(key, value);
    return value;
  };
  const resolve = (schema: SchemaHandle): SchemaHandle | undefined => {
    const resolved = set.deref(schema.docUrl, schema.pointer, schema.node);
    return resolved ? { docUrl: resolved.doc.url, pointer: resolved.pointer, node: resolved.value } : undefined;
  };
  return {
    json: (schema) => run(schema, 'json'),
    xml: (schema) => {
      const out = run(schema, 'xml');
      return typeof out === 'string' ? out : undefined;
    },
    resolve,
    shape: (schema) => shapeOf(schema, resolve, 0),
  };
}

/** The `$ref` of a schema that is nothing but one. */
function bareRef(node: unknown): string | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const keys = Object.keys(node);
  return keys.length === 1 && keys[0] === '$ref' ? refOf(node) : undefined;
}

function shapeOf(schema: SchemaHandle, resolve: (s: SchemaHandle) => SchemaHandle | undefined, depth: number): SchemaShape {
  const out: SchemaShape = { required: [], properties: [] };
  const resolved = resolve(schema);
  if (!resolved || depth > 8 || resolved.node === null || typeof resolved.node !== 'object') return out;
  const node = resolved.node as Record<string, unknown>;
  if (Array.isArray(node['allOf'])) {
    node['allOf'].forEach((member, i) => {
      const inner = shapeOf({ docUrl: resolved.docUrl, pointer: joinPointer(resolved.pointer, 'allOf', i), node: member }, resolve, depth + 1);
      out.required.push(...inner.required);
      out.properties.push(...inner.properties.filter((p) => !out.properties.some((q) => q.name === p.name)));
    });
  }
  if (Array.isArray(node['required'])) out.required.push(...node['required'].filter((r): r is string => typeof r === 'string'));
  const properties = node['properties'];
  if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
    for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
      if (out.properties.some((p) => p.name === name)) continue;
      out.properties.push({ name, schema: { docUrl: resolved.docUrl, pointer: joinPointer(resolved.pointer, 'properties', name), node: value } });
    }
  }
  return out;
}

/** A deep copy of a document with every `$ref` pointing into the synthetic spec. */
function rewriteRefs(value: unknown, docUrl: string, set: DocumentSet): unknown {
  const indexOf = new Map(set.documents.map((d, i) => [d.url, i] as const));
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) setOwn(out, key, copy(child));
    const ref = refOf(node);
    if (ref !== undefined) {
      const target = set.locateRef(docUrl, ref);
      const doc = target.ok ? set.get(target.url) : undefined;
      const index = doc ? indexOf.get(doc.url) : undefined;
      if (target.ok && index !== undefined) {
        const segments = pointerSegments(target.fragment);
        out['$ref'] = '#' + joinPointer(`/${DOCUMENTS_KEY}/${index}`, ...segments).split('/').map(encodeURIComponent).join('/');
      }
    }
    return out;
  };
  return copy(value);
}
