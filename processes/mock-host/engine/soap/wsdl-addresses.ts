/**
 * `GET <mock path>?wsdl` (SPEC Mock HTTP surface): the contract's WSDL with every address
 * rewritten to the mock. Service addresses (soap:address, soap12:address, http:address) become
 * the mock's URL; the locations of wsdl:import, xsd:import and xsd:include become the mock's own
 * `?wsdl=<document>` URLs, which serve those cached documents rewritten the same way, so a client
 * that follows them never leaves the mock.
 */
import type { XmlElement } from 'libxml2-wasm';
import { parseSafeXml } from './safe-xml.js';
import { elementChildren } from './envelope.js';
import { escapeXml } from '../render-response.js';

const ADDRESS_NAMESPACES = new Set(['http://schemas.xmlsoap.org/wsdl/soap/', 'http://schemas.xmlsoap.org/wsdl/soap12/', 'http://schemas.xmlsoap.org/wsdl/http/']);
const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/**
 * Which cached document a location in `fromPath` names, or undefined when none does.
 */
export type LocateDocument = (fromPath: string, location: string) => string | undefined;

export interface WsdlSite {
  /** The cached documents as text, by their path in the API folder. */
  documents: ReadonlyMap<string, string>;
  /** The WSDL `?wsdl` serves. */
  entry: string;
  /** The import's own rule (protocol/wsdl/cached-wsdl.ts, `cachedLocator`). */
  locate: LocateDocument;
}

export type ServedDocument = { ok: true; text: string } | { ok: false; reason: string };

/** `mockUrl`: scheme, host, port and the mock's Path, e.g. http://127.0.0.1:4010/stock. */
export function serveWsdlDocument(site: WsdlSite, mockUrl: string, path: string = site.entry): ServedDocument {
  const text = site.documents.get(path);
  if (text === undefined) return { ok: false, reason: 'The definition has no such document.' };
  const parsed = parseSafeXml(text, { maxBytes: 64 * 1024 * 1024 });
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  const locate = site.locate;
  try {
    rewrite(parsed.doc.root, (element) => {
      const ns = element.namespaceUri ?? '';
      if (ADDRESS_NAMESPACES.has(ns) && element.name === 'address') {
        replaceAttribute(element, 'location', mockUrl);
      } else if (ns === WSDL_NS && element.name === 'import') {
        pointAt(element, 'location');
      } else if (ns === XSD_NS && (element.name === 'import' || element.name === 'include' || element.name === 'redefine')) {
        pointAt(element, 'schemaLocation');
      }
    });
    return { ok: true, text: parsed.doc.toString() };
  } finally {
    parsed.doc.dispose();
  }

  function pointAt(element: XmlElement, attribute: string): void {
    const location = element.attr(attribute)?.value;
    if (!location) return;
    const target = locate(path, location);
    if (target !== undefined) replaceAttribute(element, attribute, `${mockUrl}?wsdl=${encodeURIComponent(target)}`);
  }
}

/**
 * Gives an element's existing unqualified attribute a new value, in place. Not `setAttr`: it puts
 * the attribute in the namespace a bare prefix finds, so under a default namespace
 * (`<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">`) it adds a second `location` beside
 * the first, which is not well-formed XML. libxml2 reads the new value as attribute text with
 * character references, hence the escaping.
 */
function replaceAttribute(element: XmlElement, name: string, value: string): void {
  const attribute = element.attr(name);
  if (attribute) attribute.value = escapeXml(value);
}

function rewrite(element: XmlElement, visit: (element: XmlElement) => void): void {
  // Iterative: a WSDL nests deeply enough only up to libxml2's own depth limit, but no recursion is needed.
  const stack = [element];
  while (stack.length > 0) {
    const next = stack.pop()!;
    visit(next);
    stack.push(...elementChildren(next));
  }
}

/** What `?wsdl` and `?wsdl=<path>` ask for: the entry (undefined path) or a document; null when the query is not a WSDL request. */
export function wsdlQuery(search: string): { path?: string } | null {
  if (search === '') return null;
  const params = new URLSearchParams(search);
  for (const key of ['wsdl', 'WSDL', 'xsd', 'XSD']) {
    if (!params.has(key)) continue;
    const value = params.get(key) ?? '';
    return value === '' ? {} : { path: value };
  }
  return null;
}
