/**
 * A request's assertions and captures as a Postman test script (docs/export.md, "Assertions and
 * captures"): each one Postman's sandbox can check as Parley does becomes a `pm.test` (an
 * assertion) or a `pm.variables.set` / `pm.environment.set` (a capture); one it cannot (an XPath,
 * a JSONPath that is more than a plain path) stays a comment that says so. The script's first
 * line carries them as Parley data, which Parley's Postman import reads back (and runs nothing).
 */
import type { Assertion } from '../../../../protocol/model/assertion.js';
import { assertionLabel } from '../../../../protocol/model/assertion.js';
import type { Capture } from '../../../../protocol/model/capture.js';
import { captureLabel } from '../../../../protocol/model/capture.js';

/** The first line of a script Parley wrote: `// parley-export: {"assertions":[...],"captures":[...]}`. */
export const PARLEY_SCRIPT_MARK = '// parley-export: ';

export function testScript(assertions: readonly Assertion[], captures: readonly Capture[]): string[] {
  if (assertions.length === 0 && captures.length === 0) return [];
  const lines = [`${PARLEY_SCRIPT_MARK}${JSON.stringify({ assertions, captures })}`, '// Written by Parley from the request\'s assertions and captures.'];
  const needsBody = assertions.some((a) => a.enabled && (a.source === 'body' || a.source === 'graphqlErrors')) || captures.some((c) => c.enabled && c.source === 'jsonpath');
  if (needsBody) lines.push('const parleyAt = (value, keys) => keys.reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), value);', 'let parleyBody; try { parleyBody = pm.response.json(); } catch (e) { parleyBody = undefined; }');
  for (const a of assertions) lines.push(...assertionLines(a));
  for (const c of captures) lines.push(...captureLines(c));
  return lines;
}

/** `$.a.b[0]['c d']` as its keys; null for anything else a JSONPath can say (filters, wildcards, `..`). */
export function plainPath(path: string): (string | number)[] | null {
  const keys: (string | number)[] = [];
  let rest = path.trim();
  if (!rest.startsWith('$')) return null;
  rest = rest.slice(1);
  while (rest !== '') {
    const m = /^\.([A-Za-z_$][\w$]*)/.exec(rest) ?? /^\[(\d+)\]/.exec(rest) ?? /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(rest);
    if (!m) return null;
    keys.push(m[0].startsWith('[') && /^\d+$/.test(m[1] ?? '') ? Number(m[1]) : (m[1] ?? m[2] ?? ''));
    rest = rest.slice(m[0].length);
  }
  return keys;
}

/** The expected value as Parley reads it: JSON when it parses, else the text. */
function expected(value: string): string {
  try {
    return JSON.stringify(JSON.parse(value));
  } catch {
    return JSON.stringify(value);
  }
}

function assertionLines(a: Assertion): string[] {
  const label = JSON.stringify(assertionLabel(a));
  if (!a.enabled) return [comment(`Switched off in Parley: ${assertionLabel(a)}`)];
  let subject: string;
  if (a.source === 'status') subject = 'pm.response.code';
  else if (a.source === 'time') subject = 'pm.response.responseTime';
  else if (a.source === 'graphqlErrors') return [`pm.test(${label}, () => pm.expect(parleyAt(parleyBody, ['errors']) || []).to.be.empty);`];
  else {
    const keys = plainPath(a.path);
    if (!keys) return [comment(`Not checked in Postman (${a.path} is more than a plain path): ${assertionLabel(a)}`)];
    subject = `parleyAt(parleyBody, ${JSON.stringify(keys)})`;
  }
  const value = expected(a.value);
  switch (a.op) {
    case 'equals':
      return [`pm.test(${label}, () => pm.expect(${subject}).to.eql(${value}));`];
    case 'notEquals':
      return [`pm.test(${label}, () => pm.expect(${subject}).to.not.eql(${value}));`];
    case 'less':
      return [`pm.test(${label}, () => pm.expect(Number(${subject})).to.be.below(Number(${value})));`];
    case 'greater':
      return [`pm.test(${label}, () => pm.expect(Number(${subject})).to.be.above(Number(${value})));`];
    case 'exists':
      return [`pm.test(${label}, () => pm.expect(${subject}).to.not.equal(undefined));`];
    case 'matches':
      return [`pm.test(${label}, () => pm.expect(String(${subject})).to.match(new RegExp(${JSON.stringify(a.value)})));`];
    case 'empty':
      return [`pm.test(${label}, () => pm.expect(${subject}).to.be.empty);`];
  }
}

function captureLines(c: Capture): string[] {
  if (!c.enabled) return [comment(`Switched off in Parley: ${c.name} from ${captureLabel(c)}`)];
  let value: string;
  switch (c.source) {
    case 'status':
      value = 'String(pm.response.code)';
      break;
    case 'header':
      value = `pm.response.headers.get(${JSON.stringify(c.expression)})`;
      break;
    case 'cookie':
      value = `pm.cookies.get(${JSON.stringify(c.expression)})`;
      break;
    case 'jsonpath': {
      const keys = plainPath(c.expression);
      if (!keys) return [comment(`Not captured in Postman (${c.expression} is more than a plain path): ${c.name}`)];
      value = `((v) => (typeof v === 'string' || v === undefined ? v : JSON.stringify(v)))(parleyAt(parleyBody, ${JSON.stringify(keys)}))`;
      break;
    }
    case 'xpath':
      return [comment(`Not captured in Postman (an XPath): ${c.name} from ${captureLabel(c)}`)];
  }
  // A session capture is the run's value over every other (docs/captures.md): Postman's local scope.
  const target = c.scope === 'environment' ? 'pm.environment' : 'pm.variables';
  return [`{ const v = ${value}; if (v !== undefined && v !== null) ${target}.set(${JSON.stringify(c.name)}, v); }`];
}

/** A line comment of user text: a line break in it would end the comment. */
function comment(text: string): string {
  return `// ${text.replace(/[\r\n\u2028\u2029]+/g, ' ')}`;
}
