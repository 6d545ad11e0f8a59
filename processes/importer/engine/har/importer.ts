/**
 * HAR 1.1 and 1.2 (file, paste; no URL tab): read as a stream, never whole (read-har.ts), and
 * converted as SPEC "HAR grouping" says (convert.ts). Limits (SPEC "Limits"): a picked file
 * over 100 MB is refused before it is read, pasted or dropped text over 50 million characters
 * before it is parsed.
 */
import type { Importer } from '../importer.js';
import { runDetectRules } from '../detect-rules.js';
import { HAR_DETECT_RULES } from './detect.js';

export const HAR_FILE_LIMIT = 100 * 1024 * 1024;
export const HAR_PASTE_LIMIT = 50_000_000;

export const harImporter: Importer = {
  id: 'har',
  label: 'HAR (recorded traffic)',
  reads: 'stream',
  limits: { fileBytes: HAR_FILE_LIMIT, pasteChars: HAR_PASTE_LIMIT },
  detect: (input) => runDetectRules(HAR_DETECT_RULES, input),
  convert: async (input, ctx) => (await import('./convert.js')).convertHar(input, ctx),
};
