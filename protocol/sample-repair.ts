/**
 * Mends the three ways an openapi-sampler sample breaks its own schema (issue 12: New Mock's
 * defaults on Microsoft Graph had 60,367 findings of the mock's own contract check):
 *
 * - A discriminator property holds the sampler's "string" where it must name a schema: it gets
 *   the mapping key whose target is the schema sampled there, else that schema's own name (the
 *   checker's implicit mapping: any schema of `components/schemas` by name), else the base's.
 * - Past the depth cut the sampler writes nothing for a `$ref` (null in an array): a cut item is
 *   dropped (while `minItems` allows), an optional cut property left out, a required one sampled
 *   shallowly. Null stays where the schema allows it.
 * - A cut object is `{}`: it gets its required properties, each a shallow sample.
 * - And one the sampler gets wrong at any depth: a `duration` string is the word "string"; it gets `P1D`.
 *
 * It walks the sample with its schema (`$ref`s within the document, `allOf` merged, the first
 * `oneOf`/`anyOf` branch as the sampler takes it), copies on write (a sample that needs nothing
 * comes back as the same value; an example taken from the document is never changed), and does
 * no more than `budget` steps, leaving the rest as sampled.
 */
import { pointerOf, pointerSegments, valueAt } from './json-pointer.js';
import { ownValue, setOwn } from './own.js';

type Schema = Record<string, unknown>;

interface Discriminator {
  property: string;
  /** Mapping keys. */
  mapping: Set<string>;
  /** The keys naming each target: by `ptr:` and the pointer's segments, or `name:` and a bare schema name. */
  keysFor: Map<string, string[]>;
  /** The pointer of the schema that holds the discriminator, when reached by a `$ref`. */
  owner: string | undefined;
  /** Beside oneOf/anyOf: the pointer of the first branch (the sampler's pick); the tag names it. */
  branch: string | undefined;
  /** Beside oneOf/anyOf: the names of the alternatives that are `$ref`s (the checker's implicit mapping there). */
  alternatives: Set<string>;
}

/** What a sample at one place must satisfy, merged over `$ref`s and `allOf`. */
interface View {
  schemas: Schema[];
  /** The pointer of the schema sampled here, when this place is a `$ref`. */
  subject: string | undefined;
  nullable: boolean;
  /** The sampler took a value as written (example, default, enum, const): leave it. */
  fixed: boolean;
  typed: boolean;
  properties: Map<string, Schema[]>;
  required: Set<string>;
  items: Schema[];
  minItems: number;
  additional: Schema[];
  discriminators: Discriminator[];
  readOnly: boolean;
  writeOnly: boolean;
  /** `format: duration`, which the sampler does not write. */
  duration: boolean;
  children: Map<string, View>;
  itemView: View | undefined;
  stub: { value: unknown } | undefined;
  tag: { value: string | undefined } | undefined;
}

export interface RepairContext {
  document: object;
  skip: 'readOnly' | 'writeOnly';
  /** A shallow sample of a schema (the sampler at depth 1); may throw. */
  resample: (schema: Schema) => unknown;
  /** Steps left: each value visited costs one, each shallow sample ten. */
  budget: number;
}

/** Views by document and by what is skipped (a view keeps its shallow sample, which depends on that). */
const viewCaches = new WeakMap<object, Record<RepairContext['skip'], WeakMap<object, View>>>();
const STUB_COST = 10;
const STUB_DEPTH = 6;

/** `value` mended against `schema` (see the module comment); `value` itself when it needs nothing. */
export function repairSample(value: unknown, schema: unknown, ctx: RepairContext): unknown {
  if (!isSchema(schema)) return value;
  const state: State = { ctx, cache: cacheFor(ctx.document)[ctx.skip], stubbing: new Set(), stubDepth: 0 };
  return repair(value, viewOf(state, [schema]), state);
}

interface State {
  ctx: RepairContext;
  cache: WeakMap<object, View>;
  stubbing: Set<View>;
  stubDepth: number;
}

function cacheFor(document: object): Record<RepairContext['skip'], WeakMap<object, View>> {
  let cache = viewCaches.get(document);
  if (!cache) {
    cache = { readOnly: new WeakMap(), writeOnly: new WeakMap() };
    viewCaches.set(document, cache);
  }
  return cache;
}

