/**
 * XPath 3.1 (fontoxpath) and JSONPath (jsonpath-plus) over a body: Parley's one query engine.
 * The mock host reads match conditions and template values with it; the checker's query worker
 * runs the response pane's Query tab with it. XPath reads an XML document (slimdom), or a JSON
 * value as XPath 3.1 maps and arrays; JSONPath reads JSON. Expressions come from users and may
 * never end (`(1 to 1e12)`), so a caller that cannot afford that runs them on a budgeted thread.
 */
import { createRequire } from 'node:module';
import type * as FontoXPath from 'fontoxpath';
import type { Document as XmlDocument } from 'slimdom';
import type * as Slimdom from 'slimdom';
import type * as JsonPathPlus from 'jsonpath-plus';
import { boundText, ParleyError } from '../../../protocol/errors.js';
import { scanXml, type XmlScan, type XmlScanLimits } from '../../../protocol/xml-scan.js';

export type QueryLanguage = 'xpath' | 'jsonpath';

// The engines are loaded on first use, not at start: fontoxpath alone took about a fifth of the
// mock host's start-up, and most mocks never read a body through XPath or JSONPath.
const requirePackage = createRequire(import.meta.url);
let xpathEngine: { fontoxpath: typeof FontoXPath; parseXmlDocument: typeof Slimdom.parseXmlDocument; serialize: typeof Slimdom.serializeToWellFormedString } | undefined;
let jsonPathEngine: typeof JsonPathPlus.JSONPath | undefined;

function xpath(): NonNullable<typeof xpathEngine> {
  return (xpathEngine ??= {
    fontoxpath: requirePackage('fontoxpath') as typeof FontoXPath,
    parseXmlDocument: (requirePackage('slimdom') as typeof Slimdom).parseXmlDocument,
    serialize: (requirePackage('slimdom') as typeof Slimdom).serializeToWellFormedString,
  });
}

function jsonPath(): typeof JsonPathPlus.JSONPath {
  return (jsonPathEngine ??= (requirePackage('jsonpath-plus') as typeof JsonPathPlus).JSONPath);
}

/** Loads the engines of these languages now rather than at their first query. */
export function preloadQueryEngines(languages: Iterable<string>): void {
  for (const language of languages) {
    if (language === 'xpath') xpath();
    else if (language === 'jsonpath') jsonPath();
  }
}

/**
 * What an XML body may hold to be read, checked by a linear scan before slimdom builds anything
 * (protocol/xml-scan.ts). No DTD: slimdom expands internal entities without a bound (billion
 * laughs: 300,000 characters from 6 levels took 0.9 s, 9 levels would not end), and SOAP forbids
 * a DTD anyway. Depth: slimdom's serializer and fontoxpath's string value recurse (the stack ran
 * out at 4,000 levels) and `//a` down a chain is quadratic in its length (1,000 levels: 0.8 s);
 * real bodies nest a few dozen deep. Nodes: a slimdom node takes about 300 bytes of heap
 * (500,000 elements: 150 MB), and text nodes come on top, one at most between two tags.
 */
export const XML_BODY_LIMITS: XmlScanLimits = { maxDepth: 512, maxNodes: 1_000_000, maxAttributes: 1000 };

/**
 * Parses an XML body for XPath; throws `xml-refused` past XML_BODY_LIMITS and `xml-invalid` on XML
 * that is not well formed (what slimdom found, and where). Anything else thrown is not the body's
 * fault and goes on as it is.
 */
export function parseXmlBody(text: string): XmlDocument {
  const scan = scanXml(text, XML_BODY_LIMITS);
  if (!scan.ok) throw new ParleyError('xml-refused', refusal(scan.refused));
  const { parseXmlDocument } = xpath();
  try {
    return parseXmlDocument(text);
  } catch (err) {
    // slimdom's parse errors are plain Errors (a namespace error a DOMException): what is wrong, where, then the line quoted.
    if (!(err instanceof Error) || err instanceof TypeError || err instanceof RangeError) throw err;
    const [what = '', where = ''] = err.message.split('\n');
    const at = where.trim().replace(/:$/, '').replace(/^At /, 'at ');
    throw new ParleyError('xml-invalid', boundText(`The body is not XML that can be read (${what.trim()}${at ? `, ${at}` : ''}).`, 1500));
  }
}

