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
let xpathEngine: { fontoxpath: typeof FontoXPath; parseXmlDocument: typeof Slimdom.parseXmlDocument } | undefined;
let jsonPathEngine: typeof JsonPathPlus.JSONPath | undefined;

function xpath(): NonNullable<typeof xpathEngine> {
  return (xpathEngine ??= {
    fontoxpath: requirePackage('fontoxpath') as typeof FontoXPath,
    parseXmlDocument: (requirePackage('slimdom') as typeof Slimdom).parseXmlDocument,
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
 * A document type declaration with an internal subset: where entities are declared. slimdom
 * expands internal entities without a bound (billion laughs: 300,000 characters from 6 levels
 * took 0.9 s, 9 levels would not end), so such a body is not read at all.
 */
const INTERNAL_SUBSET = /<!DOCTYPE[^>[]*\[/i;

/** Parses an XML body for XPath; throws on XML that is not well formed or declares entities. */
export function parseXmlBody(text: string): XmlDocument {
  if (INTERNAL_SUBSET.test(text)) throw new Error('XML with an internal DTD subset (entity declarations) is not read.');
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
 * The items an XPath 3.1 expression returns for `context`: an XML document (its root element's
 * namespace prefixes resolve) or a JSON value (objects are maps, arrays are arrays: `?store?book?*`).
 * Throws with fontoxpath's error (its code, and where the expression broke) when it cannot be evaluated.
 */
export function evaluateXPath(expression: string, context: unknown): unknown[] {
  if (expression.trim() === '') throw new Error('The expression is empty.');
  const { fontoxpath } = xpath();
  const options = isXmlDocument(context) ? { namespaceResolver: (prefix: string | null) => context.documentElement?.lookupNamespaceURI(prefix) ?? null } : {};
  return fontoxpath.evaluateXPath(expression, context, null, null, fontoxpath.evaluateXPath.ALL_RESULTS_TYPE, options) as unknown[];
}

function isXmlDocument(value: unknown): value is XmlDocument {
  return typeof value === 'object' && value !== null && 'nodeType' in value && (value as { nodeType: unknown }).nodeType === 9;
}

/** An XML node among the results (XPath over XML), told apart from a JSON value. */
export function isXmlNode(value: unknown): value is { nodeType: number; textContent: string | null } {
  return typeof value === 'object' && value !== null && 'nodeType' in value && typeof (value as { nodeType: unknown }).nodeType === 'number' && 'textContent' in value;
}
