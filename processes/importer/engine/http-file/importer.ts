/**
 * .http / .rest files (file, paste; no URL tab) and HTTP client environment files (file, paste,
 * Import HTTP Client Environments...). Limits (SPEC "Limits"): a .http file over 10 MB is
 * refused before it is read; over 5,000 requests when parsed (convert.ts).
 */
import { runDetectRules } from '../detect-rules.js';
import type { Importer } from '../importer.js';
import { HTTP_DETECT_RULES, HTTP_ENV_DETECT_RULES, HTTP_ENV_FORMAT, HTTP_FORMAT } from './detect.js';

const FILE_LIMIT = 10 * 1024 * 1024;

export const httpFileImporter: Importer = {
  id: HTTP_FORMAT,
  label: '.http file',
  // A pasted text is counted in UTF-8 bytes by convert; characters never outnumber them.
  limits: { fileBytes: FILE_LIMIT, pasteChars: FILE_LIMIT },
  detect: (input) => runDetectRules(HTTP_DETECT_RULES, input),
  convert: async (input, ctx) => (await import('./convert.js')).convertHttpFile(input, ctx),
};

export const httpEnvironmentImporter: Importer = {
  id: HTTP_ENV_FORMAT,
  label: 'HTTP client environment file',
  limits: { fileBytes: FILE_LIMIT, pasteChars: FILE_LIMIT },
  detect: (input) => runDetectRules(HTTP_ENV_DETECT_RULES, input),
  convert: async (input, ctx) => (await import('./environment-import.js')).convertEnvironmentFile(input, ctx),
};
