/** Small helpers over parsed JSON values: their JSON type, equality, string length. */

export type JsonType = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'string';

export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean') return t;
  return 'object';
}

/** Whether a value has a JSON Schema type name (`integer` is any number with no fraction). */
export function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

/** JSON equality: numbers by value, objects regardless of key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** A key that is equal for JSON-equal values, for finding duplicates without comparing every pair. */
export function canonicalKey(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value + ':' + String(value);
  if (Array.isArray(value)) return '[' + value.map(canonicalKey).join(',') + ']';
  const keys = Object.keys(value).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalKey((value as Record<string, unknown>)[k])).join(',') + '}';
}

/** Length in Unicode code points, as JSON Schema counts it. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** A schema value (never a body value) shown in a message, cut short. */
export function showSchemaValue(value: unknown, max = 60): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** Schema text (a pattern) shown as written, cut short. */
export function cut(text: string, max = 120): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** A list of schema values for a message: at most a few, then how many more. */
export function showSchemaList(values: readonly unknown[], max = 8): string {
  const shown = values.slice(0, max).map((v) => showSchemaValue(v, 40));
  return values.length > max ? `${shown.join(', ')} and ${values.length - max} more` : shown.join(', ');
}
