/**
 * The keys of a JSON text's outermost object, found without parsing the whole text: a small
 * tokenizer that tracks depth and strings. Auto-detect reads a format's tell-tale keys with it,
 * so a document that merely holds another format as a nested value or a string is not taken
 * for it, and a truncated head (auto-detect reads the first MB) still answers.
 */

/** How far into a JSON text the scan looks. */
const JSON_SCAN_LIMIT = 16 * 1024 * 1024;

export interface TopLevelValue {
  kind: 'string' | 'object' | 'array' | 'other';
  /** A string's contents or another scalar as written; '' for an object or array. */
  scalar: string;
  /** Where the value starts in the text. */
  at: number;
}

/** The first occurrence of each of `keys` in the outermost object of `text` (a JSON object). */
export function topLevelJsonKeys(text: string, keys: readonly string[]): Map<string, TopLevelValue> {
  const found = new Map<string, TopLevelValue>();
  const end = Math.min(text.length, JSON_SCAN_LIMIT);
  let depth = 0;
  for (let i = 0; i < end; i++) {
    const ch = text[i];
    if (ch === '"') {
      const close = stringEnd(text, i, end);
      if (depth === 1) {
        let j = close + 1;
        while (j < end && /\s/.test(text[j] as string)) j++;
        if (text[j] === ':') {
          const key = text.slice(i + 1, close);
          if (keys.includes(key) && !found.has(key)) {
            found.set(key, valueAt(text, j + 1, end));
            if (found.size === keys.length) return found;
          }
        }
      }
      i = close;
    } else if (ch === '{' || ch === '[') {
      depth++;
    } else if (ch === '}' || ch === ']') {
      depth--;
    }
  }
  return found;
}

function stringEnd(text: string, start: number, end: number): number {
  for (let i = start + 1; i < end; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return end;
}

function valueAt(text: string, from: number, end: number): TopLevelValue {
  let i = from;
  while (i < end && /\s/.test(text[i] as string)) i++;
  const ch = text[i];
  if (ch === '"') return { kind: 'string', scalar: text.slice(i + 1, stringEnd(text, i, end)), at: i };
  if (ch === '{') return { kind: 'object', scalar: '', at: i };
  if (ch === '[') return { kind: 'array', scalar: '', at: i };
  const m = /^[^,}\]\s]*/.exec(text.slice(i, Math.min(end, i + 64)));
  return { kind: 'other', scalar: m ? m[0] : '', at: i };
}
