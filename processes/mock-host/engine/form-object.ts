/**
 * An OpenAPI 3.x form body (`multipart/form-data`, `application/x-www-form-urlencoded`) as the
 * object its schema describes, so the checker engine validates it as it would a JSON body: each
 * field is a property, its text read as the property's schema type says (OpenAPI's form
 * serialization: a number, a boolean, an array as the field repeated or, with `explode: false` in
 * the media type's `encoding`, as one delimited value; an object as a JSON part).
 *
 * A `format: binary` property (or an array of them) is a file part; the check never reads a file's
 * content, so a file stands in the object as its file name (what an HTML form sends for a file in a
 * urlencoded body), and a text part there is a problem of its own. A file part sent for any other
 * property (a JSON part with a file name, as a browser's FormData gives a Blob) cannot be read on
 * the check's thread: it counts as present and is left out of the validation.
 *
 * Problems name the field (pointer = field name), as a Swagger 2.0 form field's do.
 */
import type { MockProblem } from '../../../protocol/model/mock.js';
import type { ContractProblem } from '../../../protocol/model/verdict.js';
import { isObject, parsePointer } from '../../../protocol/json-pointer.js';
import { setOwn } from '../../../protocol/own.js';
import { NeedsWorker, type Loc, type PreparedDefinition } from '../../checker/engine/index.js';
import { child, followed } from './contract.js';
import { isFile, type FormKind, type FormValue } from './form-body.js';
import { scalar, typesOf } from './text-coercion.js';

type Found = { loc: Loc; value: Record<string, unknown> };

/** How deep, and through how many schemas, `allOf`/`anyOf`/`oneOf` are searched for a property's schema. */
const MAX_COMPOSITION_DEPTH = 8;
const MAX_SCHEMAS_SEARCHED = 64;
/** After this many fields the clock is looked at again. */
const FIELDS_PER_CLOCK = 64;
/** `style` of an `encoding` entry with `explode: false`: what separates an array's items. */
const STYLE_SEPARATORS: ReadonlyMap<string, string> = new Map([
  ['form', ','],
  ['spaceDelimited', ' '],
  ['pipeDelimited', '|'],
]);

export interface FormObject {
  /** The fields as the schema's object; a null-prototype object, so any field name is an own key. */
  value: Record<string, unknown>;
  /** Text parts where a file is expected. */
  problems: MockProblem[];
  /** Fields sent but left out of the object (file parts for a property that is not binary). */
  unread: Set<string>;
  /** The deadline passed before every field was read: the object is incomplete, not to be validated. */
  stopped?: boolean;
}

/** The check's clock: past `deadline`, a check on the listener (`inline`) goes to a worker, any other stops. */
export interface FormClock {
  deadline: number;
  now: () => number;
  inline: boolean;
}

/** The form's fields as the object `schema` (at `media`'s `schema`) describes. */
export function formObject(def: PreparedDefinition, schema: Loc, media: Loc | undefined, kind: FormKind, fields: ReadonlyMap<string, FormValue[]>, clock: FormClock): FormObject {
  const out: FormObject = { value: Object.create(null) as Record<string, unknown>, problems: [], unread: new Set() };
  const root = followed(def, schema);
  let count = 0;
  for (const [name, values] of fields) {
    if (++count % FIELDS_PER_CLOCK === 0 && clock.now() > clock.deadline) {
      if (clock.inline) throw new NeedsWorker('it took longer than the time a check may hold the listener');
      out.stopped = true;
      return out;
    }
    const property = root ? propertySchema(def, root, name, 0, { left: MAX_SCHEMAS_SEARCHED }) : undefined;
    const types = typesOf(property?.value);
    const items = property && types.includes('array') && isObject(property.value.items) ? followed(def, child(property.loc, 'items')) : undefined;
    const binary = isBinary(property?.value) || (items !== undefined && isBinary(items.value));
    if (binary) {
      if (values.some((v) => !isFile(v))) out.problems.push({ in: 'body', pointer: name, message: `The form field ${name} must be a file, but a text field was sent.` });
    } else if (values.some(isFile)) {
      out.unread.add(name);
      continue;
    }
    const texts = values.map((v) => (isFile(v) ? v.filename : v));
    setOwn(out.value, name, fieldValue(texts, types, items, kind === 'urlencoded' ? separator(def, media, name) : undefined));
  }
  return out;
}

