/**
 * Recognising OpenAPI and Swagger: a file named openapi.* or swagger.* settles it; otherwise a
 * top-level `openapi`, `swagger` or (Swagger 1.x) `swaggerVersion` key, in JSON or YAML. Only
 * top-level keys count, so a collection or capture that merely contains an OpenAPI document
 * as a string or nested value is not taken for one. The scan never parses the whole text.
 */
import { baseName, type DetectRule } from '../detect-rules.js';
import { looksLikeJson } from '../load/parse-text.js';

const KEYS = ['openapi', 'swagger', 'swaggerVersion'] as const;
type Key = (typeof KEYS)[number];

/** How far into a JSON text the top-level key scan looks. */
const JSON_SCAN_LIMIT = 16 * 1024 * 1024;

export const OPENAPI_DETECT_RULES: DetectRule[] = [
  {
    format: 'openapi',
    by: 'file-name',
    match: (input) => (/^(openapi|swagger)\.(json|ya?ml)$/i.test(baseName(input.name ?? '')) ? { label: 'OpenAPI' } : null),
  },
  {
    format: 'openapi',
    by: 'content',
    match: (input) => {
      const keys = topLevelKeys(input.text);
      const openapi = keys.get('openapi');
      if (openapi !== undefined) return { label: `OpenAPI ${openapi}`.trim(), version: `openapi-${minor(openapi)}` };
      const swagger = keys.get('swagger') ?? keys.get('swaggerVersion');
      if (swagger !== undefined) return { label: `Swagger ${swagger}`.trim(), version: `swagger-${minor(swagger)}` };
      return null;
    },
  },
];

function minor(version: string): string {
  const m = /^(\d+)(?:\.(\d+))?/.exec(version);
  return m ? `${m[1]}.${m[2] ?? '0'}` : version;
}

/** The version keys found at the top level, with their scalar values. */
export function topLevelKeys(text: string): Map<Key, string> {
  return looksLikeJson(text) ? scanJson(text) : scanYaml(text);
}

function scanYaml(text: string): Map<Key, string> {
  const found = new Map<Key, string>();
  const pattern = /^(["']?)(openapi|swagger|swaggerVersion)\1[ \t]*:[ \t]*([^\r\n]*)$/gm;
  for (const match of text.matchAll(pattern)) {
    const key = match[2] as Key;
    if (found.has(key)) continue;
    const raw = (match[3] ?? '').replace(/\s+#.*$/, '').trim();
    found.set(key, raw.replace(/^(["'])(.*)\1$/, '$2'));
  }
  return found;
}

/** A small tokenizer that tracks depth and strings, reading only keys of the outermost object. */
function scanJson(text: string): Map<Key, string> {
  const found = new Map<Key, string>();
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
          if ((KEYS as readonly string[]).includes(key) && !found.has(key as Key)) {
            found.set(key as Key, scalarAt(text, j + 1, end));
            if (found.size === KEYS.length) return found;
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

function scalarAt(text: string, from: number, end: number): string {
  let i = from;
  while (i < end && /\s/.test(text[i] as string)) i++;
  if (text[i] === '"') return text.slice(i + 1, stringEnd(text, i, end));
  const m = /^[^,}\]\s]*/.exec(text.slice(i, Math.min(end, i + 64)));
  return m ? m[0] : '';
}
