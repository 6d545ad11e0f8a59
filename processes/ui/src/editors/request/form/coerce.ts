/**
 * What an input's text becomes, by the type the schema asks for, and a value carried over when
 * the user picks another of the types a schema allows. A `${name}` expansion is accepted where a
 * number, boolean or any JSON goes: it is written bare and filled in at send time.
 */
import { emptyOf } from './defaults.js';
import { isExpansion, isIntegerLiteral, parseBody, type JsonValue } from './json-value.js';
import type { JsonType, SchemaView } from './schema.js';

export type Coerced = { ok: true; value: JsonValue } | { ok: false; message: string };

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** `json` is any JSON value typed as text. */
export function fromInput(type: JsonType | 'json', text: string): Coerced {
  const trimmed = text.trim();
  switch (type) {
    case 'string':
      return { ok: true, value: { kind: 'string', value: text } };
    case 'number':
    case 'integer':
      if (isExpansion(trimmed)) return { ok: true, value: { kind: 'expansion', raw: trimmed } };
      if (!NUMBER.test(trimmed)) return { ok: false, message: type === 'integer' ? 'A whole number is expected.' : 'A number is expected.' };
      if (type === 'integer' && !isIntegerLiteral(trimmed)) return { ok: false, message: 'A whole number is expected.' };
      return { ok: true, value: { kind: 'number', raw: trimmed } };
    case 'boolean':
      if (isExpansion(trimmed)) return { ok: true, value: { kind: 'expansion', raw: trimmed } };
      if (trimmed === 'true' || trimmed === 'false') return { ok: true, value: { kind: 'boolean', value: trimmed === 'true' } };
      return { ok: false, message: 'true or false is expected.' };
    case 'null':
      return { ok: true, value: { kind: 'null' } };
    default: {
      if (trimmed === '') return { ok: false, message: 'A JSON value is expected.' };
      const parsed = parseBody(trimmed);
      if (!parsed.ok) return { ok: false, message: parsed.message.replace('The body is', 'This is') };
      return { ok: true, value: parsed.value! };
    }
  }
}

/** The value carried into another type: what reads the same (12 and "12", true and "true"), else empty. */
export function convertType(value: JsonValue | undefined, to: JsonType, view: SchemaView): JsonValue {
  if (!value) return emptyOf(to, view);
  if (value.kind === 'expansion' && to !== 'object' && to !== 'array' && to !== 'null') return to === 'string' ? { kind: 'string', value: value.raw } : value;
  switch (to) {
    case 'string':
      if (value.kind === 'string') return value;
      if (value.kind === 'number') return { kind: 'string', value: value.raw };
      if (value.kind === 'boolean') return { kind: 'string', value: String(value.value) };
      break;
    case 'number':
    case 'integer': {
      const text = value.kind === 'string' ? value.value : value.kind === 'number' ? value.raw : undefined;
      const read = text === undefined ? undefined : fromInput(to, text);
      if (read?.ok) return read.value;
      break;
    }
    case 'boolean':
      if (value.kind === 'boolean') return value;
      if (value.kind === 'string' && (value.value === 'true' || value.value === 'false')) return { kind: 'boolean', value: value.value === 'true' };
      break;
    case 'object':
    case 'array':
      if (value.kind === to) return value;
      break;
  }
  return emptyOf(to, view);
}
