/**
 * A Query tab expression's error in the user's terms. fontoxpath and jsonpath-plus report what
 * they saw inside: a path step over JSON fails in fontoxpath's internals ("Cannot read properties
 * of undefined (reading 'nodeType')"), and jsonpath-plus counts a filter's error position in its
 * own rewrite of the filter (`@` becomes `_$_v`), not in what the user typed. Here the first is
 * explained (JSON is maps and arrays: `?name`) and the second mapped back to the expression.
 */
import { createRequire } from 'node:module';
import type * as JsonPathPlus from 'jsonpath-plus';

/** Longest message given back (a caret line under a long expression stays readable). */
const MAX_MESSAGE = 1500;

/**
 * fontoxpath's message is the expression with a caret under the place, then `Error: <code>:
 * <what>` and `at <>:line:col`: written as what went wrong and where, then the expression with
 * its caret. A path step over JSON (`//name`, `name`, `@id`, `text()`) is explained instead.
 */
export function xpathError(err: unknown, expression: string, over: { reads: string; prefixes?: () => string[] }): string {
  const message = (err instanceof Error ? err.message : String(err)).trim();
  if (over.reads !== 'an XML body' && walksNodes(err, message)) return overJson(expression, over.reads);
  const at = message.search(/^Error: /m);
  let said = message;
  if (at >= 0) {
    const context = message.slice(0, at).replace(/\s+$/, '');
    const [what = '', ...rest] = message.slice(at + 'Error: '.length).split('\n');
    const where = rest.map((line) => /^\s*at <>:(.+)$/.exec(line)?.[1]).find((w) => w !== undefined);
    said = `${what.trim()}${where ? ` (at ${where.trim()})` : ''}${context ? `\n${context}` : ''}`;
  }
  // A prefix the document does not declare: say which it does.
  if (over.prefixes && /\bXPST0081\b/.test(message)) {
    const prefixes = over.prefixes();
    said += ` The document declares ${prefixes.length > 0 ? prefixes.slice(0, 20).join(', ') : 'no prefixes'}; *:name matches a name in any namespace.`;
  }
  return said.slice(0, MAX_MESSAGE);
}

/**
 * The ways fontoxpath fails when a path step meets a map or an array: an axis on something that
 * is not a node (XPTY0020), a path whose left side is not nodes (XPTY0019), a root (`/`) of a
 * context that is not a node (XPDY0050), or its own code reading a node's type off a JSON value.
 */
function walksNodes(err: unknown, message: string): boolean {
  return /\b(XPTY0020|XPTY0019|XPDY0050)\b/.test(message) || (err instanceof TypeError && message.includes('nodeType'));
}

