/**
 * Reading the body schema the supervisor sends (processes/supervisor/checks/body-schema.ts):
 * `$ref`s are already inlined; a recursive schema is cut with `x-parley-cycle` naming the
 * enclosing schema (marked by `x-parley-ref`) it stands for, so a view resolves it from the
 * scope of schemas above it. Whatever allOf the supervisor could not merge exactly is folded here
 * loosely: the form needs the properties, not the exact validation.
 */
export type SchemaObject = Record<string, unknown>;
export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
/** Places (`x-parley-ref`) of the schemas enclosing the one being read. */
export type Scope = ReadonlyMap<string, SchemaObject>;

// The names processes/supervisor/checks/body-schema.ts writes.
export const REF_KEY = 'x-parley-ref';
export const NAME_KEY = 'x-parley-name';
export const CYCLE_KEY = 'x-parley-cycle';

export const JSON_TYPES: readonly JsonType[] = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];

export interface SchemaView {
  schema: SchemaObject;
  /** The scope for this schema's own subschemas. */
  scope: Scope;
  /** What the value may be; empty when the schema does not say (any JSON). */
  types: JsonType[];
}

export const EMPTY_SCOPE: Scope = new Map();

export function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function viewOf(schema: unknown, scope: Scope): SchemaView {
  let s: SchemaObject = isObject(schema) ? schema : {};
  if (typeof s[CYCLE_KEY] === 'string') s = scope.get(s[CYCLE_KEY]) ?? {};
  let inner = enter(scope, s);
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    let folded = rest;
    for (const part of allOf) {
      const view = viewOf(part, inner);
      inner = new Map([...inner, ...view.scope]);
      folded = foldLoosely(folded, view.schema);
    }
    s = folded;
  }
  return { schema: s, scope: inner, types: typesOf(s) };
}

function enter(scope: Scope, schema: SchemaObject): Scope {
  const refs = schema[REF_KEY];
  if (!Array.isArray(refs) || refs.length === 0) return scope;
  const next = new Map(scope);
  for (const ref of refs) if (typeof ref === 'string') next.set(ref, schema);
  return next;
}

/** Two schemas as one for the form: properties and required joined, types narrowed, the first word kept. */
function foldLoosely(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...b, ...a };
  if (isObject(a.properties) && isObject(b.properties)) {
    // a's properties first, in a's order, then those only b has.
    const mine = a.properties;
    out.properties = { ...mine, ...Object.fromEntries(Object.entries(b.properties).filter(([k]) => !Object.hasOwn(mine, k))) };
  }
  if (Array.isArray(a.required) || Array.isArray(b.required)) out.required = [...new Set([...asArray(a.required), ...asArray(b.required)])];
  if (a.type !== undefined && b.type !== undefined) {
    const both = typesOf(a).filter((t) => typesOf(b).includes(t) || (t === 'integer' && typesOf(b).includes('number')));
    out.type = both.length > 0 ? both : a.type;
  }
  return out;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function typeOfPlain(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') return typeof value as JsonType;
  return 'null';
}

/** The types a schema allows, from `type` or, failing that, from what its keywords imply. */
export function typesOf(s: SchemaObject): JsonType[] {
  const declared = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  if (declared) return JSON_TYPES.filter((t) => declared.includes(t));
  if ('const' in s) return [typeOfPlain(s.const)];
  if (Array.isArray(s.enum)) return JSON_TYPES.filter((t) => (s.enum as unknown[]).some((v) => typeOfPlain(v) === t));
  if (isObject(s.properties) || Array.isArray(s.required) || s.additionalProperties !== undefined || isObject(s.patternProperties)) return ['object'];
  if (s.items !== undefined || Array.isArray(s.prefixItems)) return ['array'];
  return [];
}

/** Whether a value of type `actual` is one of `allowed` (an integer is a number). */
export function typeAllowed(allowed: readonly JsonType[], actual: JsonType): boolean {
  return allowed.length === 0 || allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'));
}

export function propertiesOf(view: SchemaView): [string, unknown][] {
  return isObject(view.schema.properties) ? Object.entries(view.schema.properties) : [];
}

/** Required properties a request must send: a readOnly one is only ever in responses. */
export function requiredOf(view: SchemaView): string[] {
  const props = isObject(view.schema.properties) ? view.schema.properties : {};
  return asArray(view.schema.required).filter((n): n is string => typeof n === 'string' && !(isObject(props[n]) && props[n].readOnly === true));
}

