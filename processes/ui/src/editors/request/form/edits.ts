/**
 * What each form control does to the body: a change to the JSON value at a field, then the whole
 * body printed again (two-space indentation, key order and unknown values kept).
 */
import { convertType } from './coerce.js';
import { defaultFor, defaultOfView } from './defaults.js';
import type { Field } from './fields.js';
import { getAt, removeAt, setAt } from './json-path.js';
import { parseBody, printJson, type JsonValue } from './json-value.js';
import { itemSchema, propertySchema, type JsonType } from './schema.js';
import { switchVariant } from './variants.js';

export type Root = JsonValue | undefined;
export type FormEdit = (root: Root) => Root;

export const setValue =
  (field: Field, value: JsonValue): FormEdit =>
  (root) =>
    setAt(root, field.path, value);

/** Gives an absent field (a required property, an empty body) its starting value. */
export const create =
  (field: Field): FormEdit =>
  (root) =>
    setAt(root, field.path, defaultOfView(field.view));

export const addProperty =
  (field: Field, name: string): FormEdit =>
  (root) =>
    setAt(root, [...field.path, name], defaultFor(propertySchema(field.view, name).schema, field.view.scope));

/** Removes a property or an array item. */
export const remove =
  (field: Field): FormEdit =>
  (root) =>
    removeAt(root, field.path);

export const addItem =
  (field: Field): FormEdit =>
  (root) => {
    const current = getAt(root, field.path);
    const count = current?.kind === 'array' ? current.items.length : 0;
    return setAt(root, [...field.path, count], defaultFor(itemSchema(field.view, count), field.view.scope));
  };

export const chooseVariant =
  (field: Field, index: number): FormEdit =>
  (root) =>
    field.variants ? setAt(root, field.path, switchVariant(field.variants.parent, field.variants.schemas, index, field.value)) : root;

export const chooseType =
  (field: Field, type: JsonType): FormEdit =>
  (root) =>
    setAt(root, field.path, convertType(field.value, type, field.view));

/** The body text after an edit, or undefined when the text is not JSON (the form is not shown then). */
export function rewrite(text: string, edit: FormEdit): string | undefined {
  const parsed = parseBody(text);
  if (!parsed.ok) return undefined;
  return printJson(edit(parsed.value));
}
