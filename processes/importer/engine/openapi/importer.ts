/** The OpenAPI importer (OpenAPI 3.0-3.2 and its predecessor Swagger 2.0 and 1.x). */
import { runDetectRules } from '../detect-rules.js';
import type { Importer } from '../importer.js';
import { OPENAPI_DETECT_RULES } from './detect.js';

export const openApiImporter: Importer = {
  id: 'openapi',
  label: 'OpenAPI (with its predecessor Swagger)',
  detect: (input) => runDetectRules(OPENAPI_DETECT_RULES, input),
  convert: async (input, ctx) => (await import('./convert.js')).convertOpenApi(input, ctx),
};
