/**
 * The value a new property, item or variant starts with: the schema's const, default or first
 * enum value, else an empty value of its first type, with an object's required properties
 * filled in the same way.
 */
import { fromPlain, type JsonValue } from './json-value.js';
import { enumOf, itemSchema, propertySchema, requiredOf, variantsOf, viewOf, withVariant, type JsonType, type Scope, type SchemaView } from './schema.js';

/** Required properties of required properties... stop here, for a schema that requires itself. */
const MAX_DEPTH = 8;
const MAX_MIN_ITEMS = 16;

export function defaultFor(schema: unknown, scope: Scope, depth = 0): JsonValue {
  return defaultOfView(viewOf(schema, scope), depth);
}

export function defaultOfView(view: SchemaView, depth = 0): JsonValue {
  const s = view.schema;
  if ('const' in s) return fromPlain(s.const);
  if (s.default !== undefined) return fromPlain(s.default);
  const values = enumOf(view);
  if (values && values.length > 0) return fromPlain(values[0]);
  const variants = variantsOf(view);
  if (variants) return defaultOfView(withVariant(view, variants[0]), depth);
  return emptyOf(view.types.find((t) => t !== 'null') ?? view.types[0], view, depth);
}

/** An empty value of one type; any JSON (no type) starts as null. */
export function emptyOf(type: JsonType | undefined, view: SchemaView, depth = 0): JsonValue {
  switch (type) {
    case 'string':
      return { kind: 'string', value: '' };
    case 'number':
    case 'integer':
      return { kind: 'number', raw: String(lowest(view.schema, type === 'integer')) };
    case 'boolean':
      return { kind: 'boolean', value: false };
    case 'object':
      if (depth >= MAX_DEPTH) return { kind: 'object', entries: [] };
      return { kind: 'object', entries: requiredOf(view).map((key) => ({ key, value: defaultFor(propertySchema(view, key).schema, view.scope, depth + 1) })) };
    case 'array': {
      const min = typeof view.schema.minItems === 'number' && depth < MAX_DEPTH ? Math.min(view.schema.minItems, MAX_MIN_ITEMS) : 0;
      return { kind: 'array', items: Array.from({ length: min }, (_, i) => defaultFor(itemSchema(view, i), view.scope, depth + 1)) };
    }
    default:
      return { kind: 'null' };
  }
}

/** The smallest number the bounds allow, or 0 when 0 is allowed. */
function lowest(s: Record<string, unknown>, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  let low: number | undefined;
  if (typeof s.minimum === 'number') low = s.exclusiveMinimum === true ? s.minimum + step : s.minimum;
  if (typeof s.exclusiveMinimum === 'number') low = Math.max(low ?? -Infinity, s.exclusiveMinimum + step);
  if (low !== undefined) return integer ? Math.ceil(low) : low;
  const high = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - step : undefined;
  return high !== undefined && high < 0 ? (integer ? Math.floor(high) : high) : 0;
}
