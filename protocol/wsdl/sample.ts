/**
 * First-request samples: a SOAP envelope for an operation's input or output (or a fault), built
 * from the XSD of its message parts. document/literal, rpc/literal and rpc/encoded; namespaces
 * declared once on the Envelope with the prefixes the WSDL used where they are free; recursion
 * and size bounded (a recursive type stops at its second appearance, nesting at 24 levels,
 * the whole sample at 2,000 elements).
 */
import { ParleyError } from '../errors.js';
import {
  type WsdlBinding,
  type WsdlDefinition,
  type WsdlMessageUse,
  type WsdlOperation,
  type WsdlPart,
  type SoapVersion,
  SOAP11_ENCODING_NS,
  SOAP12_ENCODING_NS,
  envelopeNamespace,
} from './model.js';
import { type QName, type XmlElement, escapeAttr, escapeText, firstChild, qkey, resolveQName } from './xml.js';
import { type SchemaInfo, XSD_NAMESPACES, XSD_NS } from './xsd.js';

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const MAX_DEPTH = 24;
const MAX_NODES = 2_000;

interface Node {
  name: QName;
  /** An attribute whose value is a QName (xsi:type) has `qname`, written with the writer's prefix. */
  attrs: { name: QName; value: string; qname?: QName }[];
  children: Node[];
  text?: string;
}

const BUILTIN_SAMPLES = new Map<string, string>([
  ['boolean', 'false'],
  ['decimal', '0'],
  ['float', '0'],
  ['double', '0'],
  ['integer', '0'],
  ['int', '0'],
  ['long', '0'],
  ['short', '0'],
  ['byte', '0'],
  ['nonNegativeInteger', '0'],
  ['nonPositiveInteger', '0'],
  ['negativeInteger', '-1'],
  ['positiveInteger', '1'],
  ['unsignedInt', '0'],
  ['unsignedLong', '0'],
  ['unsignedShort', '0'],
  ['unsignedByte', '0'],
  ['date', '2000-01-01'],
  ['dateTime', '2000-01-01T00:00:00Z'],
  ['time', '00:00:00'],
  ['duration', 'P0D'],
  ['gYear', '2000'],
  ['gYearMonth', '2000-01'],
  ['gMonth', '--01'],
  ['gMonthDay', '--01-01'],
  ['gDay', '---01'],
  ['base64Binary', ''],
  ['hexBinary', ''],
  ['anyURI', 'http://example.com'],
  ['QName', 'xsd:string'],
  ['language', 'en'],
]);

class Sampler {
  private nodes = 0;
  private readonly stack: string[] = [];

  constructor(private readonly definition: WsdlDefinition) {}

  private budgetLeft(): boolean {
    return this.nodes < MAX_NODES;
  }

  private newNode(name: QName): Node {
    this.nodes++;
    return { name, attrs: [], children: [] };
  }

  /** A global element by name. */
  globalElement(q: QName, depth: number): Node | undefined {
    const comp = this.definition.schemas.element(q);
    if (!comp) {
      const node = this.newNode(q);
      node.text = '?';
      return node;
    }
    return this.elementFrom(comp.el, comp.schema, q, depth);
  }

  /** A node named `name` whose content is the declaration `decl` (an xsd:element). */
  private elementFrom(decl: XmlElement, schema: SchemaInfo, name: QName, depth: number): Node | undefined {
    const node = this.newNode(name);
    const fixed = decl.attrs.get('fixed') ?? decl.attrs.get('default');
    const typeName = resolveQName(decl, decl.attrs.get('type'));
    if (typeName) this.fillFromType(node, typeName, depth, fixed);
    else {
      const inline = decl.children.find((c) => XSD_NAMESPACES.includes(c.ns) && (c.local === 'complexType' || c.local === 'simpleType'));
      if (inline?.local === 'complexType') this.complexContent(node, inline, schema, depth);
      else if (inline) node.text = fixed ?? this.simpleSample(inline, 0);
      else node.text = fixed ?? '?';
    }
    return node;
  }

  /** Fills `node` from the named type: a built-in's sample text, or a declared type's content. */
  fillFromType(node: Node, typeName: QName, depth: number, fixed?: string): void {
    if (XSD_NAMESPACES.includes(typeName.ns)) {
      node.text = fixed ?? builtinSample(typeName.local);
      return;
    }
    const comp = this.definition.schemas.type(typeName);
    if (!comp) {
      node.text = fixed ?? '?';
      return;
    }
    if (comp.el.local === 'simpleType') {
      node.text = fixed ?? this.simpleSample(comp.el, 0);
      return;
    }
    const key = qkey(typeName);
    // A type met again inside itself stops here: a recursive type's sample has one level.
    if (this.stack.includes(key)) return;
    this.stack.push(key);
    this.complexContent(node, comp.el, comp.schema, depth);
    this.stack.pop();
  }

