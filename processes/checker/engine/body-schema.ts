/**
 * The JSON schema a request's linked operation declares for its body, for the UI's Form view
 * (the checker process answers `checker.bodySchema` with it, off the supervisor's loop):
 * the operation found in the cached definition (OpenAPI 3.x `requestBody`, Swagger 2.0 `in: body`),
 * its JSON media type picked, and every `$ref` inlined into one self-contained tree.
 *
 * `$ref`s are followed with the checker's own PreparedDefinition rather than
 * @apidevtools/json-schema-ref-parser: the form then reads exactly the schema the contract check
 * validates against (3.1 `$id`, `$anchor` and 3.2 `$self`, which the ref parser does not follow),
 * the cached documents shared with the checker are neither cloned nor mutated, and only this
 * operation's schema is walked instead of the whole definition.
 *
 * What the tree carries besides JSON Schema (the UI's form/schema.ts reads the same names):
 * - `x-parley-ref`: the places (`file#pointer`) an inlined schema came from;
 * - `x-parley-name`: the component name it was referenced by, to label oneOf variants;
 * - `x-parley-cycle`: stands for the enclosing schema whose `x-parley-ref` holds that place, where
 *   a recursive schema was cut; the form expands it only as deep as the body goes;
 * - `x-parley-unresolved`: a `$ref` that cannot be followed (why), read as "any JSON";
 * - `x-parley-cut`: the tree grew past MAX_NODES or MAX_DEPTH here, read as "any JSON".
 * OpenAPI 3.0 `nullable` (and Swagger's `x-nullable`) become a `null` type; `allOf` is merged into
 * one schema where that keeps its meaning, and left as it is where not.
 */
import { OPENAPI_32_METHODS } from '../../../protocol/openapi-methods.js';
import { preferJsonMediaType } from '../../../protocol/media-type.js';
import { hasCode, type ParleyError } from '../../../protocol/errors.js';
import type { OperationLink } from '../../../protocol/model/request.js';
import type { DefinitionDocument } from '../../../protocol/model/verdict.js';
import { ownValue, setOwn } from '../../../protocol/own.js';
import { PreparedDefinition } from './definition.js';
import { escapeSegment, isObject, parsePointer } from '../../../protocol/json-pointer.js';
import type { Loc } from './keywords/site.js';
import { resolveReference } from './uri.js';

export const REF_KEY = 'x-parley-ref';
export const NAME_KEY = 'x-parley-name';
export const CYCLE_KEY = 'x-parley-cycle';
export const UNRESOLVED_KEY = 'x-parley-unresolved';
export const CUT_KEY = 'x-parley-cut';

/** Bounds on the inlined tree: a schema shared many times over is inlined each time. */
export const MAX_NODES = 20_000;
export const MAX_DEPTH = 256;

export interface BodySchemaResult {
  available: boolean;
  reason?: string;
  mediaType?: string;
  schema?: unknown;
}

type SchemaObject = Record<string, unknown>;

const METHODS_3X = new Set<string>(OPENAPI_32_METHODS);
/** Keywords whose value is a map of name to schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/** Keywords whose value is a list of schemas (`items` too, in its old tuple form). */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value is one schema. */
const SCHEMA_ONE = new Set(['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']);
/** Keywords that only place or name schemas: meaningless once everything is inlined. */
const DROPPED = new Set(['$id', '$schema', '$anchor', '$dynamicAnchor', '$defs', 'definitions', '$comment', '$ref', '$dynamicRef', 'nullable', 'x-nullable']);
/** Keywords that describe rather than constrain: on an allOf merge the first one given wins. */
const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', 'externalDocs', 'xml', NAME_KEY]);

/** The body schema of `operation` in a definition (entry document first). */
export function requestBodySchema(documents: readonly DefinitionDocument[], operation: OperationLink): BodySchemaResult {
  let def: PreparedDefinition;
  try {
    def = new PreparedDefinition(documents, 'body-schema');
  } catch (err) {
    if (hasCode(err, 'unsupported-definition')) return unavailable((err as ParleyError).message);
    throw err;
  }
  const found = findOperation(def, operation);
  if (typeof found === 'string') return unavailable(found);
  const name = `${operation.method.toUpperCase()} ${operation.path}`;
  const body = def.dialect === 'swagger2' ? swaggerBody(def, found, name) : openApiBody(def, found.op, name);
  if (typeof body === 'string') return unavailable(body);
  return { available: true, mediaType: body.mediaType, schema: new Inliner(def).at(body.schema) };
}

