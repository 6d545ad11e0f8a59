/**
 * A Postman export as a JSON value, or a clear refusal: not JSON (a zip archive says so),
 * malformed JSON (with its line), or nested deeper than anything Postman writes (the library
 * and the converters walk it recursively, so a 50,000-deep document is refused before that).
 */
import { ParleyError } from '../../../../protocol/errors.js';
import { looksLikeJson, parseText } from '../load/parse-text.js';

/** Deeper than any real export (folders in folders, a JSON body's own nesting is text). */
export const MAX_DEPTH = 200;

export function readPostmanJson(text: string, file: string): unknown {
  if (text.startsWith('PK\u0003\u0004')) {
    throw new ParleyError('import-malformed', `${file} is not valid JSON: it is a zip archive (a Postman data dump?). Export the collection or environment on its own from Postman and import that file.`, { file });
  }
  if (!looksLikeJson(text)) throw new ParleyError('import-malformed', `${file} is not valid JSON: a Postman export is a JSON file.`, { file });
  const { value } = parseText(text, file);
  const depth = depthBeyond(value, MAX_DEPTH);
  if (depth) throw new ParleyError('import-malformed', `${file} is nested more than ${MAX_DEPTH} levels deep, deeper than any Postman export; it was not imported.`, { file });
  return value;
}

/** Whether `value` nests deeper than `limit`, walked without recursion. */
function depthBeyond(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return false;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A scalar as text: strings as they are, numbers and booleans as JSON writes them, anything else ''. */
export function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
