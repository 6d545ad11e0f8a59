/**
 * Recognising a SoapUI project: by name, `*-soapui-project.xml`; by content, a root element
 * `soapui-project` in the SoapUI config namespace (after the XML declaration and comments).
 */
import { baseName, type DetectRule } from '../detect-rules.js';
import { SOAPUI_NS } from './read-project.js';

const PROLOG = /^\uFEFF?\s*(?:<\?[^]*?\?>\s*|<!--[^]*?-->\s*)*/;
const ROOT = /^<(?:([A-Za-z_][\w.-]*):)?soapui-project[\s>/]/;

/** True when the root element is soapui-project in the SoapUI namespace (checked on the root tag). */
export function looksLikeSoapuiProject(text: string): boolean {
  const head = text.slice(0, 64 * 1024);
  const prolog = PROLOG.exec(head)?.[0] ?? '';
  const rest = head.slice(prolog.length);
  const root = ROOT.exec(rest);
  if (!root) return false;
  const end = rest.indexOf('>');
  const tag = end === -1 ? rest : rest.slice(0, end);
  const prefix = root[1];
  const ns = SOAPUI_NS.replace(/[.]/g, '\\.');
  const decl = prefix ? new RegExp(`xmlns:${prefix.replace(/[.-]/g, '\\$&')}\\s*=\\s*["']${ns}["']`) : new RegExp(`xmlns\\s*=\\s*["']${ns}["']`);
  return decl.test(tag);
}

const LABEL = { label: 'Legacy SOAP project (SoapUI)', version: 'soapui' };

export const SOAPUI_DETECT_RULES: DetectRule[] = [
  { format: 'soapui', by: 'file-name', match: (input) => (/-soapui-project\.xml$/i.test(baseName(input.name ?? '')) ? LABEL : null) },
  { format: 'soapui', by: 'content', match: (input) => (looksLikeSoapuiProject(input.text) ? LABEL : null) },
];
