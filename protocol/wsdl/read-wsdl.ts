/**
 * Reads a WSDL 1.1 document and everything it imports (wsdl:import, xsd:import, xsd:include,
 * xsd:redefine) through an injected reader, so the importer fetches and caches while the mock
 * host reads the cached copy. Pure: no I/O of its own.
 */
import { isWireError, quote } from '../errors.js';
import { WsdlError } from './errors.js';
import {
  type SoapStyle,
  type SoapUse,
  type SoapVersion,
  type WsdlBinding,
  type WsdlDefinition,
  type WsdlFault,
  type WsdlHeader,
  type WsdlMessageUse,
  type WsdlOperation,
  type WsdlPart,
  type WsdlPort,
  type WsdlProblem,
} from './model.js';
import { type NodeBudget, type QName, type XmlElement, type XmlLimits, DEFAULT_XML_LIMITS, childrenNamed, firstChild, parseXml, qkey, resolveQName } from './xml.js';
import { SchemaSet, XSD_NAMESPACES } from './xsd.js';

export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
export const WSDL_SOAP11_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
export const WSDL_SOAP12_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/';

/**
 * Reads the document `ref` names, relative to the document `base` (a location this reader gave
 * before, or the entry's). Returns the location it settled on (the key that dedups documents and
 * the base of the next relative reference) and the text. To say it cannot, it throws a plain
 * Error or a ParleyError coded `wsdl-unreadable` (a problem in the result); any other coded
 * error (a cancel, a deadline) ends the read with that error.
 */
export type WsdlReader = (ref: string, base: string) => Promise<{ location: string; text: string }>;

export interface WsdlReadLimits extends XmlLimits {
  /** Documents one definition may span (entry included). */
  maxDocuments: number;
  /** Elements and attributes of all its documents together (each document also within `maxNodes`). */
  maxDefinitionNodes: number;
}

export const DEFAULT_WSDL_LIMITS: WsdlReadLimits = { ...DEFAULT_XML_LIMITS, maxDocuments: 200, maxDefinitionNodes: DEFAULT_XML_LIMITS.maxNodes };

interface Component {
  el: XmlElement;
  tns: string;
  location: string;
}

class Loader {
  readonly schemas = new SchemaSet();
  readonly problems: WsdlProblem[] = [];
  readonly documents: string[] = [];
  readonly messages = new Map<string, Component>();
  readonly portTypes = new Map<string, Component>();
  readonly bindings: Component[] = [];
  readonly services: Component[] = [];
  readonly prefixes = new Map<string, string>();
  private readonly seen = new Set<string>();
  /** What the definition's documents may still hold, over all of them. */
  private readonly budget: NodeBudget;

  constructor(
    private readonly read: WsdlReader,
    private readonly limits: WsdlReadLimits,
  ) {
    this.budget = { left: limits.maxDefinitionNodes };
  }

  problem(code: string, message: string, location: string): void {
    if (this.problems.length < 500) this.problems.push({ code, message, location });
  }

  parse(text: string, location: string): XmlElement {
    if (this.documents.length >= this.limits.maxDocuments) {
      throw new WsdlError('wsdl-too-many-documents', `The definition spans more than ${this.limits.maxDocuments} documents: refused at ${quote(location)}.`, location);
    }
    this.seen.add(location);
    this.documents.push(location);
    const root = parseXml(text, location, this.limits, { budget: this.budget });
    this.notePrefixes(root);
    return root;
  }

  private notePrefixes(el: XmlElement): void {
    for (const [prefix, ns] of el.scope) if (prefix !== '' && prefix !== 'xml' && !this.prefixes.has(ns)) this.prefixes.set(ns, prefix);
    for (const child of el.children) if (child.scope !== el.scope) this.notePrefixes(child);
  }

  /** Reads a referenced document once; a document read before is not read again. */
  async fetch(ref: string, base: string, what: string): Promise<{ root: XmlElement; location: string } | undefined> {
    let got: { location: string; text: string };
    try {
      got = await this.read(ref, base);
    } catch (err) {
      // A plain Error or `wsdl-unreadable` costs this document only; any other coded error (a
      // cancel, a job deadline, an unsafe document) stops the read.
      if (isWireError(err) && err.code !== 'wsdl-unreadable') throw err;
      const reason = err instanceof Error ? err.message : String(err);
      this.problem('wsdl-import-unreadable', `${what} ${quote(ref)} in ${quote(base)} could not be read: ${reason}`, base);
      return undefined;
    }
    if (this.seen.has(got.location)) return undefined;
    try {
      return { root: this.parse(got.text, got.location), location: got.location };
    } catch (err) {
      // A malformed import costs its own components; unsafe input (DTD, size, depth) stops the read.
      if (err instanceof WsdlError && err.code === 'wsdl-xml-invalid') {
        this.problem('wsdl-import-invalid', err.message, got.location);
        return undefined;
      }
      throw err;
    }
  }

