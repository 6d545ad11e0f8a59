/** Small readers shared by the normalizers: typed field access and sample values as row text. */

import { OPENAPI_32_METHODS, OPENAPI_3_METHODS, SWAGGER_METHODS } from '../../../../../protocol/openapi-methods.js';
import { essence, preferJsonMediaType } from '../../../../../protocol/media-type.js';

/** Re-exported for the normalizers, which read media types as the rest of Parley does. */
export { essence };

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function obj(value: unknown): Obj | undefined {
  return isObj(value) ? value : undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A sample value as the text of a row: arrays comma-joined, objects as JSON. */
export function asRowText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map((v) => (isObj(v) || Array.isArray(v) ? JSON.stringify(v) : asRowText(v))).join(',');
  return JSON.stringify(value);
}

/** First value found among a schema's own example, default, enum and const (no `$ref` followed). */
export function schemaValue(schema: Obj | undefined): { value: unknown } | undefined {
  if (!schema) return undefined;
  if (schema['example'] !== undefined) return { value: schema['example'] };
  const examples = schema['examples'];
  if (Array.isArray(examples) && examples.length > 0) return { value: examples[0] };
  if (schema['default'] !== undefined) return { value: schema['default'] };
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0) return { value: enumValues[0] };
  if (schema['const'] !== undefined) return { value: schema['const'] };
  return undefined;
}

/** A summary or name on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** HTTP method keys of a 2.0 path item, and of a 3.0/3.1 path item. */
export const METHODS_2: readonly string[] = SWAGGER_METHODS;
export const METHODS_3: readonly string[] = OPENAPI_3_METHODS;
/** OpenAPI 3.2 adds QUERY (and any method through additionalOperations). */
export const METHODS_32: readonly string[] = OPENAPI_32_METHODS;


/** application/json first, then any other JSON type, else the first declared. */
export function preferJson(mediaTypes: string[]): string | undefined {
  return preferJsonMediaType(mediaTypes) ?? mediaTypes[0];
}

/** `{name}` placeholders of a path, in order, each once; callback runtime expressions (`{$request...}`) are not. */
export function pathPlaceholders(path: string): string[] {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string).filter((n) => !n.startsWith('$'));
  return [...new Set(names)];
}

/** Sets an own property, even one named `__proto__` (a document may use any key): one helper for every process. */
export { ownValue, setOwn } from '../../../../../protocol/own.js';
