/**
 * Recognising a WSDL (SPEC "Import operations": URL, file .wsdl or .xml, pasted XML). By name: a
 * `.wsdl` file. By content: XML whose root element is `definitions` in the WSDL 1.1 namespace
 * (after the XML declaration, comments and white space), which also covers `.xml` files and
 * pasted text.
 */
import { baseName, type DetectRule } from '../detect-rules.js';

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
/** The XML declaration, comments and processing instructions that may come before the root. */
const PROLOG = /^\uFEFF?\s*(?:<\?[^]*?\?>\s*|<!--[^]*?-->\s*)*/;
const ROOT = /^<(?:([A-Za-z_][\w.-]*):)?definitions[\s>/]/;

/** True when the text's root element is wsdl:definitions (namespace checked on the root tag). */
export function looksLikeWsdl(text: string): boolean {
  const head = text.slice(0, 64 * 1024);
  const prolog = PROLOG.exec(head)?.[0] ?? '';
  const rest = head.slice(prolog.length);
  const root = ROOT.exec(rest);
  if (!root) return false;
  const end = rest.indexOf('>');
  const tag = end === -1 ? rest : rest.slice(0, end);
  const prefix = root[1];
  const decl = prefix ? new RegExp(`xmlns:${prefix.replace(/[.-]/g, '\\$&')}\\s*=\\s*["']${WSDL_NS}["']`) : new RegExp(`xmlns\\s*=\\s*["']${WSDL_NS}["']`);
  return decl.test(tag);
}

const LABEL = { label: 'WSDL 1.1', version: 'wsdl-1.1' };

export const WSDL_DETECT_RULES: DetectRule[] = [
  { format: 'wsdl', by: 'file-name', match: (input) => (/\.wsdl$/i.test(baseName(input.name ?? '')) ? LABEL : null) },
  { format: 'wsdl', by: 'content', match: (input) => (looksLikeWsdl(input.text) ? LABEL : null) },
];
