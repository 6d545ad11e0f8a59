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
 * Whether the text declares entities. slimdom expands internal entities without a bound (billion
 * laughs: 300,000 characters from 6 levels took 0.9 s, 9 levels would not end), and never reads an
 * external subset, so the only way to an entity is an `<!ENTITY` declaration in the document's
 * internal DTD subset: looked for as written, anywhere (a comment's too, which costs nothing but a
 * refusal). A pattern over the DOCTYPE would miss a subset after a `>` inside its quoted system
 * literal, and would be quadratic over many unclosed DOCTYPEs; this is one linear search.
 */
export function declaresEntities(text: string): boolean {
  return /<!ENTITY/i.test(text);
}

/** Parses an XML body for XPath; throws on XML that is not well formed or declares entities. */
export function parseXmlBody(text: string): XmlDocument {
  if (declaresEntities(text)) throw new Error('XML that declares entities (in an internal DTD subset) is not read.');
  return xpath().parseXmlDocument(text);
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