  private simpleSample(simpleType: XmlElement, hops: number): string {
    if (hops > 20) return '?';
    const restriction = childXsd(simpleType, 'restriction');
    if (restriction) {
      const enumeration = childXsd(restriction, 'enumeration');
      if (enumeration) return enumeration.attrs.get('value') ?? '';
      const base = resolveQName(restriction, restriction.attrs.get('base'));
      const inline = childXsd(restriction, 'simpleType');
      if (inline) return this.simpleSample(inline, hops + 1);
      return base ? this.simpleNamed(base, hops + 1) : '?';
    }
    const list = childXsd(simpleType, 'list');
    if (list) {
      const item = resolveQName(list, list.attrs.get('itemType'));
      const inline = childXsd(list, 'simpleType');
      return inline ? this.simpleSample(inline, hops + 1) : item ? this.simpleNamed(item, hops + 1) : '?';
    }
    const union = childXsd(simpleType, 'union');
    if (union) {
      const first = union.attrs.get('memberTypes')?.trim().split(/\s+/)[0];
      const member = resolveQName(union, first);
      const inline = childXsd(union, 'simpleType');
      return member ? this.simpleNamed(member, hops + 1) : inline ? this.simpleSample(inline, hops + 1) : '?';
    }
    return '?';
  }

  private simpleNamed(q: QName, hops: number): string {
    if (XSD_NAMESPACES.includes(q.ns)) return builtinSample(q.local);
    const comp = this.definition.schemas.type(q);
    if (comp?.el.local === 'simpleType') return this.simpleSample(comp.el, hops);
    if (comp?.el.local === 'complexType') {
      // simpleContent: the base's sample
      const simple = childXsd(comp.el, 'simpleContent');
      const ext = simple && (childXsd(simple, 'extension') ?? childXsd(simple, 'restriction'));
      const base = ext && resolveQName(ext, ext.attrs.get('base'));
      if (base && hops < 20) return this.simpleNamed(base, hops + 1);
    }
    return '?';
  }

  private complexContent(node: Node, ct: XmlElement, schema: SchemaInfo, depth: number): void {
    if (depth > MAX_DEPTH) return;
    const simple = childXsd(ct, 'simpleContent');
    if (simple) {
      const der = childXsd(simple, 'extension') ?? childXsd(simple, 'restriction');
      const base = der && resolveQName(der, der.attrs.get('base'));
      const enumeration = der && childXsd(der, 'enumeration');
      node.text = enumeration?.attrs.get('value') ?? (base ? this.simpleNamed(base, 0) : '?');
      if (der) this.attributes(node, der, schema, 0);
      return;
    }
    const complex = childXsd(ct, 'complexContent');
    if (complex) {
      const ext = childXsd(complex, 'extension');
      const res = childXsd(complex, 'restriction');
      const der = ext ?? res;
      if (!der) return;
      const base = resolveQName(der, der.attrs.get('base'));
      // soapenc:Array (rpc/encoded arrays): a first request carries none of its items.
      if (base && (base.ns === SOAP11_ENCODING_NS || base.ns === SOAP12_ENCODING_NS)) return;
      if (ext && base && !XSD_NAMESPACES.includes(base.ns)) {
        const baseComp = this.definition.schemas.type(base);
        const key = qkey(base);
        if (baseComp?.el.local === 'complexType' && !this.stack.includes(key)) {
          this.stack.push(key);
          this.complexContent(node, baseComp.el, baseComp.schema, depth);
          this.stack.pop();
        }
      }
      this.particlesOf(node, der, schema, depth);
      this.attributes(node, der, schema, 0);
      return;
    }
    this.particlesOf(node, ct, schema, depth);
    this.attributes(node, ct, schema, 0);
  }

  /** The model group directly inside `el` (sequence, all, choice or group). */
  private particlesOf(node: Node, el: XmlElement, schema: SchemaInfo, depth: number): void {
    for (const child of el.children) {
      if (!XSD_NAMESPACES.includes(child.ns)) continue;
      if (child.local === 'sequence' || child.local === 'all' || child.local === 'choice' || child.local === 'group') this.particle(node, child, schema, depth, 0);
    }
  }

