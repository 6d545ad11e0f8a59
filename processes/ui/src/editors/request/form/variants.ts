/**
 * oneOf / anyOf: which alternative a value is (its discriminator, else the best fit), what each
 * is called in the picker, and the value after choosing another one, keeping what fits it.
 */
import { defaultOfView } from './defaults.js';
import { getAt } from './json-path.js';
import { equalsPlain, isIntegerLiteral, type JsonEntry, type JsonValue } from './json-value.js';
import {
  NAME_KEY,
  discriminatorOf,
  enumOf,
  isObject,
  propertiesOf,
  propertySchema,
  refsOf,
  requiredOf,
  schemaName,
  typeAllowed,
  typesOf,
  viewOf,
  withVariant,
  type JsonType,
  type SchemaView,
} from './schema.js';

export function valueType(value: JsonValue): JsonType | undefined {
  switch (value.kind) {
    case 'number':
      return isIntegerLiteral(value.raw) ? 'integer' : 'number';
    case 'expansion':
      return undefined; // could be anything once expanded
    default:
      return value.kind;
  }
}

/** Loosely: of an allowed type and, where the schema lists values, one of them. */
export function fits(value: JsonValue, view: SchemaView): boolean {
  const type = valueType(value);
  if (type === undefined) return true;
  if (!typeAllowed(view.types, type)) return false;
  const values = enumOf(view);
  return !values || values.some((v) => equalsPlain(value, v));
}

/** The discriminator values that name a variant: by mapping, by its component name, by its own const or enum. */
function tagsOf(parent: SchemaView, variant: unknown): string[] {
  const d = discriminatorOf(parent);
  if (!d) return [];
  const refs = refsOf(variant);
  const tags = Object.entries(d.mapping)
    .filter(([, place]) => refs.includes(place))
    .map(([tag]) => tag);
  if (isObject(variant) && typeof variant[NAME_KEY] === 'string') tags.push(variant[NAME_KEY]);
  const own = enumOf(viewOf(propertySchema(viewOf(variant, parent.scope), d.property).schema, parent.scope));
  for (const v of own ?? []) if (typeof v === 'string') tags.push(v);
  return tags;
}

export function variantLabel(parent: SchemaView, variant: unknown, index: number): string {
  const named = schemaName(variant) ?? tagsOf(parent, variant)[0];
  if (named) return named;
  const view = viewOf(variant, parent.scope);
  const values = enumOf(view);
  if (values?.length === 1) return JSON.stringify(values[0]);
  const types = typesOf(view.schema);
  if (types.length > 0) return types.join(' or ');
  return `Option ${index + 1}`;
}

export function detectVariant(parent: SchemaView, variants: readonly unknown[], value: JsonValue | undefined): number {
  if (!value) return 0;
  const d = discriminatorOf(parent);
  const tag = d ? getAt(value, [d.property]) : undefined;
  if (tag?.kind === 'string') {
    const named = variants.findIndex((v) => tagsOf(parent, v).includes(tag.value));
    if (named >= 0) return named;
  }
  let best = 0;
  let bestScore = -Infinity;
  variants.forEach((v, i) => {
    const score = fitScore(withVariant(parent, v), value);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/** How well a value fits a variant; higher is better, hugely negative when its type is wrong. */
function fitScore(view: SchemaView, value: JsonValue): number {
  if (!fits(value, view)) return -1000;
  if (value.kind !== 'object') return view.types.length > 0 ? 1 : 0;
  let score = 1;
  const present = new Set(value.entries.map((e) => e.key));
  for (const name of requiredOf(view)) score += present.has(name) ? 3 : -4;
  for (const entry of value.entries) {
    const { schema, known } = propertySchema(view, entry.key);
    if (!known) {
      score += view.schema.additionalProperties === false ? -5 : 0;
      continue;
    }
    const prop = viewOf(schema, view.scope);
    if (!fits(entry.value, prop)) score -= 20;
    else score += enumOf(prop) ? 5 : 2;
  }
  return score;
}

/**
 * The value after choosing variant `to`: an object keeps the properties the new variant knows
 * (where their values fit it) and those no variant knows, gains the new one's required
 * properties and discriminator; any other value is kept if it fits, else starts afresh.
 */
export function switchVariant(parent: SchemaView, variants: readonly unknown[], to: number, value: JsonValue | undefined): JsonValue {
  const target = withVariant(parent, variants[to]);
  const fresh = defaultOfView(target);
  if (!value) return withTag(parent, variants[to], fresh);
  if (value.kind !== 'object' || fresh.kind !== 'object') return fits(value, target) ? value : fresh;
  const knownHere = new Set(propertiesOf(target).map(([name]) => name));
  const knownAnywhere = new Set(variants.flatMap((v) => propertiesOf(withVariant(parent, v)).map(([name]) => name)));
  const kept: JsonEntry[] = value.entries.filter((e) =>
    knownHere.has(e.key) ? fits(e.value, viewOf(propertySchema(target, e.key).schema, target.scope)) : !knownAnywhere.has(e.key),
  );
  const have = new Set(kept.map((e) => e.key));
  const entries = [...kept, ...fresh.entries.filter((e) => !have.has(e.key))];
  return withTag(parent, variants[to], { kind: 'object', entries });
}

function withTag(parent: SchemaView, variant: unknown, value: JsonValue): JsonValue {
  const d = discriminatorOf(parent);
  const tag = tagsOf(parent, variant)[0];
  if (!d || tag === undefined || value.kind !== 'object') return value;
  const entry = { key: d.property, value: { kind: 'string', value: tag } as JsonValue };
  const at = value.entries.findIndex((e) => e.key === d.property);
  const entries = at < 0 ? [...value.entries, entry] : value.entries.map((e, i) => (i === at ? entry : e));
  return { kind: 'object', entries };
}