function repair(value: unknown, view: View, state: State): unknown {
  if (--state.ctx.budget < 0 || view.fixed) return value;
  if (value === null || value === undefined) return allowsNull(view) ? value : (stub(view, state) ?? value);
  if (Array.isArray(value)) return repairArray(value, view, state);
  if (typeof value === 'object') return repairObject(value as Record<string, unknown>, view, state);
  // The sampler writes the word "string" for the format `duration` (Graph has 612 of them).
  if (typeof value === 'string' && view.duration && !DURATION.test(value)) return 'P1D';
  return value;
}

function allowsNull(view: View): boolean {
  return view.nullable || !view.typed;
}

function repairArray(value: unknown[], view: View, state: State): unknown[] {
  if (view.items.length === 0) return value;
  const itemView = (view.itemView ??= viewOf(state, view.items));
  let out: unknown[] | undefined;
  value.forEach((item, i) => {
    let next: unknown = item;
    const missing = (item === null || item === undefined) && !allowsNull(itemView);
    if (missing) next = value.length > view.minItems ? DROP : (stub(itemView, state) ?? item);
    else next = repair(item, itemView, state);
    if (next !== item && !out) out = value.slice(0, i);
    if (out && next !== DROP) out.push(next);
  });
  if (!out) return value;
  // Dropped cut items; the array keeps at least minItems when a shallow sample can fill them (no
  // more items than the sampler made: a `minItems` from outside may be huge).
  while (out.length < Math.min(view.minItems, value.length)) {
    const filler = stub(itemView, state);
    if (filler === undefined) break;
    out.push(filler);
  }
  return out;
}

const DROP = Symbol('drop');

/** ISO 8601 durations as ajv-formats (the checker's formats) reads them. */
const DURATION = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;

function repairObject(value: Record<string, unknown>, view: View, state: State): Record<string, unknown> {
  if (view.properties.size === 0 && view.required.size === 0 && view.additional.length === 0 && view.discriminators.length === 0) return value;
  let out: Record<string, unknown> | undefined;
  const write = (name: string, next: unknown): void => {
    out ??= copyOf(value);
    if (next === DROP) delete out[name];
    else setOwn(out, name, next);
  };
  for (const [name, child] of Object.entries(value)) {
    const childView = propertyView(view, name, state);
    if (!childView) continue;
    if (child === null || child === undefined) {
      if (allowsNull(childView)) continue;
      if (!view.required.has(name)) {
        if (child === null) write(name, DROP);
        continue;
      }
      const filler = stub(childView, state);
      if (filler !== undefined) write(name, filler);
      continue;
    }
    const next = repair(child, childView, state);
    if (next !== child) write(name, next);
  }
  for (const name of view.required) {
    if (Object.hasOwn(value, name) && value[name] !== undefined) continue;
    const childView = propertyView(view, name, state);
    if (!childView || skipped(childView, state)) continue;
    const filler = stub(childView, state);
    if (filler !== undefined) write(name, filler);
  }
  if (view.discriminators.length > 0) {
    // One property may serve several discriminators (Graph: entity's and directoryObject's): the tag must suit them all.
    const tag = ownValue(out ?? value, view.discriminators[0]!.property);
    if (typeof tag !== 'string' || !view.discriminators.every((d) => accepted(d, tag, state))) {
      view.tag ??= { value: tagFor(view, state) };
      if (view.tag.value !== undefined) write(view.discriminators[0]!.property, view.tag.value);
    }
  }
  return out ?? value;
}

function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) setOwn(out, name, child);
  return out;
}

/** A property the sample leaves out on purpose: readOnly in a request, writeOnly in a response. */
function skipped(view: View, state: State): boolean {
  return state.ctx.skip === 'readOnly' ? view.readOnly : view.writeOnly;
}

function propertyView(view: View, name: string, state: State): View | undefined {
  const known = view.children.get(name);
  if (known) return known;
  const schemas = view.properties.get(name) ?? view.additional;
  if (schemas.length === 0) return undefined;
  const child = viewOf(state, schemas);
  view.children.set(name, child);
  return child;
}

/** A shallow sample of `view`, mended too; undefined when none can be made (a cycle, the budget). */
function stub(view: View, state: State): unknown {
  if (view.stub) return view.stub.value;
  if (state.stubbing.has(view) || state.stubDepth >= STUB_DEPTH) return undefined;
  state.ctx.budget -= STUB_COST;
  if (state.ctx.budget < 0) return undefined;
  const schema = view.schemas.length === 1 ? view.schemas[0]! : { allOf: view.schemas };
  let raw: unknown;
  try {
    raw = state.ctx.resample(schema);
  } catch {
    return undefined;
  }
  state.stubbing.add(view);
  state.stubDepth++;
  let value: unknown;
  try {
    value = raw === undefined || raw === null ? (allowsNull(view) ? raw : undefined) : repair(raw, view, state);
  } finally {
    state.stubbing.delete(view);
    state.stubDepth--;
  }
  // Copy on write throughout, so one stub may stand in many places.
  if (value !== undefined && state.ctx.budget >= 0) view.stub = { value };
  return value;
}