function unavailable(reason: string): BodySchemaResult {
  return { available: false, reason };
}

interface Found {
  item: { loc: Loc; value: SchemaObject };
  op: { loc: Loc; value: SchemaObject };
}

function findOperation(def: PreparedDefinition, link: OperationLink): Found | string {
  const paths = def.entry.paths;
  if (!isObject(paths)) return 'The definition has no paths.';
  // The link is the path as the document wrote it; a renamed path parameter still matches.
  const key = Object.hasOwn(paths, link.path) ? link.path : Object.keys(paths).find((p) => templateShape(p) === templateShape(link.path));
  if (key === undefined) return `The definition has no path ${link.path}.`;
  const item = def.follow({ docUri: def.entryUri, pointer: `/paths/${escapeSegment(key)}` });
  if (typeof item === 'string') return `The path ${link.path} cannot be read: ${item}.`;
  if (!isObject(item.value)) return `The path ${link.path} is not a Path Item.`;
  const method = link.method.toLowerCase();
  const at = (pointer: string, value: unknown) => (isObject(value) ? { item: { loc: item.loc, value: item.value as SchemaObject }, op: { loc: { docUri: item.loc.docUri, pointer }, value } } : undefined);
  if (METHODS_3X.has(method) || def.dialect === 'swagger2') {
    const found = at(`${item.loc.pointer}/${method}`, ownValue(item.value, method));
    if (found) return found;
  } else if (isObject(item.value.additionalOperations)) {
    // OpenAPI 3.2: other methods live under additionalOperations, keyed as written.
    const extra = item.value.additionalOperations;
    const name = Object.keys(extra).find((m) => m.toLowerCase() === method);
    const found = name === undefined ? undefined : at(`${item.loc.pointer}/additionalOperations/${escapeSegment(name)}`, extra[name]);
    if (found) return found;
  }
  return `The definition has no operation ${link.method.toUpperCase()} ${link.path}.`;
}

function templateShape(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

function child(loc: Loc, ...segments: string[]): Loc {
  return { docUri: loc.docUri, pointer: loc.pointer + segments.map((s) => `/${escapeSegment(s)}`).join('') };
}

function openApiBody(def: PreparedDefinition, op: Found['op'], name: string): { mediaType: string; schema: Loc } | string {
  if (op.value.requestBody === undefined) return `${name} declares no request body.`;
  const body = def.follow(child(op.loc, 'requestBody'));
  if (typeof body === 'string') return `The request body of ${name} cannot be read: ${body}.`;
  const content = isObject(body.value) ? body.value.content : undefined;
  if (!isObject(content) || Object.keys(content).length === 0) return `The request body of ${name} declares no media types.`;
  const mediaType = preferJsonMediaType(Object.keys(content));
  if (mediaType === undefined) return `The request body of ${name} is not JSON (it takes ${Object.keys(content).join(', ')}).`;
  const media = def.follow(child(body.loc, 'content', mediaType));
  if (typeof media === 'string') return `The ${mediaType} body of ${name} cannot be read: ${media}.`;
  if (!isObject(media.value) || media.value.schema === undefined) return `The ${mediaType} body of ${name} declares no schema.`;
  return { mediaType, schema: child(media.loc, 'schema') };
}

function swaggerBody(def: PreparedDefinition, found: Found, name: string): { mediaType: string; schema: Loc } | string {
  // An operation's parameter overrides the path item's of the same name and place.
  let param: { loc: Loc; value: SchemaObject } | undefined;
  for (const owner of [found.item, found.op]) {
    const list = owner.value.parameters;
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const p = def.follow(child(owner.loc, 'parameters', String(i)));
      if (typeof p !== 'string' && isObject(p.value) && p.value.in === 'body') param = { loc: p.loc, value: p.value };
    }
  }
  if (!param) return `${name} declares no body parameter.`;
  const consumes = Array.isArray(found.op.value.consumes) ? found.op.value.consumes : def.entry.consumes;
  const declared = Array.isArray(consumes) ? consumes.filter((c): c is string => typeof c === 'string') : [];
  const mediaType = declared.length === 0 ? 'application/json' : preferJsonMediaType(declared);
  if (mediaType === undefined) return `The body of ${name} is not JSON (it takes ${declared.join(', ')}).`;
  if (param.value.schema === undefined) return `The body parameter of ${name} declares no schema.`;
  return { mediaType, schema: child(param.loc, 'schema') };
}


/** Inlines `$ref`s below one schema location, cutting cycles and bounding the tree. */
class Inliner {
  private nodes = 0;
  /** Places a cycle marker points back at: a schema holding one must stay whole. */
  private readonly cycled = new Set<string>();

