/**
 * Recognising .http files and HTTP client environment files (SPEC "Auto-detect rules"). A .http
 * file by a .http or .rest name, or by text whose first request line names a method and an
 * http(s):// or ws(s):// URL or a {{variable}}, with only comments, `###` lines, `@name = value`
 * lines and `# @meta` lines before it. An environment file by its name (http-client.env.json,
 * http-client.private.env.json), or by content: a JSON object with a `$shared` object at its top
 * level (without one, an object of objects is too common a shape to claim).
 */
import { baseName, type DetectRule } from '../detect-rules.js';
import { topLevelJsonKeys } from '../load/json-top-level.js';
import { looksLikeJson } from '../load/decode-text.js';
import { HTTP_METHODS, OTHER_METHODS } from './parse.js';

export const HTTP_FORMAT = 'http';
export const HTTP_ENV_FORMAT = 'http-env';

const REQUEST_LINE = new RegExp(`^(?:(?:${[...HTTP_METHODS, ...OTHER_METHODS].join('|')})\\s+)?(?:(?:https?|wss?):\\/\\/|\\{\\{[^{}]+\\}\\})\\S*(?:\\s+HTTP\\/[0-9.]+)?\\s*$`, 'i');

/** True when the text's first line that is not a comment, separator or variable is a request line. */
export function looksLikeHttpFile(text: string): boolean {
  const head = text.slice(0, 64 * 1024).replace(/^\uFEFF/, '');
  for (const line of head.split(/\r?\n/, 400)) {
    const t = line.trim();
    if (t === '' || t.startsWith('#') || t.startsWith('//') || /^@[A-Za-z_][\w.-]*\s*=/.test(t)) continue;
    return REQUEST_LINE.test(t);
  }
  return false;
}

export const HTTP_DETECT_RULES: DetectRule[] = [
  { format: HTTP_FORMAT, by: 'file-name', match: (input) => (/\.(http|rest)$/i.test(baseName(input.name ?? '')) ? { label: '.http file' } : null) },
  { format: HTTP_FORMAT, by: 'content', match: (input) => (looksLikeHttpFile(input.text) ? { label: '.http file' } : null) },
];

export const HTTP_ENV_DETECT_RULES: DetectRule[] = [
  { format: HTTP_ENV_FORMAT, by: 'file-name', match: (input) => (/^http-client(\.private)?\.env\.json$/i.test(baseName(input.name ?? '')) ? { label: 'HTTP client environments' } : null) },
  {
    format: HTTP_ENV_FORMAT,
    by: 'content',
    match: (input) => (looksLikeJson(input.text) && topLevelJsonKeys(input.text, ['$shared']).get('$shared')?.kind === 'object' ? { label: 'HTTP client environments' } : null),
  },
];