  private particle(node: Node, p: XmlElement, schema: SchemaInfo, depth: number, hops: number): void {
    if (!this.budgetLeft() || hops > 32 || p.attrs.get('maxOccurs') === '0') return;
    switch (p.local) {
      case 'sequence':
      case 'all':
        for (const c of p.children) if (XSD_NAMESPACES.includes(c.ns)) this.particle(node, c, schema, depth, hops + 1);
        return;
      case 'choice': {
        const first = p.children.find((c) => XSD_NAMESPACES.includes(c.ns) && c.local !== 'annotation');
        if (first) this.particle(node, first, schema, depth, hops + 1);
        return;
      }
      case 'group': {
        const ref = resolveQName(p, p.attrs.get('ref'));
        const group = ref && this.definition.schemas.groups.get(qkey(ref));
        if (group) for (const c of group.el.children) if (XSD_NAMESPACES.includes(c.ns)) this.particle(node, c, group.schema, depth, hops + 1);
        return;
      }
      case 'element': {
        const child = this.localElement(p, schema, depth + 1);
        if (child) node.children.push(child);
        return;
      }
      default:
        return; // xsd:any and annotations add nothing to a first request
    }
  }

  private localElement(decl: XmlElement, schema: SchemaInfo, depth: number): Node | undefined {
    const ref = resolveQName(decl, decl.attrs.get('ref'));
    const optional = decl.attrs.get('minOccurs') === '0';
    if (ref) {
      const key = `element ${qkey(ref)}`;
      if (this.stack.includes(key)) return optional ? undefined : this.newNode(ref);
      this.stack.push(key);
      const node = this.globalElement(ref, depth);
      this.stack.pop();
      return node;
    }
    const local = decl.attrs.get('name') ?? '';
    const form = decl.attrs.get('form');
    const qualified = form === 'qualified' || (form === undefined && schema.elementQualified);
    const name = { ns: qualified ? schema.targetNamespace : '', local };
    const typeName = resolveQName(decl, decl.attrs.get('type'));
    if (optional && typeName && this.stack.includes(qkey(typeName))) return undefined;
    if (depth > MAX_DEPTH) return optional ? undefined : this.newNode(name);
    return this.elementFrom(decl, schema, name, depth);
  }

  private attributes(node: Node, el: XmlElement, schema: SchemaInfo, hops: number): void {
    if (hops > 16) return;
    for (const a of el.children) {
      if (!XSD_NAMESPACES.includes(a.ns)) continue;
      if (a.local === 'attributeGroup') {
        const ref = resolveQName(a, a.attrs.get('ref'));
        const group = ref && this.definition.schemas.attributeGroups.get(qkey(ref));
        if (group) this.attributes(node, group.el, group.schema, hops + 1);
        continue;
      }
      if (a.local !== 'attribute' || a.attrs.get('use') === 'prohibited') continue;
      const ref = resolveQName(a, a.attrs.get('ref'));
      const decl = ref ? this.definition.schemas.attributes.get(qkey(ref))?.el : a;
      let name: QName;
      if (ref) name = ref;
      else {
        const form = a.attrs.get('form');
        const qualified = form === 'qualified' || (form === undefined && schema.attributeQualified);
        name = { ns: qualified ? schema.targetNamespace : '', local: a.attrs.get('name') ?? '' };
      }
      // Attributes in the XML or SOAP namespaces (xml:lang, soapenc:arrayType) are not sample content.
      if (name.ns === XML_NS || name.ns === SOAP11_ENCODING_NS || name.ns === SOAP12_ENCODING_NS || !name.local) continue;
      const value = a.attrs.get('fixed') ?? a.attrs.get('default') ?? decl?.attrs.get('fixed') ?? decl?.attrs.get('default');
      const type = decl && resolveQName(decl, decl.attrs.get('type'));
      const inline = decl && childXsd(decl, 'simpleType');
      node.attrs.push({ name, value: value ?? (type ? this.simpleNamed(type, 0) : inline ? this.simpleSample(inline, 0) : '?') });
    }
  }
}

function childXsd(el: XmlElement, local: string): XmlElement | undefined {
  return firstChild(el, XSD_NAMESPACES, local);
}

function builtinSample(local: string): string {
  return BUILTIN_SAMPLES.get(local) ?? '?';
}

