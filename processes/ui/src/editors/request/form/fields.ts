/**
 * The Form view's model: a schema and a JSON value become a flat list of fields, one per value
 * (and one per required property not given yet), each labelled by its path. A value the schema
 * does not know is listed too, as JSON, so the form never hides (or drops) it.
 */
import { pathLabel, type Path } from './json-path.js';
import type { JsonValue } from './json-value.js';
import {
  constraintHint,
  enumOf,
  isObject,
  itemSchema,
  propertiesOf,
  propertySchema,
  requiredOf,
  schemaName,
  typeAllowed,
  variantsOf,
  viewOf,
  withVariant,
  EMPTY_SCOPE,
  type JsonType,
  type Scope,
  type SchemaView,
} from './schema.js';
import { detectVariant, fits, valueType, variantLabel } from './variants.js';

export type FieldKind = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'enum' | 'json';

export interface Field {
  /** Stable across edits: the path label ('' for the whole body). */
  key: string;
  path: Path;
  label: string;
  depth: number;
  kind: FieldKind;
  /** Undefined when absent: a required property not given yet, or an empty body. */
  value: JsonValue | undefined;
  /** The schema in force, the chosen variant folded in. */
  view: SchemaView;
  required: boolean;
  /** False for a property the schema does not name. */
  known: boolean;
  removable: boolean;
  /** When the schema allows more than one type: which, and the one the value has. */
  typeChoice?: { types: JsonType[]; current: JsonType };
  variants?: { labels: string[]; chosen: number; parent: SchemaView; schemas: unknown[] };
  enumValues?: unknown[];
  /** The value is of a type the schema does not allow: shown as JSON, with this said. */
  mismatch?: string;
  /** Objects: optional properties not given, which the form offers to add. */
  addable?: string[];
  /** Arrays: whether the schema lets another item in. */
  canAddItem?: boolean;
  title?: string;
  description?: string;
  hint: string;
}

export interface FieldList {
  fields: Field[];
  /** More fields than MAX_FIELDS: the rest is edited as Text. */
  truncated: boolean;
}

export const MAX_FIELDS = 2000;

interface Place {
  required: boolean;
  known: boolean;
  removable: boolean;
}

/** `choices` holds variants the user picked, by field key, kept while the value still fits them. */
export function buildFields(schema: unknown, value: JsonValue | undefined, choices: ReadonlyMap<string, number> = new Map()): FieldList {
  const fields: Field[] = [];
  let truncated = false;

  const walk = (schemaHere: unknown, scope: Scope, valueHere: JsonValue | undefined, path: Path, place: Place) => {
    if (fields.length >= MAX_FIELDS) {
      truncated = true;
      return;
    }
    const key = pathLabel(path);
    let view = viewOf(schemaHere, scope);
    let variants: Field['variants'];
    const alternatives = variantsOf(view);
    if (alternatives) {
      const picked = choices.get(key);
      const keep = picked !== undefined && picked < alternatives.length && (!valueHere || fits(valueHere, withVariant(view, alternatives[picked])));
      const chosen = keep ? picked : detectVariant(view, alternatives, valueHere);
      variants = { labels: alternatives.map((v, i) => variantLabel(view, v, i)), chosen, parent: view, schemas: alternatives };
      view = withVariant(view, alternatives[chosen]);
    }
    const field: Field = {
      key,
      path,
      label: key,
      depth: path.length,
      kind: 'json',
      value: valueHere,
      view,
      ...place,
      hint: constraintHint(view),
      ...(variants ? { variants } : {}),
      ...(typeof view.schema.title === 'string' ? { title: view.schema.title } : schemaName(view.schema) ? { title: schemaName(view.schema) } : {}),
      ...(typeof view.schema.description === 'string' ? { description: view.schema.description } : {}),
    };
    classify(field);
    fields.push(field);

    if (field.kind === 'object' && valueHere?.kind === 'object') {
      const required = new Set(requiredOf(view));
      const present = new Set(valueHere.entries.map((e) => e.key));
      valueHere.entries.forEach((entry, i) => {
        // A repeated key: the last one counts, as for JSON.parse; the form shows that one.
        if (valueHere.entries.some((later, j) => j > i && later.key === entry.key)) return;
        const { schema: prop, known } = propertySchema(view, entry.key);
        const isRequired = required.has(entry.key);
        walk(prop, view.scope, entry.value, [...path, entry.key], { required: isRequired, known, removable: !isRequired });
      });
      for (const name of required) {
        if (!present.has(name)) walk(propertySchema(view, name).schema, view.scope, undefined, [...path, name], { required: true, known: true, removable: false });
      }
      field.addable = propertiesOf(view)
        .filter(([name, s]) => !present.has(name) && !required.has(name) && !(isObject(s) && s.readOnly === true))
        .map(([name]) => name);
    }
    if (field.kind === 'array' && valueHere?.kind === 'array') {
      const min = typeof view.schema.minItems === 'number' ? view.schema.minItems : 0;
      const max = typeof view.schema.maxItems === 'number' ? view.schema.maxItems : Infinity;
      const items = valueHere.items;
      items.forEach((item, i) => walk(itemSchema(view, i), view.scope, item, [...path, i], { required: false, known: true, removable: items.length > min }));
      field.canAddItem = items.length < max && itemSchema(view, items.length) !== false;
    }
  };

  walk(schema, EMPTY_SCOPE, value, [], { required: true, known: true, removable: false });
  return { fields, truncated };
}

/** Which input a field gets: by the value's type where the schema allows it, else by the schema. */
function classify(field: Field): void {
  const { view, value } = field;
  const types = view.types;
  const actual = value ? valueType(value) : undefined;
  let current: JsonType | undefined;
  if (value && actual === undefined) {
    // A bare ${name}: a number or boolean input takes it as typed; anything else shows it as JSON.
    current = types.find((t) => t === 'number' || t === 'integer' || t === 'boolean');
    field.kind = current ?? 'json';
    if (current && types.length > 1) field.typeChoice = { types, current };
    return;
  }
  if (value && actual) {
    if (!typeAllowed(types, actual)) {
      field.kind = 'json';
      field.mismatch = `Is ${article(actual)}; the schema wants ${types.map(article).join(' or ')}.`;
      return;
    }
    // Where the schema says nothing, a scalar keeps its own type; an object or array is edited as JSON.
    if (types.length === 0 && (actual === 'object' || actual === 'array')) return;
    current = actual === 'integer' && !types.includes('integer') && types.includes('number') ? 'number' : actual;
  } else {
    current = types.find((t) => t !== 'null') ?? types[0];
  }
  if (current === undefined) return; // any JSON
  if (types.length > 1) field.typeChoice = { types, current };
  const values = enumOf(view);
  if (values && values.length > 0 && current !== 'object' && current !== 'array' && values.every((v) => v === null || typeof v !== 'object')) {
    field.kind = 'enum';
    field.enumValues = values;
    return;
  }
  field.kind = current;
}

function article(type: JsonType): string {
  return type === 'null' ? 'null' : type === 'integer' || type === 'object' || type === 'array' ? `an ${type}` : `a ${type}`;
}