/** The checker's rule: a mapping key, an alternative's name beside oneOf/anyOf, else (inheritance) any named schema. */
function accepted(d: Discriminator, tag: string, state: State): boolean {
  if (d.mapping.has(tag)) return true;
  if (d.branch !== undefined) return d.alternatives.has(tag);
  return isSchema(ownValue(namedSchemas(state.ctx.document), tag));
}

/**
 * The tag for a sample of `view`: the mapping key for the schema sampled here, else its name; failing
 * those, the key or name of a schema that holds a discriminator (the base names itself). The first
 * every discriminator of the place accepts.
 */
function tagFor(view: View, state: State): string | undefined {
  const targets: string[] = [];
  for (const d of view.discriminators) if (d.branch !== undefined) targets.push(d.branch);
  if (view.subject !== undefined) targets.push(view.subject);
  for (const d of view.discriminators) if (d.owner !== undefined) targets.push(d.owner);
  const candidates: string[] = [];
  for (const target of targets) {
    const name = nameOf(target);
    for (const d of view.discriminators) {
      candidates.push(...(d.keysFor.get(`ptr:${pointerSegments(target).join('/')}`) ?? []));
      if (name !== undefined) candidates.push(...(d.keysFor.get(`name:${name}`) ?? []));
    }
    if (name !== undefined) candidates.push(name);
  }
  return candidates.find((tag) => view.discriminators.every((d) => accepted(d, tag, state)));
}

/** The schema name of `#/components/schemas/X` (or `#/definitions/X`); undefined for other places. */
function nameOf(pointer: string): string | undefined {
  const segments = pointerSegments(pointer);
  if (segments.length === 3 && segments[0] === 'components' && segments[1] === 'schemas') return segments[2];
  if (segments.length === 2 && segments[0] === 'definitions') return segments[1];
  return undefined;
}

function namedSchemas(document: object): object {
  const components = ownValue(document, 'components');
  const schemas = isSchema(components) ? ownValue(components, 'schemas') : ownValue(document, 'definitions');
  return isSchema(schemas) ? schemas : {};
}

/** A local `$ref`'s target (the fragment percent-decoded, as the checker reads it), read by json-pointer's one reader. */
function resolve(document: object, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  const { value } = valueAt(document, pointerOf(pointerSegments(ref)));
  return isSchema(value) ? value : undefined;
}

function viewOf(state: State, schemas: Schema[]): View {
  const single = schemas.length === 1 ? schemas[0]! : undefined;
  const known = single ? state.cache.get(single) : undefined;
  if (known) return known;
  const view = buildView(state.ctx.document, schemas);
  if (single) state.cache.set(single, view);
  return view;
}

const FIXED = ['example', 'examples', 'const', 'enum', 'default'];

