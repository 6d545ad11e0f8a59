/**
 * Recognising OpenAPI and Swagger: a file named openapi.* or swagger.* settles it; otherwise a
 * top-level `openapi`, `swagger` or (Swagger 1.x) `swaggerVersion` key, in JSON or YAML. Only
 * top-level keys count, so a collection or capture that merely contains an OpenAPI document
 * as a string or nested value is not taken for one. The scan never parses the whole text.
 */
import { baseName, type DetectRule } from '../detect-rules.js';
import { topLevelJsonKeys } from '../load/json-top-level.js';
import { looksLikeJson } from '../load/decode-text.js';

const KEYS = ['openapi', 'swagger', 'swaggerVersion'] as const;
type Key = (typeof KEYS)[number];

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

function scanJson(text: string): Map<Key, string> {
  const found = new Map<Key, string>();
  for (const [key, value] of topLevelJsonKeys(text, KEYS)) found.set(key as Key, value.scalar);
  return found;
}