/** The validation's problems, each named by the field it is about. */
export function formProblems(problems: readonly ContractProblem[], unread: ReadonlySet<string>): MockProblem[] {
  const out: MockProblem[] = [];
  for (const problem of problems) {
    const segments = parsePointer(problem.pointer) ?? [];
    if (segments.length > 0) {
      const name = segments[0]!;
      const at = problem.pointer.slice(problem.pointer.indexOf('/', 1) < 0 ? problem.pointer.length : problem.pointer.indexOf('/', 1));
      out.push({ in: 'body', pointer: name, message: `${name}${at}: ${problem.message}` });
      continue;
    }
    const required = problem.keyword === 'required' ? requiredName(problem.message) : undefined;
    if (required === undefined) out.push({ in: 'body', pointer: '', message: problem.message });
    else if (!unread.has(required)) out.push({ in: 'body', pointer: required, message: `The form field ${required} is required.` });
  }
  return out;
}

/** The property named in the checker engine's `required` message (`expected the required property "name"`). */
function requiredName(message: string): string | undefined {
  const quoted = /^expected the required property ("(?:[^"\\]|\\.)*")$/.exec(message)?.[1];
  if (quoted === undefined) return undefined;
  try {
    const name: unknown = JSON.parse(quoted);
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A field's value: an array's items, else its one value (a repeated one stays a list, for the schema to refuse). */
function fieldValue(texts: string[], types: string[], items: Found | undefined, separator: string | undefined): unknown {
  if (types.includes('array')) {
    const parts = texts.length === 1 && separator !== undefined ? texts[0]!.split(separator) : texts;
    const itemTypes = typesOf(items?.value);
    return parts.map((part) => read(part, itemTypes));
  }
  if (texts.length > 1) return texts.map((t) => read(t, types));
  return read(texts[0]!, types);
}

function read(text: string, types: string[]): unknown {
  if (types.includes('object') || (types.includes('array') && !types.includes('string'))) {
    // An object part is JSON (the default Content-Type OpenAPI gives it); text that is not stays text.
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return scalar(text, types);
}

function isBinary(schema: Record<string, unknown> | undefined): boolean {
  return schema?.format === 'binary';
}

/** The property's schema: under `properties`, else in an `allOf`/`anyOf`/`oneOf` member's. */
function propertySchema(def: PreparedDefinition, schema: Found, name: string, depth: number, budget: { left: number }): Found | undefined {
  const properties = schema.value.properties;
  if (isObject(properties) && Object.hasOwn(properties, name)) return followed(def, child(schema.loc, 'properties', name));
  if (depth >= MAX_COMPOSITION_DEPTH || --budget.left <= 0) return undefined;
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const members = schema.value[keyword];
    if (!Array.isArray(members)) continue;
    for (let i = 0; i < members.length; i++) {
      const member = followed(def, child(schema.loc, keyword, String(i)));
      const found = member && propertySchema(def, member, name, depth + 1, budget);
      if (found) return found;
    }
  }
  return undefined;
}

/** A urlencoded field's array separator: only with `explode: false` in the media type's `encoding` (form style explodes by default). */
function separator(def: PreparedDefinition, media: Loc | undefined, name: string): string | undefined {
  if (!media) return undefined;
  const encodings = followed(def, child(media, 'encoding'));
  if (!encodings || !Object.hasOwn(encodings.value, name)) return undefined;
  const encoding = followed(def, child(encodings.loc, name));
  if (!encoding || encoding.value.explode !== false) return undefined;
  return STYLE_SEPARATORS.get(typeof encoding.value.style === 'string' ? encoding.value.style : 'form');
}
