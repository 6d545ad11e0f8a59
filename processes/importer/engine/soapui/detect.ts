/**
 * Recognising a SoapUI project: by name, `*-soapui-project.xml`; by content, a root element
 * `soapui-project` in the SoapUI config namespace (after the XML declaration and comments).
 */
import { baseName, xmlRootIs, type DetectRule } from '../detect-rules.js';

/** The SoapUI config namespace; here, not in read-project.ts, so detecting does not load the XML reader. */
export const SOAPUI_NS = 'http://eviware.com/soapui/config';

/** True when the root element is soapui-project in the SoapUI namespace (checked on the root tag). */
export function looksLikeSoapuiProject(text: string): boolean {
  return xmlRootIs(text, 'soapui-project', SOAPUI_NS);
}

const LABEL = { label: 'Legacy SOAP project (SoapUI)', version: 'soapui' };

export const SOAPUI_DETECT_RULES: DetectRule[] = [
  { format: 'soapui', by: 'file-name', match: (input) => (/-soapui-project\.xml$/i.test(baseName(input.name ?? '')) ? LABEL : null) },
  { format: 'soapui', by: 'content', match: (input) => (looksLikeSoapuiProject(input.text) ? LABEL : null) },
];
