/**
 * The keys of a JSON text's outermost object, found without parsing the whole text: a small
 * tokenizer that tracks depth and strings. Auto-detect reads a format's tell-tale keys with it,
 * so a document that merely holds another format as a nested value or a string is not taken
 * for it, and a truncated head (auto-detect reads the first MB) still answers. Keys and string
 * values are read as JSON reads them (escapes decoded: `"https:\/\/..."` is `https://...`), and
 * a small value (a Postman `info`) can be parsed on its own, so detection reads the document,
 * never the way it happens to be written.
 */

/** How far into a JSON text the scan looks. */
const JSON_SCAN_LIMIT = 16 * 1024 * 1024;

export interface TopLevelValue {
  kind: 'string' | 'object' | 'array' | 'other';
  /** A string's contents (escapes decoded) or another scalar as written; '' for an object or array. */
  scalar: string;
  /** Where the value starts in the text. */
  at: number;
}

/** The first occurrence of each of `keys` in the outermost object of `text` (a JSON object). */
export function topLevelJsonKeys(text: string, keys: readonly string[]): Map<string, TopLevelValue> {
  const start = /\S/.exec(text);
  return start && start[0] === '{' ? jsonObjectKeys(text, start.index, keys) : new Map();
}

/** The first occurrence of each of `keys` among the members of the JSON object starting at `from` (its `{`). */
export function jsonObjectKeys(text: string, from: number, keys: readonly string[]): Map<string, TopLevelValue> {
  const found = new Map<string, TopLevelValue>();
  const end = Math.min(text.length, from + JSON_SCAN_LIMIT);
  let depth = 0;
  for (let i = from; i < end; i++) {
    const ch = text[i];
    if (ch === '"') {
      const close = stringEnd(text, i, end);
      if (depth === 1) {
        let j = close + 1;
        while (j < end && /\s/.test(text[j] as string)) j++;
        if (text[j] === ':') {
          const key = decodeString(text.slice(i + 1, close));
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
      if (depth === 0) return found;
    }
  }
  return found;
}

/**
 * The object or array at `value` parsed, when it ends within `limit` characters of its start and
 * is valid JSON; undefined otherwise (a truncated head, a value too long to read for detection).
 */
export function parseJsonValue(text: string, value: TopLevelValue, limit: number): unknown {
  if (value.kind !== 'object' && value.kind !== 'array') return value.kind === 'string' ? value.scalar : undefined;
  const end = Math.min(text.length, value.at + limit);
  let depth = 0;
  for (let i = value.at; i < end; i++) {
    const ch = text[i];
    if (ch === '"') i = stringEnd(text, i, end);
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) {
        try {
          return JSON.parse(text.slice(value.at, i + 1)) as unknown;
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

function stringEnd(text: string, start: number, end: number): number {
  for (let i = start + 1; i < end; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return end;
}

/** A JSON string's contents as JSON reads them; as written when the escapes are not valid JSON. */
function decodeString(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

function valueAt(text: string, from: number, end: number): TopLevelValue {
  let i = from;
  while (i < end && /\s/.test(text[i] as string)) i++;
  const ch = text[i];
  if (ch === '"') return { kind: 'string', scalar: decodeString(text.slice(i + 1, stringEnd(text, i, end))), at: i };
  if (ch === '{') return { kind: 'object', scalar: '', at: i };
  if (ch === '[') return { kind: 'array', scalar: '', at: i };
  const m = /^[^,}\]\s]*/.exec(text.slice(i, Math.min(end, i + 64)));
  return { kind: 'other', scalar: m ? m[0] : '', at: i };
}