  async definitions(root: XmlElement, location: string): Promise<void> {
    const tns = root.attrs.get('targetNamespace') ?? '';
    for (const imp of childrenNamed(root, WSDL_NS, 'import')) {
      const ref = imp.attrs.get('location');
      if (!ref) {
        this.problem('wsdl-import-no-location', `A wsdl:import of ${quote(imp.attrs.get('namespace') ?? '')} has no location and was skipped.`, location);
        continue;
      }
      const got = await this.fetch(ref, location, 'The wsdl:import');
      if (!got) continue;
      if (got.root.ns === WSDL_NS && got.root.local === 'definitions') await this.definitions(got.root, got.location);
      else if (XSD_NAMESPACES.includes(got.root.ns) && got.root.local === 'schema') await this.schema(got.root, got.location);
      else this.problem('wsdl-import-unknown', `${quote(got.location)} is neither a WSDL nor an XSD document; skipped.`, location);
    }
    for (const types of childrenNamed(root, WSDL_NS, 'types')) {
      for (const schema of types.children) if (XSD_NAMESPACES.includes(schema.ns) && schema.local === 'schema') await this.schema(schema, location);
    }
    const add = (map: Map<string, Component>, el: XmlElement): void => {
      const name = el.attrs.get('name');
      if (name) {
        const key = qkey({ ns: tns, local: name });
        if (!map.has(key)) map.set(key, { el, tns, location });
      }
    };
    for (const m of childrenNamed(root, WSDL_NS, 'message')) add(this.messages, m);
    for (const p of childrenNamed(root, WSDL_NS, 'portType')) add(this.portTypes, p);
    for (const b of childrenNamed(root, WSDL_NS, 'binding')) this.bindings.push({ el: b, tns, location });
    for (const s of childrenNamed(root, WSDL_NS, 'service')) this.services.push({ el: s, tns, location });
  }

  async schema(schemaEl: XmlElement, location: string, namespaceOverride?: string): Promise<void> {
    const info = this.schemas.addSchema(schemaEl, location, namespaceOverride);
    for (const child of schemaEl.children) {
      if (!XSD_NAMESPACES.includes(child.ns)) continue;
      const kind = child.local;
      if (kind !== 'import' && kind !== 'include' && kind !== 'redefine') continue;
      const ref = child.attrs.get('schemaLocation');
      if (!ref) continue; // an xsd:import without a location names a schema held elsewhere in this WSDL
      const got = await this.fetch(ref, location, `The xsd:${kind}`);
      if (!got) continue;
      if (!XSD_NAMESPACES.includes(got.root.ns) || got.root.local !== 'schema') {
        this.problem('wsdl-import-unknown', `${quote(got.location)} (xsd:${kind}) is not an XSD schema; skipped.`, location);
        continue;
      }
      // An included schema with no target namespace takes the including one's ("chameleon" include).
      const override = kind === 'import' ? undefined : got.root.attrs.get('targetNamespace') === undefined ? info.targetNamespace : undefined;
      await this.schema(got.root, got.location, override);
    }
  }
}

function documentation(el: XmlElement): string | undefined {
  const doc = firstChild(el, WSDL_NS, 'documentation');
  const text = doc?.text.trim();
  return text ? text : undefined;
}

function soapVersionOf(el: XmlElement): SoapVersion | undefined {
  if (firstChild(el, WSDL_SOAP11_NS, 'binding')) return '1.1';
  if (firstChild(el, WSDL_SOAP12_NS, 'binding')) return '1.2';
  return undefined;
}

const SOAP_NS = [WSDL_SOAP11_NS, WSDL_SOAP12_NS];

