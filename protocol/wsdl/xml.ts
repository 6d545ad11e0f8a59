/**
 * Safe XML reading for WSDL and XSD documents: a size limit, no DTD at all (so no external
 * entity and no entity expansion can happen: a DOCTYPE or ENTITY declaration is refused, never
 * skipped), a nesting limit and a limit on elements and attributes checked by a linear scan
 * before any tree is built (xml-scan.ts), then one pass of saxes (a strict, streaming parser: well-formedness,
 * the five predefined entities and character references) building a small namespace-resolved
 * element tree. Every step is linear in the document: fast-xml-parser, used before, built each
 * text node and attribute value a character at a time, so a 10 MiB document whose bulk was one
 * text node took 430 MB to read (docs/soap.md "Limits").
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { quote } from '../errors.js';
import { scanXml } from '../xml-scan.js';
import { WsdlError } from './errors.js';

export interface XmlLimits {
  /** Characters one document may have. */
  maxChars: number;
  /** Elements nested inside each other. */
  maxDepth: number;
  /**
   * Elements and attributes (comments, processing instructions and CDATA sections count too) one
   * document may have: what its tree costs in memory (about 80 bytes
   * of heap an element, so 10 MiB of `<a/>`, 2.6 million elements, would be 210 MB and more
   * while it is built). A real schema has well under one a dozen characters.
   */
  maxNodes: number;
  /** Attributes one element may have (reading one of 500,000 took saxes 220 MB and 14 s). */
  maxAttributes: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxChars: 10 * 1024 * 1024, maxDepth: 256, maxNodes: 1_000_000, maxAttributes: 1000 };

/** What the documents of one read may still hold (one definition's, over all its documents); parseXml takes each document's from it. */
export interface NodeBudget {
  left: number;
}

export interface XmlElement {
  /** Namespace URI ('' when none). */
  ns: string;
  local: string;
  /** Attributes by their name as written (`xmlns:*` included). */
  attrs: ReadonlyMap<string, string>;
  children: readonly XmlElement[];
  /** Text directly inside (trimmed, joined). */
  text: string;
  /** Prefix -> namespace in scope here ('' is the default namespace). */
  scope: Map<string, string>;
}

export interface QName {
  ns: string;
  local: string;
}

/** A name's key in the component tables: never an object key, so `__proto__` is a name like any other. */
export function qkey(q: QName): string {
  return `{${q.ns}}${q.local}`;
}

/**
 * Refuses DTDs and checks nesting, nodes and attributes in one pass (xml-scan.ts). Returns the
 * nodes it counted.
 */
function scanDocument(text: string, location: string, limits: XmlLimits, budget: NodeBudget): number {
  const most = Math.min(limits.maxNodes, budget.left);
  const scan = scanXml(text, { ...limits, maxNodes: most });
  if (scan.ok) return scan.nodes;
  switch (scan.refused) {
    case 'dtd':
    case 'declaration': {
      const what = scan.refused === 'dtd' ? 'a DTD (<!DOCTYPE or <!ENTITY)' : 'a markup declaration (<!…)';
      throw new WsdlError('wsdl-dtd-refused', `${quote(location)} has ${what}: DTDs and entity declarations are not allowed in WSDL or XSD documents, so nothing was expanded or fetched.`, location);
    }
    case 'nodes': {
      const whose = most < limits.maxNodes ? ', with the documents read before it,' : '';
      throw new WsdlError('wsdl-too-large', `${quote(location)}${whose} has more than ${most.toLocaleString('en')} elements and attributes, the most one ${most < limits.maxNodes ? 'definition' : 'document'} may have: refused.`, location);
    }
    case 'attributes':
      throw new WsdlError('wsdl-too-large', `${quote(location)} has an element with more than ${limits.maxAttributes.toLocaleString('en')} attributes, the most one element may have: refused.`, location);
    case 'depth':
      throw new WsdlError('wsdl-too-deep', `${quote(location)} nests elements more than ${limits.maxDepth} deep: refused.`, location);
  }
}

export interface ParseOptions {
  /** Keep white space in text as written (default: each run of text trimmed, as WSDL and XSD want). */
  keepWhitespace?: boolean;
  /** Shared by the documents of one read, so all of them together stay within `limits.maxNodes`. */
  budget?: NodeBudget;
}

/**
 * Prefixes some published WSDLs use without declaring them (node-soap's fixtures have one);
 * read as the namespaces they always stand for rather than refusing the document.
 */
const UNDECLARED_PREFIXES = new Map<string, string>([
  ['wsdl', 'http://schemas.xmlsoap.org/wsdl/'],
  ['soap', 'http://schemas.xmlsoap.org/wsdl/soap/'],
  ['soap12', 'http://schemas.xmlsoap.org/wsdl/soap12/'],
  ['xs', 'http://www.w3.org/2001/XMLSchema'],
  ['xsd', 'http://www.w3.org/2001/XMLSchema'],
]);

function splitName(name: string): [string, string] {
  const colon = name.indexOf(':');
  return colon === -1 ? ['', name] : [name.slice(0, colon), name.slice(colon + 1)];
}

/** What elements without attributes or children share: most elements of a big schema have one or the other. */
const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();
const NO_CHILDREN: readonly XmlElement[] = Object.freeze([]);