/** Writes nodes as indented XML, with every namespace declared on the root. */
class Writer {
  private readonly prefixes = new Map<string, string>();
  private readonly used = new Set<string>();
  private readonly preferred = new Map<string, string>();
  private counter = 0;

  constructor(private readonly wsdlPrefixes: Map<string, string>) {}

  /** `ns` gets `prefix` when it is used; no other namespace takes that prefix. */
  prefer(ns: string, prefix: string): void {
    this.preferred.set(ns, prefix);
  }

  private taken(prefix: string): boolean {
    return this.used.has(prefix) || [...this.preferred.values()].includes(prefix) || /^xml/i.test(prefix);
  }

  prefix(ns: string): string {
    const known = this.prefixes.get(ns);
    if (known !== undefined) return known;
    let candidate = this.preferred.get(ns);
    if (candidate === undefined) {
      candidate = this.wsdlPrefixes.get(ns);
      if (!candidate || this.taken(candidate)) {
        do candidate = `ns${++this.counter}`;
        while (this.taken(candidate));
      }
    }
    this.prefixes.set(ns, candidate);
    this.used.add(candidate);
    return candidate;
  }

  private name(q: QName): string {
    return q.ns ? `${this.prefix(q.ns)}:${q.local}` : q.local;
  }

  private collect(node: Node): void {
    this.name(node.name);
    for (const a of node.attrs) {
      this.name(a.name);
      if (a.qname) this.name(a.qname);
    }
    for (const c of node.children) this.collect(c);
  }

  write(root: Node): string {
    this.collect(root);
    const lines: string[] = [];
    const decls = [...this.prefixes].filter(([ns]) => ns !== XML_NS).map(([ns, p]) => ` xmlns:${p}="${escapeAttr(ns)}"`).join('');
    this.writeNode(root, 0, lines, decls);
    return `${lines.join('\n')}\n`;
  }

  private writeNode(node: Node, indent: number, lines: string[], extra = ''): void {
    const pad = '   '.repeat(indent);
    const name = this.name(node.name);
    const attrs = node.attrs.map((a) => ` ${this.name(a.name)}="${escapeAttr(a.qname ? this.name(a.qname) : a.value)}"`).join('') + extra;
    if (node.children.length === 0) {
      lines.push(node.text === undefined ? `${pad}<${name}${attrs}/>` : `${pad}<${name}${attrs}>${escapeText(node.text)}</${name}>`);
      return;
    }
    lines.push(`${pad}<${name}${attrs}>`);
    for (const c of node.children) this.writeNode(c, indent + 1, lines);
    lines.push(`${pad}</${name}>`);
  }
}

function findBinding(definition: WsdlDefinition, binding: WsdlBinding | string): WsdlBinding {
  if (typeof binding !== 'string') return binding;
  const found = definition.bindings.find((b) => b.name === binding);
  if (!found) throw new ParleyError('not-found', `The WSDL has no SOAP binding named ${JSON.stringify(binding)}.`);
  return found;
}

function findOperation(binding: WsdlBinding, operation: WsdlOperation | string): WsdlOperation {
  if (typeof operation !== 'string') return operation;
  const found = binding.operations.find((o) => o.name === operation);
  if (!found) throw new ParleyError('not-found', `Binding ${JSON.stringify(binding.name)} has no operation named ${JSON.stringify(operation)}.`);
  return found;
}

function partNode(sampler: Sampler, part: WsdlPart, qualifiedName: QName, encoded: boolean): Node | undefined {
  // A part declared by an element is that element, in rpc style too.
  if (part.element) return sampler.globalElement(part.element, 1);
  const node: Node = { name: qualifiedName, attrs: [], children: [] };
  if (part.type) {
    sampler.fillFromType(node, part.type, 1);
    if (encoded && XSD_NAMESPACES.includes(part.type.ns)) node.attrs.push({ name: { ns: XSI_NS, local: 'type' }, value: '', qname: { ns: XSD_NS, local: part.type.local } });
  } else node.text = '?';
  return node;
}

function envelope(definition: WsdlDefinition, version: SoapVersion, headers: Node[], body: Node[]): string {
  const envNs = envelopeNamespace(version);
  const writer = new Writer(definition.prefixes);
  writer.prefer(envNs, 'soapenv');
  const root: Node = {
    name: { ns: envNs, local: 'Envelope' },
    attrs: [],
    children: [
      { name: { ns: envNs, local: 'Header' }, attrs: [], children: headers },
      { name: { ns: envNs, local: 'Body' }, attrs: [], children: body },
    ],
  };
  writer.prefer(XSI_NS, 'xsi');
  writer.prefer(XSD_NS, 'xsd');
  return writer.write(root);
}