function messageParts(loader: Loader, messageName: QName | undefined, location: string): { parts: WsdlPart[]; found: boolean } {
  if (!messageName) return { parts: [], found: false };
  const message = loader.messages.get(qkey(messageName));
  if (!message) {
    loader.problem('wsdl-message-missing', `Message ${quote(messageName.local)} (${quote(messageName.ns)}) is not defined.`, location);
    return { parts: [], found: false };
  }
  const parts = childrenNamed(message.el, WSDL_NS, 'part').map((p): WsdlPart => {
    const part: WsdlPart = { name: p.attrs.get('name') ?? '' };
    const element = resolveQName(p, p.attrs.get('element'));
    const type = resolveQName(p, p.attrs.get('type'));
    if (element) part.element = element;
    if (type) part.type = type;
    return part;
  });
  return { parts, found: true };
}

function messageUse(loader: Loader, abstractEl: XmlElement | undefined, bindingEl: XmlElement | undefined, tns: string, location: string): WsdlMessageUse | undefined {
  if (!abstractEl) return undefined;
  const message = resolveQName(abstractEl, abstractEl.attrs.get('message'));
  const { parts } = messageParts(loader, message, location);
  const body = bindingEl ? firstChild(bindingEl, SOAP_NS, 'body') : undefined;
  const use: SoapUse = body?.attrs.get('use') === 'encoded' ? 'encoded' : 'literal';
  const partNames = body?.attrs.get('parts');
  const bodyParts = partNames === undefined ? parts : parts.filter((p) => partNames.split(/\s+/).includes(p.name));
  const headers: WsdlHeader[] = [];
  for (const h of bindingEl ? childrenNamed(bindingEl, SOAP_NS, 'header') : []) {
    const hMessage = resolveQName(h, h.attrs.get('message'));
    const hPart = h.attrs.get('part');
    const found = messageParts(loader, hMessage, location).parts.find((p) => p.name === hPart);
    if (hMessage && found) headers.push({ message: hMessage, part: found, use: h.attrs.get('use') === 'encoded' ? 'encoded' : 'literal', namespace: h.attrs.get('namespace') ?? tns });
  }
  const result: WsdlMessageUse = { message: message ?? { ns: '', local: '' }, parts: bodyParts, headers, use, namespace: body?.attrs.get('namespace') ?? tns };
  const name = abstractEl.attrs.get('name');
  if (name) result.name = name;
  const encodingStyle = body?.attrs.get('encodingStyle');
  if (encodingStyle) result.encodingStyle = encodingStyle;
  return result;
}

function buildBinding(loader: Loader, comp: Component, soapVersion: SoapVersion): WsdlBinding | undefined {
  const { el, tns, location } = comp;
  const name = el.attrs.get('name') ?? '';
  const soapBinding = firstChild(el, SOAP_NS, 'binding');
  const bindingStyle: SoapStyle = soapBinding?.attrs.get('style') === 'rpc' ? 'rpc' : 'document';
  const portTypeName = resolveQName(el, el.attrs.get('type')) ?? { ns: '', local: '' };
  const portType = loader.portTypes.get(qkey(portTypeName));
  if (!portType) loader.problem('wsdl-porttype-missing', `Binding ${quote(name)} names port type ${quote(portTypeName.local)}, which is not defined.`, location);
  const operations: WsdlOperation[] = [];
  for (const bop of childrenNamed(el, WSDL_NS, 'operation')) {
    const opName = bop.attrs.get('name') ?? '';
    const bInput = firstChild(bop, WSDL_NS, 'input');
    const bOutput = firstChild(bop, WSDL_NS, 'output');
    // Overloaded operations are told apart by their input name.
    const candidates = portType ? childrenNamed(portType.el, WSDL_NS, 'operation').filter((o) => o.attrs.get('name') === opName) : [];
    const inputName = bInput?.attrs.get('name');
    const pop = candidates.find((o) => inputName === undefined || firstChild(o, WSDL_NS, 'input')?.attrs.get('name') === inputName) ?? candidates[0];
    if (portType && !pop) {
      loader.problem('wsdl-operation-missing', `Operation ${quote(opName)} of binding ${quote(name)} is not in its port type ${quote(portTypeName.local)} and was not imported.`, location);
      continue;
    }
    const soapOp = firstChild(bop, SOAP_NS, 'operation');
    const style: SoapStyle = soapOp?.attrs.get('style') === 'rpc' ? 'rpc' : soapOp?.attrs.get('style') === 'document' ? 'document' : bindingStyle;
    const input = messageUse(loader, pop && firstChild(pop, WSDL_NS, 'input'), bInput, tns, location);
    const output = messageUse(loader, pop && firstChild(pop, WSDL_NS, 'output'), bOutput, tns, location);
    const faults: WsdlFault[] = [];
    for (const pf of pop ? childrenNamed(pop, WSDL_NS, 'fault') : []) {
      const faultName = pf.attrs.get('name') ?? '';
      const message = resolveQName(pf, pf.attrs.get('message'));
      const bFault = childrenNamed(bop, WSDL_NS, 'fault').find((f) => f.attrs.get('name') === faultName);
      const soapFault = bFault && firstChild(bFault, SOAP_NS, 'fault');
      const fault: WsdlFault = { name: faultName, parts: messageParts(loader, message, location).parts, use: soapFault?.attrs.get('use') === 'encoded' ? 'encoded' : 'literal', namespace: soapFault?.attrs.get('namespace') ?? tns };
      if (message) fault.message = message;
      faults.push(fault);
    }
    const op: WsdlOperation = { name: opName, soapAction: soapOp?.attrs.get('soapAction') ?? '', style, oneWay: input !== undefined && output === undefined, faults };
    if (input) op.input = input;
    if (output) op.output = output;
    const doc = (pop && documentation(pop)) ?? documentation(bop);
    if (doc) op.documentation = doc;
    operations.push(op);
  }
  return { name, namespace: tns, portType: portTypeName, soapVersion, style: bindingStyle, transport: soapBinding?.attrs.get('transport') ?? '', operations, ports: [] };
}