  constructor(private readonly def: PreparedDefinition) {}

  at(loc: Loc): unknown {
    return this.inline(this.def.schemaValue(loc), this.baseAt(loc), [], 0);
  }

  private inline(value: unknown, base: string, stack: readonly string[], depth: number): unknown {
    if (typeof value === 'boolean') return value;
    if (!isObject(value)) return {};
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH) return { [CUT_KEY]: true };
    const oas31 = this.def.dialect === 'oas31';
    let here = base;
    if (oas31 && typeof value.$id === 'string') here = resolveReference(value.$id, base)?.resource ?? base;
    const ref = typeof value.$ref === 'string' ? value.$ref : oas31 && typeof value.$dynamicRef === 'string' ? value.$dynamicRef : undefined;
    if (ref === undefined) return this.keywords(value, here, stack, depth);
    const target = this.follow(ref, here, stack, depth);
    // Before 3.1 a `$ref` replaces its object whole; from 3.1 on its siblings apply too.
    const siblings = oas31 ? Object.keys(value).filter((k) => !DROPPED.has(k)) : [];
    if (siblings.length === 0) return target;
    // The siblings first, so that their annotations (a description, say) win over the target's.
    return this.mergeAllOf({ allOf: [this.keywords(value, here, stack, depth), target] });
  }

  private follow(ref: string, base: string, stack: readonly string[], depth: number): unknown {
    const loc = this.def.resolveRef(ref, base);
    if (typeof loc === 'string') return { [UNRESOLVED_KEY]: loc };
    const key = this.placeOf(loc);
    if (stack.includes(key)) {
      this.cycled.add(key);
      return { [CYCLE_KEY]: key };
    }
    const inlined = this.inline(this.def.schemaValue(loc), this.baseAt(loc), [...stack, key], depth + 1);
    if (!isObject(inlined) || CUT_KEY in inlined) return inlined;
    const name = componentName(loc.pointer);
    return { ...inlined, [REF_KEY]: [key, ...refsOf(inlined)], ...(name !== undefined ? { [NAME_KEY]: name } : {}) };
  }

  private keywords(value: SchemaObject, base: string, stack: readonly string[], depth: number): SchemaObject {
    const out: SchemaObject = {};
    const inline = (v: unknown) => this.inline(v, base, stack, depth + 1);
    for (const [k, v] of Object.entries(value)) {
      if (DROPPED.has(k)) continue;
      if (SCHEMA_MAPS.has(k) && isObject(v)) setOwn(out, k, Object.fromEntries(Object.entries(v).map(([name, s]) => [name, inline(s)])));
      else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) setOwn(out, k, v.map(inline));
      else if (SCHEMA_ONE.has(k) && (isObject(v) || typeof v === 'boolean')) setOwn(out, k, inline(v));
      else if (k === 'discriminator' && isObject(v)) setOwn(out, k, this.discriminator(v, base));
      else setOwn(out, k, v);
    }
    const merged = Array.isArray(out.allOf) ? this.mergeAllOf(out) : out;
    // After the merge, so that the common 3.0 `nullable: true` + `allOf: [$ref]` reads as meant.
    const nullable = (this.def.dialect === 'oas30' && value.nullable === true) || (this.def.dialect === 'swagger2' && value['x-nullable'] === true);
    if (nullable) allowNull(merged);
    return merged;
  }

  /** Mapping values become the `x-parley-ref` places of the variants they name. */
  private discriminator(value: SchemaObject, base: string): SchemaObject {
    if (!isObject(value.mapping)) return value;
    const mapping: Record<string, string> = {};
    for (const [tag, target] of Object.entries(value.mapping)) {
      if (typeof target !== 'string') continue;
      const byRef = /[#/.]/.test(target) ? this.def.resolveRef(target, base) : undefined;
      const loc = byRef !== undefined && typeof byRef !== 'string' ? byRef : this.def.namedSchema(target, base);
      if (loc) setOwn(mapping, tag, this.placeOf(loc));
    }
    return { ...value, mapping };
  }

  /** A schema's place: `#pointer` in the entry document, else the document relative to the entry's folder. */
  private placeOf(loc: Loc): string {
    const folder = this.def.entryUri.slice(0, this.def.entryUri.lastIndexOf('/') + 1);
    const doc = loc.docUri === this.def.entryUri ? '' : loc.docUri.startsWith(folder) ? loc.docUri.slice(folder.length) : loc.docUri;
    return `${doc}#${loc.pointer}`;
  }

  /** One schema for an allOf where that keeps its meaning; otherwise the allOf as it was. */
  private mergeAllOf(schema: SchemaObject): SchemaObject {
    const { allOf, ...rest } = schema;
    if (!Array.isArray(allOf)) return schema;
    let merged: SchemaObject | undefined = rest;
    for (const part of allOf) {
      if (part === true) continue;
      if (!isObject(part) || CYCLE_KEY in part || UNRESOLVED_KEY in part || CUT_KEY in part) return schema;
      if (refsOf(part).some((r) => this.cycled.has(r))) return schema; // a cycle points at this part alone
      merged = mergeTwo(merged, part);
      if (!merged) return schema;
    }
    return merged;
  }

  /** Base URI at a location: its document's, or under 3.1 the nearest `$id` above it. */
  private baseAt(loc: Loc): string {
    let base = this.def.baseOf(loc.docUri);
    if (this.def.dialect !== 'oas31') return base;
    let pointer = '';
    const visit = () => {
      const value = this.def.schemaValue({ docUri: loc.docUri, pointer });
      if (isObject(value) && typeof value.$id === 'string') base = resolveReference(value.$id, base)?.resource ?? base;
    };
    visit();
    for (const segment of parsePointer(loc.pointer) ?? []) {
      pointer += `/${escapeSegment(segment)}`;
      visit();
    }
    return base;
  }
}