function messageBody(sampler: Sampler, op: WsdlOperation, use: WsdlMessageUse | undefined, direction: 'input' | 'output', version: SoapVersion): Node[] {
  if (!use) return [];
  const encoded = use.use === 'encoded';
  if (op.style === 'rpc') {
    const wrapper: Node = { name: { ns: use.namespace, local: direction === 'input' ? op.name : `${op.name}Response` }, attrs: [], children: [] };
    if (encoded) wrapper.attrs.push({ name: { ns: envelopeNamespace(version), local: 'encodingStyle' }, value: use.encodingStyle ?? (version === '1.2' ? SOAP12_ENCODING_NS : SOAP11_ENCODING_NS) });
    for (const part of use.parts) {
      const node = partNode(sampler, part, { ns: '', local: part.name }, encoded);
      if (node) wrapper.children.push(node);
    }
    return [wrapper];
  }
  const nodes: Node[] = [];
  for (const part of use.parts) {
    const node = partNode(sampler, part, { ns: '', local: part.name }, encoded);
    if (node) nodes.push(node);
  }
  return nodes;
}

function headerNodes(sampler: Sampler, use: WsdlMessageUse | undefined): Node[] {
  const nodes: Node[] = [];
  for (const h of use?.headers ?? []) {
    const node = partNode(sampler, h.part, { ns: h.namespace, local: h.part.name }, h.use === 'encoded');
    if (node) nodes.push(node);
  }
  return nodes;
}

/**
 * A first request (input) or reply (output) envelope for `operation` of `binding`, in the
 * binding's SOAP version. A one-way operation's output is an envelope with an empty Body.
 */
export function sampleEnvelope(definition: WsdlDefinition, binding: WsdlBinding | string, operation: WsdlOperation | string, direction: 'input' | 'output'): string {
  const b = findBinding(definition, binding);
  const op = findOperation(b, operation);
  const sampler = new Sampler(definition);
  const use = direction === 'input' ? op.input : op.output;
  return envelope(definition, b.soapVersion, headerNodes(sampler, use), messageBody(sampler, op, use, direction, b.soapVersion));
}

/**
 * A fault envelope for `operation`: the named WSDL fault's detail (its first fault when no name
 * is given; no detail when the operation declares none), with a Server/Receiver code.
 */
export function sampleFaultEnvelope(definition: WsdlDefinition, binding: WsdlBinding | string, operation: WsdlOperation | string, faultName?: string, reason = 'Server error'): string {
  const b = findBinding(definition, binding);
  const op = findOperation(b, operation);
  const fault = faultName === undefined ? op.faults[0] : op.faults.find((f) => f.name === faultName);
  if (faultName !== undefined && !fault) throw new ParleyError('not-found', `Operation ${JSON.stringify(op.name)} has no fault named ${JSON.stringify(faultName)}.`);
  const sampler = new Sampler(definition);
  const envNs = envelopeNamespace(b.soapVersion);
  const detail: Node[] = [];
  for (const part of fault?.parts ?? []) {
    const node = partNode(sampler, part, { ns: '', local: part.name }, fault?.use === 'encoded');
    if (node) detail.push(node);
  }
  const n = (ns: string, local: string, children: Node[] = [], text?: string): Node => ({ name: { ns, local }, attrs: [], children, ...(text === undefined ? {} : { text }) });
  const faultNode =
    b.soapVersion === '1.2'
      ? n(envNs, 'Fault', [
          n(envNs, 'Code', [n(envNs, 'Value', [], 'soapenv:Receiver')]),
          n(envNs, 'Reason', [{ name: { ns: envNs, local: 'Text' }, attrs: [{ name: { ns: XML_NS, local: 'lang' }, value: 'en' }], children: [], text: reason }]),
          ...(detail.length ? [n(envNs, 'Detail', detail)] : []),
        ])
      : n(envNs, 'Fault', [n('', 'faultcode', [], 'soapenv:Server'), n('', 'faultstring', [], reason), ...(detail.length ? [n('', 'detail', detail)] : [])]);
  const writer = new Writer(definition.prefixes);
  writer.prefer(envNs, 'soapenv');
  writer.prefer(XML_NS, 'xml');
  return writer.write(n(envNs, 'Envelope', [n(envNs, 'Body', [faultNode])]));
}
