/**
 * Request assertions evaluated against a response (docs/assertions.md): the status, the response
 * time, or a JSONPath into a JSON body (the body-query engine), compared with equals / not
 * equals / less / greater / exists / matches (the linear regex engine). Pure: the supervisor
 * runs assertions that read no body itself, the checker's query worker the rest (a JSONPath
 * filter or a pattern V8 must backtrack on may take long; the worker has a budget).
 */
import { assertionLabel, type Assertion, type AssertionResult } from '../../../protocol/model/assertion.js';
import { isCredentialName } from '../../../protocol/credentials/index.js';
import { evaluateJsonPath } from './body-query.js';
import { compileEcmaPattern } from './regex.js';

export interface AssertedResponse {
  status: number;
  /** Milliseconds from the start of the send to the last byte. */
  timeMs: number;
  /** The decoded body (or its start, when `bodyComplete` is false). */
  body: Uint8Array;
  bodyComplete: boolean;
}

export interface AssertOptions {
  /**
   * Patterns V8 must backtrack on may run (only on a thread that is stopped past its budget).
   * Without it such a pattern fails the assertion, saying so.
   */
  backtracking?: boolean;
}

/** An assertion reads the body, or may need the backtracking engine: run it where a runaway is stopped. */
export function needsWorker(assertions: readonly Assertion[]): boolean {
  return assertions.some((a) => a.enabled && (a.source === 'body' || a.source === 'graphqlErrors' || a.op === 'matches'));
}

/** Shown values are cut to this many characters. */
const SHOWN = 120;

export function evaluateAssertions(assertions: readonly Assertion[], response: AssertedResponse, options: AssertOptions = {}): AssertionResult[] {
  let json: { value: unknown } | { error: string } | undefined;
  const body = () =>
    (json ??= (() => {
      if (!response.bodyComplete) return { error: 'the body is too large to read whole' };
      try {
        return { value: JSON.parse(new TextDecoder().decode(response.body)) as unknown };
      } catch {
        return { error: 'the body is not JSON' };
      }
    })());
  const results: AssertionResult[] = [];
  assertions.forEach((assertion, index) => {
    if (!assertion.enabled) return;
    const label = assertionLabel(assertion);
    let message: string;
    try {
      message = failureOf(assertion, response, body, options);
    } catch (err) {
      message = (err as Error).message;
    }
    results.push({ index, label, passed: message === '', message });
  });
  return results;
}

/** Why the assertion does not hold, or '' when it does. */
function failureOf(a: Assertion, response: AssertedResponse, body: () => { value: unknown } | { error: string }, options: AssertOptions, given?: unknown): string {
  let actual: unknown;
  if (given !== undefined) actual = given;
  else if (a.source === 'status') actual = response.status;
  else if (a.source === 'time') actual = Math.round(response.timeMs);
  else if (a.source === 'graphqlErrors') return graphqlErrorsFailure(body());
  else {
    const document = body();
    if ('error' in document) return `${document.error}, so ${a.path || 'the path'} cannot be read`;
    let found: unknown[];
    try {
      found = evaluateJsonPath(a.path, document.value);
    } catch (err) {
      return `the JSONPath ${a.path} is not valid: ${(err as Error).message.replace(/^jsonPath: /, '').slice(0, 300)}`;
    }
    if (a.op === 'exists') return found.length > 0 ? '' : `nothing found at ${a.path}`;
    if (found.length === 0) return `nothing found at ${a.path}`;
    // One match is its value; several are compared as the array of them.
    actual = found.length === 1 ? found[0] : found;
    if (readsCredential(a.path)) return hidden(failureOf({ ...a, source: 'time' }, { ...response, timeMs: 0 }, body, options, actual));
  }
  switch (a.op) {
    case 'exists':
      return '';
    case 'empty':
      return actual === null || actual === '' || (Array.isArray(actual) && actual.length === 0) ? '' : `got ${shown(actual)}`;
    case 'equals':
      return sameValue(actual, expectedOf(a.value)) ? '' : `got ${shown(actual)}`;
    case 'notEquals':
      return sameValue(actual, expectedOf(a.value)) ? `got ${shown(actual)}, which it must not be` : '';
    case 'less':
    case 'greater': {
      const limit = Number(a.value.trim());
      if (a.value.trim() === '' || !Number.isFinite(limit)) return `${shown(a.value)} is not a number to compare with`;
      if (typeof actual !== 'number') return `got ${shown(actual)}, not a number`;
      const holds = a.op === 'less' ? actual < limit : actual > limit;
      return holds ? '' : `got ${shown(actual)}`;
    }
    case 'matches': {
      const compiled = compileEcmaPattern(a.value);
      if (!compiled.ok) return `the regular expression is not valid: ${compiled.message}`;
      const text = typeof actual === 'string' ? actual : JSON.stringify(actual) ?? String(actual);
      const linear = compiled.pattern.testLinear(text);
      const holds = linear ?? (options.backtracking ? compiled.pattern.test(text) : undefined);
      if (holds === undefined) return `the regular expression needs backtracking (${compiled.pattern.backtrackingReason ?? 'lookaround or a backreference'}), which only runs in the checker`;
      return holds ? '' : `got ${shown(actual)}`;
    }
  }
}

/** A GraphQL answer's `errors` must be absent or empty; else how many, and the first's message. */
function graphqlErrorsFailure(document: { value: unknown } | { error: string }): string {
  if ('error' in document) return `${document.error}, so its GraphQL errors cannot be read`;
  const errors = typeof document.value === 'object' && document.value !== null ? (document.value as { errors?: unknown }).errors : undefined;
  if (errors === undefined || (Array.isArray(errors) && errors.length === 0)) return '';
  if (!Array.isArray(errors)) return `its errors are ${shown(errors)}, not a list`;
  const first = errors[0] as { message?: unknown } | null;
  const message = typeof first === 'object' && first !== null && typeof first.message === 'string' ? first.message : first;
  return `${errors.length} GraphQL ${errors.length === 1 ? 'error' : 'errors'}, the first: ${shown(message)}`;
}

/** A path through a credential-named key (`$.access_token`, `$.auth.password`): its value is never quoted. */
export function readsCredential(path: string): boolean {
  return path.split(/[^A-Za-z0-9_-]+/).some((segment) => segment !== '' && isCredentialName(segment));
}

function hidden(message: string): string {
  return message.replace(/^got .*?(, which it must not be|, not a number)?$/s, (_all, tail: string | undefined) => `got a value that is not shown (a credential)${tail ?? ''}`);
}

/** The expected value as written: JSON when it parses, else the text itself. */
function expectedOf(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return text;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}

/**
 * Equal as JSON values, except that a bare number also equals the same number sent as text
 * (`12.5` holds for `"12.5"`); a quoted `"7"` is text and never equals the number 7.
 */
function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string' && typeof expected === 'number') return actual.trim() !== '' && Number(actual) === expected;
  return deepEqual(actual, expected);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}