/**
 * Reads the WSDL at `entry` (its text given, its location the base of relative references) and
 * every document it imports or includes. Throws a WsdlError when the entry is not WSDL or any
 * document is unsafe or malformed; an import that cannot be read is a problem, not a failure.
 */
export async function readWsdl(entry: { location: string; text: string }, read: WsdlReader, limits: Partial<WsdlReadLimits> = {}): Promise<WsdlDefinition> {
  const loader = new Loader(read, { ...DEFAULT_WSDL_LIMITS, ...limits });
  const root = loader.parse(entry.text, entry.location);
  if (root.ns !== WSDL_NS || root.local !== 'definitions') {
    throw new WsdlError('wsdl-not-wsdl', `${quote(entry.location)} is not a WSDL 1.1 document: its root is ${quote(root.local)} in ${quote(root.ns || 'no namespace')}, not wsdl:definitions.`, entry.location);
  }
  await loader.definitions(root, entry.location);

  const bindings: WsdlBinding[] = [];
  const byKey = new Map<string, WsdlBinding>();
  for (const comp of loader.bindings) {
    const version = soapVersionOf(comp.el);
    const name = comp.el.attrs.get('name') ?? '';
    if (!version) {
      loader.problem('wsdl-binding-not-soap', `Binding ${quote(name)} is not a SOAP 1.1 or 1.2 binding (for example an HTTP binding) and was not imported.`, comp.location);
      continue;
    }
    const binding = buildBinding(loader, comp, version);
    if (!binding) continue;
    bindings.push(binding);
    byKey.set(qkey({ ns: comp.tns, local: name }), binding);
  }
  const services: WsdlDefinition['services'] = [];
  for (const { el } of loader.services) {
    const serviceName = el.attrs.get('name') ?? '';
    const ports: WsdlDefinition['services'][number]['ports'] = [];
    for (const p of childrenNamed(el, WSDL_NS, 'port')) {
      const bindingName = resolveQName(p, p.attrs.get('binding')) ?? { ns: '', local: '' };
      const address = firstChild(p, SOAP_NS, 'address')?.attrs.get('location') ?? '';
      const port: WsdlPort = { service: serviceName, name: p.attrs.get('name') ?? '', address };
      const binding = byKey.get(qkey(bindingName));
      binding?.ports.push(port);
      ports.push({ ...port, binding: bindingName, soap: binding !== undefined });
    }
    services.push({ name: serviceName, ports });
  }
  const definition: WsdlDefinition = {
    targetNamespace: root.attrs.get('targetNamespace') ?? '',
    documents: loader.documents,
    bindings,
    services,
    problems: loader.problems,
    prefixes: loader.prefixes,
    schemas: loader.schemas,
  };
  const name = root.attrs.get('name');
  if (name) definition.name = name;
  return definition;
}

/** Each SOAP binding with its operation names, in document order. */
export function listOperations(definition: WsdlDefinition): { binding: string; operations: string[] }[] {
  return definition.bindings.map((b) => ({ binding: b.name, operations: b.operations.map((o) => o.name) }));
}