function buildView(document: object, schemas: Schema[]): View {
  const view: View = {
    schemas,
    subject: undefined,
    nullable: false,
    fixed: false,
    typed: false,
    properties: new Map(),
    required: new Set(),
    items: [],
    minItems: 0,
    additional: [],
    discriminators: [],
    readOnly: false,
    writeOnly: false,
    duration: false,
    children: new Map(),
    itemView: undefined,
    stub: undefined,
    tag: undefined,
  };
  const first = schemas[0];
  if (schemas.length === 1 && first && typeof first.$ref === 'string') view.subject = first.$ref;
  // Each part with the pointer it was reached by (a `$ref`'s target), for a discriminator's owner.
  const stack: [Schema, string | undefined][] = schemas.map((s) => [s, undefined]);
  const seen = new Set<Schema>();
  while (stack.length > 0) {
    const [part, reachedBy] = stack.pop()!;
    if (seen.has(part)) continue;
    seen.add(part);
    if (typeof part.$ref === 'string') {
      const target = resolve(document, part.$ref);
      if (target) stack.push([target, part.$ref]);
      else view.typed = true; // a place the walk cannot read: leave nothing to chance, mend nothing below
    }
    for (const key of FIXED) if (part[key] !== undefined) view.fixed = true;
    if (part.nullable === true || part['x-nullable'] === true) view.nullable = true;
    const type = part.type;
    if (type !== undefined) {
      view.typed = true;
      if (type === 'null' || (Array.isArray(type) && type.includes('null'))) view.nullable = true;
    }
    if (part.readOnly === true) view.readOnly = true;
    if (part.format === 'duration') view.duration = true;
    if (part.writeOnly === true) view.writeOnly = true;
    if (isSchema(part.properties)) {
      view.typed = true;
      for (const [name, s] of Object.entries(part.properties)) {
        if (!isSchema(s)) continue;
        const list = view.properties.get(name);
        if (list) list.push(s);
        else view.properties.set(name, [s]);
      }
    }
    if (Array.isArray(part.required)) for (const name of part.required) if (typeof name === 'string') view.required.add(name);
    if (isSchema(part.items)) {
      view.typed = true;
      view.items.push(part.items);
    }
    if (typeof part.minItems === 'number') view.minItems = Math.max(view.minItems, part.minItems);
    if (isSchema(part.additionalProperties)) view.additional.push(part.additionalProperties);
    if (Array.isArray(part.allOf)) for (const s of part.allOf) if (isSchema(s)) stack.push([s, undefined]);
    const choice = Array.isArray(part.oneOf) && part.oneOf.length > 0 ? part.oneOf : Array.isArray(part.anyOf) && part.anyOf.length > 0 ? part.anyOf : undefined;
    const branch = choice?.[0];
    // Graph's nullable navigation: anyOf [$ref, { nullable: true }]; the checker takes null by the second.
    if (choice?.some((b) => isSchema(b) && (b.nullable === true || b.type === 'null' || (Array.isArray(b.type) && b.type.includes('null'))))) view.nullable = true;
    if (isSchema(branch)) stack.push([branch, undefined]);
    const discriminator = discriminatorOf(part, reachedBy, choice ? (isSchema(branch) && typeof branch.$ref === 'string' ? branch.$ref : '') : undefined, choice ?? []);
    if (discriminator) view.discriminators.push(discriminator);
  }
  // A schema without a readable place (an unresolved `$ref`) is mended no further.
  if (schemas.some((s) => typeof s.$ref === 'string' && !resolve(document, s.$ref))) view.fixed = true;
  return view;
}

function discriminatorOf(part: Schema, owner: string | undefined, branch: string | undefined, choice: unknown[]): Discriminator | undefined {
  const raw = part.discriminator;
  const property = typeof raw === 'string' ? raw : isSchema(raw) && typeof raw.propertyName === 'string' ? raw.propertyName : undefined;
  if (property === undefined) return undefined;
  // Graph's base has thousands of mapping entries and hundreds of schemas extend it: read it once.
  const known = isSchema(raw) ? mappings.get(raw) : undefined;
  const { mapping, keysFor } = known ?? readMapping(raw);
  if (isSchema(raw) && !known) mappings.set(raw, { mapping, keysFor });
  // As the checker names them: the `$ref`'s last segment, percent-decoded.
  const alternatives = new Set<string>();
  for (const alt of choice) {
    const ref = isSchema(alt) ? alt.$ref : undefined;
    if (typeof ref !== 'string') continue;
    try {
      alternatives.add(decodeURIComponent(ref.slice(ref.lastIndexOf('/') + 1)));
    } catch {
      // Not valid percent-encoding: the checker could not name it either.
    }
  }
  return { property, mapping, keysFor, owner, branch, alternatives };
}

const mappings = new WeakMap<object, Pick<Discriminator, 'mapping' | 'keysFor'>>();

function readMapping(raw: unknown): Pick<Discriminator, 'mapping' | 'keysFor'> {
  const mapping = new Set<string>();
  const keysFor = new Map<string, string[]>();
  if (!isSchema(raw) || !isSchema(raw.mapping)) return { mapping, keysFor };
  for (const [key, to] of Object.entries(raw.mapping)) {
    if (typeof to !== 'string') continue;
    mapping.add(key);
    // The checker reads a value without `#` or `/` as a schema name, else as a reference.
    const place = /[#/]/.test(to) ? (to.startsWith('#') ? `ptr:${pointerSegments(to).join('/')}` : undefined) : `name:${to}`;
    if (place === undefined) continue;
    const keys = keysFor.get(place);
    if (keys) keys.push(key);
    else keysFor.set(place, [key]);
  }
  return { mapping, keysFor };
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