function componentName(pointer: string): string | undefined {
  const segments = parsePointer(pointer) ?? [];
  const container = segments[segments.length - 2];
  return container === 'schemas' || container === 'definitions' || container === '$defs' ? segments[segments.length - 1] : undefined;
}

function refsOf(schema: SchemaObject): string[] {
  const refs = schema[REF_KEY];
  return Array.isArray(refs) ? refs.filter((r): r is string => typeof r === 'string') : [];
}

function allowNull(schema: SchemaObject): void {
  const type = schema.type;
  if (typeof type === 'string') schema.type = type === 'null' ? type : [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) schema.type = [...type, 'null'];
}

/** Two schemas as one, or undefined where a keyword conflicts and merging would change the meaning. */
function mergeTwo(a: SchemaObject, b: SchemaObject): SchemaObject | undefined {
  if (closesOver(a, b) || closesOver(b, a)) return undefined;
  const out: SchemaObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (!Object.hasOwn(out, k)) {
      setOwn(out, k, v);
      continue;
    }
    const mine = out[k];
    if (k === REF_KEY) out[k] = [...new Set([...refsOf(a), ...refsOf(b)])];
    else if (ANNOTATIONS.has(k) || k.startsWith('x-')) continue;
    else if (k === 'required' && Array.isArray(mine) && Array.isArray(v)) out[k] = [...new Set([...mine, ...v])];
    else if (k === 'type') {
      const type = intersectTypes(mine, v);
      if (type === undefined) return undefined;
      out[k] = type;
    } else if (k === 'properties' && isObject(mine) && isObject(v)) {
      const props: SchemaObject = { ...mine };
      for (const [name, s] of Object.entries(v)) {
        const existing = ownValue(props, name);
        setOwn(props, name, existing === undefined || sameJson(existing, s) ? s : isObject(existing) && isObject(s) ? (mergeTwo(existing, s) ?? { allOf: [existing, s] }) : { allOf: [existing, s] });
      }
      out[k] = props;
    } else if (!sameJson(mine, v)) return undefined;
  }
  return out;
}

/** Whether `a` forbids properties that `b` adds (additionalProperties read per schema, not across an allOf). */
function closesOver(a: SchemaObject, b: SchemaObject): boolean {
  if (a.additionalProperties === undefined || a.additionalProperties === true) return false;
  const own = isObject(a.properties) ? a.properties : {};
  const added = [...Object.keys(isObject(b.properties) ? b.properties : {}), ...Object.keys(isObject(b.patternProperties) ? b.patternProperties : {})];
  return added.some((name) => !Object.hasOwn(own, name));
}

function intersectTypes(a: unknown, b: unknown): string | string[] | undefined {
  const list = (t: unknown) => (typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : []);
  const right = list(b);
  const both = new Set<string>();
  for (const t of list(a)) {
    if (right.includes(t)) both.add(t);
    else if (t === 'integer' && right.includes('number')) both.add('integer');
    else if (t === 'number' && right.includes('integer')) both.add('integer');
  }
  const out = [...both];
  return out.length === 0 ? undefined : out.length === 1 ? out[0] : out;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as SchemaObject)[k], (b as SchemaObject)[k]));
}