/** `//name` over JSON: what the user meant, in XPath 3.1's lookup operator (and JSONPath's descent). */
function overJson(expression: string, reads: string): string {
  const step = /(\/\/?|^|[\s([,])(@?)([A-Za-z_][\w.-]*|\*)(?![\w.-]*\s*\()/.exec(expression.trim());
  const name = step && step[3] !== '*' ? step[3]! : 'name';
  const shown = step ? `${step[1]!.trim()}${step[2]}${step[3]}` : expression.trim();
  const what = reads === 'the events' ? 'the events are one JSON array' : 'this body is JSON';
  return `${shown.slice(0, 200)} looks for XML nodes (elements, attributes, text), but ${what}, which XPath 3.1 reads as maps and arrays: look the key up with ?${name}, down a path with ?a?b?${name}, every value of a map or an array with ?*, and filter with [?price > 10]. For a key at any depth, JSONPath's $..${name} finds it.`;
}

type SafeScriptClass = new (script: string) => unknown;

const requirePackage = createRequire(import.meta.url);
let safeScript: SafeScriptClass | undefined;

/** jsonpath-plus's safe evaluator's parser: the one that rejected the filter (loaded with the engine). */
function filterParser(): SafeScriptClass {
  return (safeScript ??= ((requirePackage('jsonpath-plus') as typeof JsonPathPlus).JSONPath.prototype as unknown as { safeVm: { Script: SafeScriptClass } }).safeVm.Script);
}

/**
 * jsonpath-plus's error with its position in the expression the user typed. A filter `[?(...)]`
 * or script `[(...)]` is parsed after jsonpath-plus rewrote its `@` names (`@.x` is `_$_v.x`,
 * `@root` is `_$_root`), and "at character N" counts in that rewrite: each filter is rewritten
 * here the same way, keeping where each character came from, and the one the parser rejects
 * gives the position back.
 */
export function jsonPathError(err: unknown, expression: string): string {
  const message = (err instanceof Error ? err.message : String(err)).replace(/^jsonPath: /, '').trim();
  const positioned = /^(.*) at character (\d+)$/s.exec(message);
  if (positioned) {
    const at = positionInExpression(expression, positioned[1]!, Number(positioned[2]));
    if (at !== undefined) return withCaret(`${positioned[1]} (at character ${at + 1})`, expression, at);
    const open = unclosedFilter(expression);
    if (open !== undefined) return withCaret(`The filter opened here with [?( is not closed with )] (at character ${open + 1})`, expression, open);
    return positioned[1]!.slice(0, MAX_MESSAGE);
  }
  if (err instanceof TypeError && /\[\(/.test(expression)) {
    const at = expression.indexOf('[(');
    return withCaret(`The script expression [( ) here did not give a key jsonpath-plus can follow (at character ${at + 1}): write the key or index itself ($.items[2], $.items[-1:] for the last), or a filter [?( )]`, expression, at);
  }
  if (err instanceof TypeError) return `jsonpath-plus could not evaluate this expression (${message})`.slice(0, MAX_MESSAGE);
  return message.slice(0, MAX_MESSAGE);
}

function withCaret(what: string, expression: string, at: number): string {
  // One line of the expression around the place, so a long one keeps its caret in view.
  const from = Math.max(0, at - 60);
  const line = expression.slice(from, at + 60).replace(/[\r\n\t]/g, ' ');
  return `${what}\n${line}\n${' '.repeat(at - from)}^`.slice(0, MAX_MESSAGE);
}

/** The filters and scripts of an expression as jsonpath-plus cuts them out (its toPathArray), with where each starts. */
function* scriptsOf(expression: string): Generator<{ code: string; start: number }> {
  for (const m of expression.matchAll(/[['](\??\(.*?\))[\]'](?!.\])/gu)) {
    const loc = m[1]!;
    // `?(code)` is evaluated as `code`; a script `(code)` with its parentheses.
    if (loc.startsWith('?(')) yield { code: loc.slice(2, -1), start: m.index + 3 };
    else yield { code: loc, start: m.index + 1 };
  }
}

/** jsonpath-plus's rewrite of a filter's `@` names (its `_eval`), and for each character of it the index it came from. */
function rewrite(code: string): { script: string; from: number[] } {
  const withPath = code.includes('@path');
  let script = '';
  const from: number[] = [];
  for (let i = 0; i < code.length; i++) {
    let replacement = code[i]!;
    if (replacement === '@') {
      const rest = code.slice(i + 1, i + 16);
      if (/^(parentProperty|parent|property|root)/.test(rest) || (withPath && rest.startsWith('path'))) replacement = '_$_';
      else if (/^[.\s)[]/.test(rest)) replacement = '_$_v';
    }
    script += replacement;
    for (let k = 0; k < replacement.length; k++) from.push(i);
  }
  from.push(code.length);
  return { script, from };
}

function positionInExpression(expression: string, what: string, scriptAt: number): number | undefined {
  const parser = filterParser();
  for (const { code, start } of scriptsOf(expression)) {
    const { script, from } = rewrite(code);
    try {
      new parser(script);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith(what)) return start + from[Math.min(scriptAt, from.length - 1)]!;
    }
  }
  return undefined;
}

/** Where a `[?(` starts that no `)]` closes after it. */
function unclosedFilter(expression: string): number | undefined {
  for (let at = expression.indexOf('[?('); at >= 0; at = expression.indexOf('[?(', at + 3)) {
    if (!expression.includes(')]', at + 3)) return at;
  }
  return undefined;
}
