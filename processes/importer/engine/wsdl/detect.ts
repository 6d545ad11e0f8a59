/**
 * Recognising a WSDL (SPEC "Import operations": URL, file .wsdl or .xml, pasted XML). By name: a
 * `.wsdl` file. By content: XML whose root element is `definitions` in the WSDL 1.1 namespace
 * (after the XML declaration, comments and white space), which also covers `.xml` files and
 * pasted text.
 */
import { baseName, xmlRootIs, type DetectRule } from '../detect-rules.js';

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';

/** True when the text's root element is wsdl:definitions (namespace checked on the root tag). */
export function looksLikeWsdl(text: string): boolean {
  return xmlRootIs(text, 'definitions', WSDL_NS);
}

const LABEL = { label: 'WSDL 1.1', version: 'wsdl-1.1' };

export const WSDL_DETECT_RULES: DetectRule[] = [
  { format: 'wsdl', by: 'file-name', match: (input) => (/\.wsdl$/i.test(baseName(input.name ?? '')) ? LABEL : null) },
  { format: 'wsdl', by: 'content', match: (input) => (looksLikeWsdl(input.text) ? LABEL : null) },
];
