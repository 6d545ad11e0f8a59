/** The Postman importers: collections (v2.0, v2.1), environment exports and globals exports. */
import { runDetectRules } from '../detect-rules.js';
import type { Importer } from '../importer.js';
import { COLLECTION, ENVIRONMENT, GLOBALS, POSTMAN_COLLECTION_RULES, POSTMAN_ENVIRONMENT_RULES, POSTMAN_GLOBALS_RULES } from './detect.js';

export const postmanCollectionImporter: Importer = {
  id: COLLECTION,
  label: 'Postman collection (v2.0, v2.1)',
  detect: (input) => runDetectRules(POSTMAN_COLLECTION_RULES, input),
  convert: async (input, ctx) => (await import('./collection.js')).convertPostmanCollection(input, ctx),
};

export const postmanEnvironmentImporter: Importer = {
  id: ENVIRONMENT,
  label: 'Postman environment export',
  detect: (input) => runDetectRules(POSTMAN_ENVIRONMENT_RULES, input),
  convert: async (input, ctx) => (await import('./environment.js')).convertPostmanExport(input, ctx, 'environment'),
};

export const postmanGlobalsImporter: Importer = {
  id: GLOBALS,
  label: 'Postman globals export',
  detect: (input) => runDetectRules(POSTMAN_GLOBALS_RULES, input),
  convert: async (input, ctx) => (await import('./environment.js')).convertPostmanExport(input, ctx, 'globals'),
};
