/**
 * Recognising a SOAP Fault in a response body (the response pane's "SOAP Fault" badge; the mock
 * host's checks): SOAP 1.1 faultcode/faultstring/faultactor/detail, SOAP 1.2 Code/Value
 * (with its Subcode values), Reason/Text, Node, Role, Detail. Pure; the body goes through the
 * same safe XML reader (no DTD, size and depth limits), and anything that is not a
 * well-formed SOAP envelope with a Fault is simply not a fault.
 */
import { SOAP11_ENVELOPE_NS, SOAP12_ENVELOPE_NS, type SoapVersion } from './model.js';
import { DEFAULT_XML_LIMITS, type XmlElement, firstChild, parseXml } from './xml.js';

export interface SoapFault {
  /** The envelope's SOAP version. */
  version: SoapVersion;
  /** Which children the fault used: 1.1's faultcode/faultstring, or 1.2's Code/Reason. */
  form: 'faultcode' | 'Code';
  /** faultcode (1.1) or Code/Value, with Subcode values after a ' / ' (1.2), as written. */
  code: string;
  /** faultstring (1.1) or the first Reason/Text (1.2). */
  reason: string;
  /** faultactor (1.1) or Node (1.2), when present. */
  actor?: string;
  /** Whether the fault carries a detail element. */
  hasDetail: boolean;
}

/** Bodies larger than this are not searched for a fault (the pane shows the body as usual). */
export const MAX_FAULT_BODY_CHARS = 1024 * 1024;

function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  return [el.text, ...el.children.map(textOf)].filter((t) => t !== '').join(' ').trim();
}

export function readSoapFault(body: string): SoapFault | null {
  if (body.length > MAX_FAULT_BODY_CHARS || !body.includes('Fault')) return null;
  let root: XmlElement;
  try {
    root = parseXml(body, 'the response', { ...DEFAULT_XML_LIMITS, maxChars: MAX_FAULT_BODY_CHARS, maxDepth: 64 });
  } catch {
    return null;
  }
  const ns = root.ns;
  if (root.local !== 'Envelope' || (ns !== SOAP11_ENVELOPE_NS && ns !== SOAP12_ENVELOPE_NS)) return null;
  const fault = firstChild(firstChild(root, ns, 'Body') ?? root, ns, 'Fault');
  if (!fault) return null;
  // Children are matched by local name: SOAP 1.1 fault children are unqualified (some servers
  // qualify them), and some servers put a 1.2-style Code/Reason in a 1.1 envelope.
  const child = (el: XmlElement | undefined, name: string) => el?.children.find((c) => c.local === name);
  const version: SoapVersion = ns === SOAP12_ENVELOPE_NS ? '1.2' : '1.1';
  const faultcode = child(fault, 'faultcode');
  if (faultcode || child(fault, 'faultstring')) {
    const actor = textOf(child(fault, 'faultactor'));
    return { version, form: 'faultcode', code: textOf(faultcode), reason: textOf(child(fault, 'faultstring')), ...(actor ? { actor } : {}), hasDetail: child(fault, 'detail') !== undefined };
  }
  const codes: string[] = [];
  let code = child(fault, 'Code');
  for (let depth = 0; code && depth < 8; depth++) {
    const value = textOf(child(code, 'Value'));
    if (value) codes.push(value);
    code = child(code, 'Subcode');
  }
  const actor = textOf(child(fault, 'Node'));
  return { version, form: 'Code', code: codes.join(' / '), reason: textOf(child(child(fault, 'Reason'), 'Text')), ...(actor ? { actor } : {}), hasDetail: child(fault, 'Detail') !== undefined };
}