/** The schema of a property, and whether the schema knows it at all. */
export function propertySchema(view: SchemaView, name: string): { schema: unknown; known: boolean } {
  const s = view.schema;
  if (isObject(s.properties) && Object.hasOwn(s.properties, name)) return { schema: s.properties[name], known: true };
  if (isObject(s.patternProperties)) {
    for (const [pattern, schema] of Object.entries(s.patternProperties)) {
      if (safeTest(pattern, name)) return { schema, known: true };
    }
  }
  if (isObject(s.additionalProperties)) return { schema: s.additionalProperties, known: true };
  return { schema: {}, known: false };
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/** Whether an object may take properties the schema does not name. */
export function opensProperties(view: SchemaView): boolean {
  return view.schema.additionalProperties !== false;
}

export function itemSchema(view: SchemaView, index: number): unknown {
  const s = view.schema;
  if (Array.isArray(s.prefixItems) && index < s.prefixItems.length) return s.prefixItems[index];
  if (Array.isArray(s.items)) return index < s.items.length ? s.items[index] : (s.additionalItems ?? {});
  return s.items ?? {};
}

export function variantsOf(view: SchemaView): unknown[] | undefined {
  const list = Array.isArray(view.schema.oneOf) ? view.schema.oneOf : Array.isArray(view.schema.anyOf) ? view.schema.anyOf : undefined;
  return list && list.length > 0 ? list : undefined;
}

/** The schema of one variant together with what its parent says besides the alternatives. */
export function withVariant(view: SchemaView, variant: unknown): SchemaView {
  const { oneOf: _o, anyOf: _a, ...rest } = view.schema;
  return viewOf({ allOf: [rest, variant] }, view.scope);
}

export function enumOf(view: SchemaView): unknown[] | undefined {
  if ('const' in view.schema) return [view.schema.const];
  return Array.isArray(view.schema.enum) ? view.schema.enum : undefined;
}

export function discriminatorOf(view: SchemaView): { property: string; mapping: Record<string, string> } | undefined {
  const d = view.schema.discriminator;
  if (!isObject(d) || typeof d.propertyName !== 'string') return undefined;
  const mapping = isObject(d.mapping) ? (Object.fromEntries(Object.entries(d.mapping).filter(([, v]) => typeof v === 'string')) as Record<string, string>) : {};
  return { property: d.propertyName, mapping };
}

export function refsOf(schema: unknown): string[] {
  const refs = isObject(schema) ? schema[REF_KEY] : undefined;
  return Array.isArray(refs) ? refs.filter((r): r is string => typeof r === 'string') : [];
}

/** How a schema is called in a variant picker or a heading. */
export function schemaName(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.title === 'string' && schema.title.trim()) return schema.title.trim();
  if (typeof schema[NAME_KEY] === 'string') return schema[NAME_KEY];
  return undefined;
}

/** A short reminder of what the schema asks: format, lengths, ranges, pattern. */
export function constraintHint(view: SchemaView): string {
  const s = view.schema;
  const parts: string[] = [];
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  if (typeof s.format === 'string') parts.push(s.format);
  const range = (lo: number | undefined, hi: number | undefined, unit: string) => {
    const units = (n: number) => `${unit}${n === 1 ? '' : 's'}`;
    if (lo !== undefined && hi !== undefined) parts.push(lo === hi ? `${lo} ${units(lo)}` : `${lo}–${hi} ${units(hi)}`);
    else if (lo !== undefined) parts.push(`≥ ${lo} ${units(lo)}`);
    else if (hi !== undefined) parts.push(`≤ ${hi} ${units(hi)}`);
  };
  range(num('minLength'), num('maxLength'), 'char');
  range(num('minItems'), num('maxItems'), 'item');
  const lo = num('minimum');
  const hi = num('maximum');
  if (lo !== undefined || hi !== undefined) {
    const lower = lo === undefined ? '' : `${lo}${s.exclusiveMinimum === true ? ' <' : ' ≤'} `;
    const upper = hi === undefined ? '' : ` ${s.exclusiveMaximum === true ? '<' : '≤'} ${hi}`;
    parts.push(`${lower}n${upper}`.trim());
  }
  if (typeof s.exclusiveMinimum === 'number') parts.push(`> ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === 'number') parts.push(`< ${s.exclusiveMaximum}`);
  if (typeof s.multipleOf === 'number') parts.push(`× ${s.multipleOf}`);
  if (typeof s.pattern === 'string') parts.push(`/${s.pattern}/`);
  return parts.join(' · ');
}