function refusal(why: Extract<XmlScan, { ok: false }>['refused']): string {
  const { maxDepth, maxNodes, maxAttributes } = XML_BODY_LIMITS;
  switch (why) {
    case 'dtd':
      return 'The body has a DTD (<!DOCTYPE or <!ENTITY), which is never read: no entity is expanded or fetched.';
    case 'declaration':
      return 'The body has a markup declaration (<!…) that is not a comment or CDATA section: it is not read.';
    case 'nodes':
      return `The body has more than ${maxNodes.toLocaleString('en-US')} elements, attributes and other nodes, the most an XML body may have to be read.`;
    case 'attributes':
      return `The body has an element with more than ${maxAttributes.toLocaleString('en-US')} attributes, the most one element may have.`;
    case 'depth':
      return `The body nests elements more than ${maxDepth} deep, the most an XML body may nest to be read.`;
  }
}

/**
 * Every match of a JSONPath expression in a JSON value. Filters run on jsonpath-plus's safe
 * evaluator (no JavaScript), and an item a filter cannot read (`@.price` of a null) is not a
 * match; an expression that does not parse throws.
 */
export function evaluateJsonPath(expression: string, json: unknown): unknown[] {
  if (expression.trim() === '') throw new Error('The expression is empty.');
  const found = jsonPath()({ path: expression, json: json as object, wrap: true, eval: 'safe', ignoreEvalErrors: true }) as unknown[] | undefined;
  // jsonpath-plus finds nothing at all in a null document, not even `$`.
  if (found === undefined) return json === null && expression.trim() === '$' ? [null] : [];
  return found;
}

/**
 * The items an XPath 3.1 expression returns for `context`: an XML document or a JSON value
 * (objects are maps, arrays are arrays: `?store?book?*`). Over XML, an unprefixed name is in the
 * document element's default namespace, and a prefix is the one the document declares: the
 * document element's, else its first declaration in document order (`documentPrefixes`);
 * `*:name` matches a name in any namespace. Throws with fontoxpath's error (its code, and where
 * the expression broke) when it cannot be evaluated.
 */
export function evaluateXPath(expression: string, context: unknown): unknown[] {
  if (expression.trim() === '') throw new Error('The expression is empty.');
  const { fontoxpath } = xpath();
  const options = isXmlDocument(context) ? { namespaceResolver: (prefix: string | null) => context.documentElement?.lookupNamespaceURI(prefix) ?? (prefix ? (documentPrefixes(context).get(prefix) ?? null) : null) } : {};
  return fontoxpath.evaluateXPath(expression, context, null, null, fontoxpath.evaluateXPath.ALL_RESULTS_TYPE, options) as unknown[];
}

const XMLNS = 'http://www.w3.org/2000/xmlns/';
const prefixesOf = new WeakMap<XmlDocument, Map<string, string>>();

/**
 * Every namespace prefix the document declares, each bound to its first declaration in document
 * order (the document element's come first). Walked once per document, and only when an
 * expression names a prefix the document element does not declare.
 */
export function documentPrefixes(document: XmlDocument): Map<string, string> {
  let prefixes = prefixesOf.get(document);
  if (prefixes) return prefixes;
  prefixes = new Map();
  const pending = document.documentElement ? [document.documentElement] : [];
  while (pending.length > 0) {
    const element = pending.pop()!;
    for (const attribute of element.attributes) {
      if (attribute.namespaceURI === XMLNS && attribute.prefix === 'xmlns' && !prefixes.has(attribute.localName)) prefixes.set(attribute.localName, attribute.value);
    }
    // Children pushed last-first, so they are taken in document order.
    for (let child = element.lastElementChild; child; child = child.previousElementSibling) pending.push(child);
  }
  prefixesOf.set(document, prefixes);
  return prefixes;
}

function isXmlDocument(value: unknown): value is XmlDocument {
  return typeof value === 'object' && value !== null && 'nodeType' in value && (value as { nodeType: unknown }).nodeType === 9;
}

/** An XML node among the results (XPath over XML), told apart from a JSON value. */
export function isXmlNode(value: unknown): value is { nodeType: number; textContent: string | null } {
  return typeof value === 'object' && value !== null && 'nodeType' in value && typeof (value as { nodeType: unknown }).nodeType === 'number' && 'textContent' in value;
}

/**
 * A node among XPath's results as XML: an element (or a whole document) serialized with the
 * namespace declarations it needs to stand alone, an attribute as `name="value"`, a text or
 * CDATA node as its text.
 */
export function serializeXmlNode(node: { nodeType: number; textContent: string | null }): string {
  switch (node.nodeType) {
    case 2: {
      const { name, value } = node as unknown as { name: string; value: string };
      return `${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`;
    }
    case 3:
    case 4:
      return node.textContent ?? '';
    default:
      try {
        return xpath().serialize(node as unknown as Slimdom.Node);
      } catch {
        // A node that cannot be written as well-formed XML (a comment holding `--`) is shown as its text.
        return node.textContent ?? '';
      }
  }
}
