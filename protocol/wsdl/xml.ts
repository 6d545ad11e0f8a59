/**
 * Safe XML reading for WSDL and XSD documents: a size limit, no DTD at all (so no external
 * entity and no entity expansion can happen: a DOCTYPE or ENTITY declaration is refused, never
 * skipped), a nesting limit checked by a linear scan before any tree is built, and well-formedness
 * checked by fast-xml-parser's validator. The result is a small namespace-resolved element tree.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { quote } from '../errors.js';
import { WsdlError } from './errors.js';

export interface XmlLimits {
  /** Characters one document may have. */
  maxChars: number;
  /** Elements nested inside each other. */
  maxDepth: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxChars: 10 * 1024 * 1024, maxDepth: 256 };

export interface XmlElement {
  /** Namespace URI ('' when none). */
  ns: string;
  local: string;
  /** Attributes by their name as written (`xmlns:*` included). */
  attrs: Map<string, string>;
  children: XmlElement[];
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

/** Refuses DTDs and checks nesting in one pass; comments, CDATA and processing instructions are skipped. */
function scanXml(text: string, location: string, limits: XmlLimits): void {
  let depth = 0;
  let i = text.indexOf('<');
  while (i !== -1) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end === -1) return; // the validator names the unclosed comment
      i = text.indexOf('<', end + 3);
      continue;
    }
    if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end === -1) return;
      i = text.indexOf('<', end + 3);
      continue;
    }
    if (text.startsWith('<!', i)) {
      const what = /^<!(DOCTYPE|ENTITY)/i.test(text.slice(i, i + 9)) ? 'a DTD (<!DOCTYPE or <!ENTITY)' : 'a markup declaration (<!…)';
      throw new WsdlError('wsdl-dtd-refused', `${quote(location)} has ${what}: DTDs and entity declarations are not allowed in WSDL or XSD documents, so nothing was expanded or fetched.`, location);
    }
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end === -1) return;
      i = text.indexOf('<', end + 2);
      continue;
    }
    if (text.startsWith('</', i)) {
      depth--;
      i = text.indexOf('<', i + 2);
      continue;
    }
    // A start tag: find its end, stepping over quoted attribute values.
    let j = i + 1;
    let quoteChar = '';
    for (; j < text.length; j++) {
      const c = text[j];
      if (quoteChar) {
        if (c === quoteChar) quoteChar = '';
      } else if (c === '"' || c === "'") quoteChar = c;
      else if (c === '>') break;
    }
    if (j >= text.length) return;
    if (text[j - 1] !== '/') {
      depth++;
      if (depth > limits.maxDepth) {
        throw new WsdlError('wsdl-too-deep', `${quote(location)} nests elements more than ${limits.maxDepth} deep: refused.`, location);
      }
    }
    i = text.indexOf('<', j + 1);
  }
}

const parserOptions = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  // Only the five predefined entities and character references: there is never a DTD to define others.
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
};
const parser = new XMLParser(parserOptions);
/** For documents whose text is content kept as written (a SoapUI project's envelopes and scripts). */
const keepingParser = new XMLParser({ ...parserOptions, trimValues: false });

export interface ParseOptions {
  /** Keep white space in text as written (default: trimmed, as WSDL and XSD want). */
  keepWhitespace?: boolean;
}

type RawNode = Record<string, unknown>;

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

function toElement(raw: RawNode, parentScope: Map<string, string>): XmlElement | undefined {
  let tag: string | undefined;
  for (const key of Object.keys(raw)) if (key !== ':@') tag = key;
  if (tag === undefined || tag.startsWith('#') || tag.startsWith('?')) return undefined;
  const attrs = new Map<string, string>();
  const rawAttrs = raw[':@'];
  if (rawAttrs && typeof rawAttrs === 'object') {
    for (const [k, v] of Object.entries(rawAttrs as Record<string, unknown>)) attrs.set(k, String(v));
  }
  let scope = parentScope;
  for (const [k, v] of attrs) {
    if (k === 'xmlns' || k.startsWith('xmlns:')) {
      if (scope === parentScope) scope = new Map(parentScope);
      scope.set(k === 'xmlns' ? '' : k.slice(6), v);
    }
  }
  const [prefix, local] = splitName(tag);
  const el: XmlElement = { ns: scope.get(prefix) ?? UNDECLARED_PREFIXES.get(prefix) ?? '', local, attrs, children: [], text: '', scope };
  const kids = raw[tag];
  if (Array.isArray(kids)) {
    const texts: string[] = [];
    for (const kid of kids as RawNode[]) {
      if (Object.hasOwn(kid, '#text')) texts.push(String(kid['#text']));
      else {
        const child = toElement(kid, scope);
        if (child) el.children.push(child);
      }
    }
    el.text = texts.join('');
  }
  return el;
}

/** Parses one document, refusing DTDs, oversized and too-deep input, and malformed XML. */
export function parseXml(text: string, location: string, limits: XmlLimits = DEFAULT_XML_LIMITS, options: ParseOptions = {}): XmlElement {
  if (text.length > limits.maxChars) {
    throw new WsdlError('wsdl-too-large', `${quote(location)} is ${text.length.toLocaleString('en')} characters, over the limit of ${limits.maxChars.toLocaleString('en')}: refused.`, location);
  }
  scanXml(text, location, limits);
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new WsdlError('wsdl-xml-invalid', `${quote(location)} is not well-formed XML (line ${valid.err.line}): ${valid.err.msg}`, location);
  }
  const nodes = (options.keepWhitespace ? keepingParser : parser).parse(text) as RawNode[];
  const base = new Map<string, string>([['xml', 'http://www.w3.org/XML/1998/namespace']]);
  for (const node of nodes) {
    const el = toElement(node, base);
    if (el) return el;
  }
  throw new WsdlError('wsdl-xml-invalid', `${quote(location)} has no root element.`, location);
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
