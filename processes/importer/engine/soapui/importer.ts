/** The legacy SoapUI project importer: WSDL interfaces, saved requests, properties, environments, scripts as text (docs/soap.md). */
import { runDetectRules } from '../detect-rules.js';
import type { Importer } from '../importer.js';
import { SOAPUI_DETECT_RULES } from './detect.js';

export const soapuiImporter: Importer = {
  id: 'soapui',
  label: 'Legacy SOAP project',
  // As any XML input: the safe reader refuses a document over 10 MiB characters; bytes bound the read first.
  limits: { fileBytes: 40 * 1024 * 1024 },
  detect: (input) => runDetectRules(SOAPUI_DETECT_RULES, input),
  convert: async (input, ctx) => (await import('./convert.js')).convertSoapui(input, ctx),
};
