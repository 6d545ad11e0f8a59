/**
 * Format assertions. String formats come from ajv-formats' full set (RFC 3339 dates with a
 * required offset, URIs, emails, addresses, uuid, ...). Three OpenAPI formats are our own:
 * ajv-formats' `byte` regex carries the `m` flag, so a multi-line string passes on any one good
 * line; its `int64` accepts any integer; its `float` accepts any number.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';

export interface FormatCheck {
  /** The JSON type the format applies to; other types pass untouched. */
  type: 'string' | 'number';
  test: (value: never) => boolean;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const INT64_LIMIT = 2 ** 63;
const FLOAT_MAX = 3.4028234663852886e38;

const own: Record<string, FormatCheck> = {
  byte: { type: 'string', test: (s: string) => BASE64.test(s) },
  int32: { type: 'number', test: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1 },
  // Doubles cannot hold 2^63 - 1 exactly: a body's 9223372036854775807 arrives as 2^63.
  int64: { type: 'number', test: (n: number) => Number.isInteger(n) && n >= -INT64_LIMIT && n <= INT64_LIMIT },
  float: { type: 'number', test: (n: number) => Number.isFinite(n) && Math.abs(n) <= FLOAT_MAX },
  double: { type: 'number', test: (n: number) => Number.isFinite(n) },
  password: { type: 'string', test: () => true },
  binary: { type: 'string', test: () => true },
};

function fromAjv(name: string): FormatCheck | undefined {
  // The name comes from a schema: `toString` or `constructor` is an unknown format, not Object's method.
  const format = Object.hasOwn(fullFormats, name) ? (fullFormats as Record<string, unknown>)[name] : undefined;
  if (format instanceof RegExp) return { type: 'string', test: (s: string) => format.test(s) };
  if (typeof format === 'function') return { type: 'string', test: (s: string) => Boolean(format(s)) };
  if (typeof format === 'object' && format !== null) {
    const def = format as { validate?: unknown; type?: string };
    const validate = def.validate;
    const type = def.type === 'number' ? 'number' : 'string';
    if (validate instanceof RegExp) return { type, test: (v: string) => validate.test(v) };
    if (typeof validate === 'function') return { type, test: (v: never) => Boolean(validate(v)) };
  }
  return undefined;
}

const cache = new Map<string, FormatCheck | undefined>();

/** The check for a format name, or undefined when the format is not known (it is then reported, not checked). */
export function formatCheck(name: string): FormatCheck | undefined {
  if (cache.has(name)) return cache.get(name);
  const check = Object.hasOwn(own, name) ? own[name] : fromAjv(name);
  cache.set(name, check);
  return check;
}
