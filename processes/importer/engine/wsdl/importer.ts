/** The WSDL 1.1 importer: SOAP 1.1 and 1.2 bindings become SOAP APIs (docs/soap.md). */
import { runDetectRules } from '../detect-rules.js';
import type { Importer } from '../importer.js';
import { WSDL_DETECT_RULES } from './detect.js';

export const wsdlImporter: Importer = {
  id: 'wsdl',
  label: 'WSDL (SOAP)',
  detect: (input) => runDetectRules(WSDL_DETECT_RULES, input),
  convert: async (input, ctx) => (await import('./convert.js')).convertWsdl(input, ctx),
};
