/**
 * The envelope structure check of SOAP 1.1 and 1.2 (SPEC Mock HTTP surface rules 8 and 9): an
 * Envelope in the version's namespace, an optional Header, then exactly one Body, nothing else
 * (SOAP 1.2; 1.1 lets elements follow the Body); the Body holds one element, or a Fault of the
 * version's shape. Pure: it walks a parsed libxml2 document and reports problems in words.
 */
import { XmlElement, XmlText, type XmlDocument, type XmlTreeNode } from 'libxml2-wasm';
import { ENVELOPE_NS, versionOfNamespace, type SoapVersion } from './soap-version.js';

export interface Envelope {
  version: SoapVersion | undefined;
  /** The Body's element children, in order. */
  bodyElements: XmlElement[];
  /** True when the Body holds a Fault of the envelope's version. */
  fault: boolean;
  problems: string[];
}

/** The element children of a node, skipping text, comments and processing instructions. */
export function elementChildren(parent: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let node: XmlTreeNode | null = parent.firstChild; node; node = node.next) if (isElement(node)) out.push(node);
  return out;
}

function isElement(node: XmlTreeNode): node is XmlElement {
  return node instanceof XmlElement;
}

/** `{namespace}local` of an element: how names are compared everywhere here. */
export function qname(element: XmlElement): string {
  return `{${element.namespaceUri ?? ''}}${element.name}`;
}

/** Non-whitespace text directly inside an element (SOAP allows none between Envelope's children). */
function strayText(parent: XmlElement): boolean {
  for (let node: XmlTreeNode | null = parent.firstChild; node; node = node.next) {
    if (node instanceof XmlText && /\S/.test(node.content)) return true;
  }
  return false;
}

/**
 * Reads the envelope; `expected` is the binding's SOAP version, when known. Problems are worded
 * for a log or a finding; the element names are the document's own, never body values.
 */
export function readEnvelope(doc: XmlDocument, expected?: SoapVersion): Envelope {
  const problems: string[] = [];
  const root = doc.root;
  const version = versionOfNamespace(root.namespaceUri ?? '');
  const result: Envelope = { version, bodyElements: [], fault: false, problems };
  if (root.name !== 'Envelope' || version === undefined) {
    problems.push(`The root element is ${describe(root)}, not a SOAP Envelope (${ENVELOPE_NS[expected ?? '1.1']}${expected ? '' : ` or ${ENVELOPE_NS['1.2']}`}).`);
    return result;
  }
  if (expected && version !== expected) {
    problems.push(`The envelope is SOAP ${version}, but the binding is SOAP ${expected} (namespace ${ENVELOPE_NS[expected]}).`);
  }
  const ns = ENVELOPE_NS[version];
  const children = elementChildren(root);
  if (strayText(root)) problems.push('The Envelope holds text outside its Header and Body.');
  let at = 0;
  if (children[at] && children[at]!.namespaceUri === ns && children[at]!.name === 'Header') at++;
  const body = children[at];
  if (!body || body.namespaceUri !== ns || body.name !== 'Body') {
    problems.push(body ? `The Envelope holds ${describe(body)} where its Body belongs (after the optional Header).` : 'The Envelope has no Body.');
    return result;
  }
  const after = children.slice(at + 1);
  for (const extra of after) {
    if (extra.namespaceUri === ns && (extra.name === 'Body' || extra.name === 'Header')) problems.push(`The Envelope holds a second ${extra.name}.`);
    else if (version === '1.2') problems.push(`SOAP 1.2 allows nothing after the Body; the Envelope holds ${describe(extra)} there.`);
  }
  const inBody = elementChildren(body);
  result.bodyElements = inBody;
  const fault = inBody.find((e) => e.namespaceUri === ns && e.name === 'Fault');
  if (fault) {
    result.fault = true;
    if (inBody.length > 1) problems.push('A Body that holds a Fault may hold nothing else.');
    problems.push(...faultProblems(fault, version));
  } else if (inBody.length === 0) {
    problems.push('The Body is empty; the operation expects one element in it.');
  } else if (inBody.length > 1) {
    problems.push(`The Body holds ${inBody.length} elements (${inBody.slice(0, 3).map(describe).join(', ')}); a document/literal message holds one.`);
  }
  return result;
}

/** The shape of a Fault: 1.1 faultcode and faultstring (unqualified); 1.2 Code/Value and Reason/Text. */
export function faultProblems(fault: XmlElement, version: SoapVersion): string[] {
  const problems: string[] = [];
  const children = elementChildren(fault);
  if (version === '1.1') {
    const names = children.map((c) => (c.namespaceUri ? qname(c) : c.name));
    const allowed = ['faultcode', 'faultstring', 'faultactor', 'detail'];
    for (const required of ['faultcode', 'faultstring']) if (!names.includes(required)) problems.push(`A SOAP 1.1 Fault needs a ${required}.`);
    for (const name of names) if (!allowed.includes(name)) problems.push(`A SOAP 1.1 Fault holds only faultcode, faultstring, faultactor and detail, not ${name}.`);
    return problems;
  }
  const ns = ENVELOPE_NS['1.2'];
  const order = ['Code', 'Reason', 'Node', 'Role', 'Detail'];
  let last = -1;
  for (const child of children) {
    const i = child.namespaceUri === ns ? order.indexOf(child.name) : -1;
    if (i < 0) problems.push(`A SOAP 1.2 Fault holds only Code, Reason, Node, Role and Detail (in that order), not ${describe(child)}.`);
    else if (i <= last) problems.push(`A SOAP 1.2 Fault's ${child.name} is out of order or repeated.`);
    else last = i;
  }
  const code = children.find((c) => c.namespaceUri === ns && c.name === 'Code');
  const reason = children.find((c) => c.namespaceUri === ns && c.name === 'Reason');
  if (!code) problems.push('A SOAP 1.2 Fault needs a Code.');
  else if (!elementChildren(code).some((c) => c.namespaceUri === ns && c.name === 'Value')) problems.push('A SOAP 1.2 Fault Code needs a Value.');
  if (!reason) problems.push('A SOAP 1.2 Fault needs a Reason.');
  else if (!elementChildren(reason).some((c) => c.namespaceUri === ns && c.name === 'Text')) problems.push('A SOAP 1.2 Fault Reason needs at least one Text.');
  return problems;
}

function describe(element: XmlElement): string {
  const ns = element.namespaceUri;
  return ns ? `${element.name} (namespace ${ns.slice(0, 120)})` : element.name;
}