/** An element of the tree, its namespace resolved in the scope its own `xmlns` attributes make. */
function elementOf(tag: SaxesTagPlain, parentScope: Map<string, string>): XmlElement {
  // saxes gives the attributes as a null-prototype object, in the order written.
  const names = Object.keys(tag.attributes);
  const attrs = names.length === 0 ? NO_ATTRIBUTES : new Map<string, string>();
  let scope = parentScope;
  for (const name of names) {
    const value = tag.attributes[name]!;
    (attrs as Map<string, string>).set(name, value);
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      if (scope === parentScope) scope = new Map(parentScope);
      scope.set(name === 'xmlns' ? '' : name.slice(6), value);
    }
  }
  const [prefix, local] = splitName(tag.name);
  return { ns: scope.get(prefix) ?? UNDECLARED_PREFIXES.get(prefix) ?? '', local, attrs, children: NO_CHILDREN, text: '', scope };
}

/** Parses one document, refusing DTDs, oversized, too-deep and too-many-node input, and malformed XML. */
export function parseXml(text: string, location: string, limits: XmlLimits = DEFAULT_XML_LIMITS, options: ParseOptions = {}): XmlElement {
  if (text.length > limits.maxChars) {
    throw new WsdlError('wsdl-too-large', `${quote(location)} is ${text.length.toLocaleString('en')} characters, over the limit of ${limits.maxChars.toLocaleString('en')}: refused.`, location);
  }
  const budget = options.budget ?? { left: limits.maxNodes };
  budget.left -= scanDocument(text, location, limits, budget);
  const keep = options.keepWhitespace ?? false;
  const parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  const base = new Map<string, string>([['xml', 'http://www.w3.org/XML/1998/namespace']]);
  const open: XmlElement[] = [];
  /** The text of each open element, in pieces joined when it closes (a run of text is one piece, never built a character at a time). */
  const texts: string[][] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const parent = open[open.length - 1];
    const el = elementOf(tag, parent?.scope ?? base);
    if (parent?.children === NO_CHILDREN) parent.children = [el];
    else if (parent) (parent.children as XmlElement[]).push(el);
    else root = el;
    open.push(el);
    texts.push([]);
  });
  parser.on('closetag', () => {
    const el = open.pop()!;
    el.text = texts.pop()!.join('');
  });
  parser.on('text', (run) => {
    const piece = keep ? run : run.trim();
    if (piece !== '' && texts.length > 0) texts[texts.length - 1]!.push(piece);
  });
  // CDATA is kept as written, never trimmed.
  parser.on('cdata', (data) => {
    if (texts.length > 0) texts[texts.length - 1]!.push(data);
  });
  try {
    parser.write(text).close();
  } catch (err) {
    const reason = (err as Error).message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    throw new WsdlError('wsdl-xml-invalid', `${quote(location)} is not well-formed XML (line ${parser.line}): ${reason}`, location);
  }
  if (!root) throw new WsdlError('wsdl-xml-invalid', `${quote(location)} has no root element.`, location);
  return root;
}

/** The child elements of `el` in namespace `ns` named `local` (any of several names when given an array). */
export function childrenNamed(el: XmlElement, ns: string | readonly string[], local: string): XmlElement[] {
  const nss = typeof ns === 'string' ? [ns] : ns;
  return el.children.filter((c) => c.local === local && nss.includes(c.ns));
}

export function firstChild(el: XmlElement, ns: string | readonly string[], local: string): XmlElement | undefined {
  return childrenNamed(el, ns, local)[0];
}

/** A QName written in an attribute value, resolved in the element's scope (unprefixed: the default namespace). */
export function resolveQName(el: XmlElement, value: string | undefined): QName | undefined {
  if (!value) return undefined;
  const [prefix, local] = splitName(value.trim());
  const ns = el.scope.get(prefix);
  if (ns === undefined) return prefix === '' ? { ns: '', local } : { ns: UNDECLARED_PREFIXES.get(prefix) ?? `urn:unbound-prefix:${prefix}`, local };
  return { ns, local };
}

export function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

/**
 * An element written back as a document of its own: every namespace in scope is declared on it
 * (so prefixes in QName attribute values still resolve), attributes as written, comments gone.
 * For XML carried inside another document (a SoapUI project's inline WSDL parts).
 */
export function serializeXml(el: XmlElement): string {
  const out: string[] = [];
  const write = (e: XmlElement, root: boolean) => {
    const prefix = prefixFor(e);
    const name = prefix ? `${prefix}:${e.local}` : e.local;
    let attrs = '';
    if (root) {
      for (const [p, ns] of e.scope) {
        if (p === 'xml' || e.attrs.has(p === '' ? 'xmlns' : `xmlns:${p}`)) continue;
        attrs += ` ${p === '' ? 'xmlns' : `xmlns:${p}`}="${escapeAttr(ns)}"`;
      }
    }
    for (const [k, v] of e.attrs) attrs += ` ${k}="${escapeAttr(v)}"`;
    if (e.children.length === 0 && e.text === '') {
      out.push(`<${name}${attrs}/>`);
      return;
    }
    out.push(`<${name}${attrs}>`);
    if (e.children.length === 0 || e.text.trim() !== '') out.push(escapeText(e.text));
    for (const c of e.children) write(c, false);
    out.push(`</${name}>`);
  };
  write(el, true);
  return out.join('');
}

/** A prefix bound to the element's namespace in its scope ('' for the default namespace). */
function prefixFor(e: XmlElement): string {
  if ((e.scope.get('') ?? '') === e.ns) return '';
  for (const [p, ns] of e.scope) if (p !== '' && ns === e.ns) return p;
  for (const [p, ns] of UNDECLARED_PREFIXES) if (ns === e.ns) return p;
  return '';
}
