/**
 * One contract check, start to end: is there a body worth checking, which operation, which
 * response, which media type, then parse and validate within the limits. Pure: the caller
 * passes the prepared definition and the clock.
 */
import type { OperationLink } from '../../../protocol/model/request.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import type { PreparedDefinition } from './definition.js';
import { evaluate, Evaluation, StopEvaluation, type Direction } from './evaluation.js';
import { escapeSegment, isObject } from '../../../protocol/json-pointer.js';
import type { Loc } from './keywords/site.js';
import { listOperations, matchOperation, type OperationEntry } from './select-operation.js';
import { essence, isEventStream, isJsonMediaType, selectMediaType, selectResponseKey } from './select-response.js';
import { CHECK_LIMITS, makeVerdict, reasoned } from './verdicts.js';

export interface ExchangeInput {
  method: string;
  url: string;
  operation?: OperationLink;
  status: number;
  contentType?: string;
  body: Uint8Array;
  /** Whole decoded size when `body` holds less (a spooled body). */
  size?: number;
}

export interface CheckOptions {
  /** Time by `now` after which validation stops by itself, keeping what it found. */
  deadline?: number;
  now?: () => number;
  maxSteps?: number;
  maxDepth?: number;
  maxProblems?: number;
  /**
   * Let patterns the linear engine cannot run (lookaround, backreferences) use V8's backtracking
   * engine. Only where a runaway test is stopped by killing the thread (the checker's and the mock
   * host's workers); elsewhere such a pattern makes the check `not-checked` (`schema-error`).
   */
  backtracking?: boolean;
  /**
   * The check runs on a thread nothing could stop (the mock's listener): at work it cannot bound
   * there, or past the deadline, validateValue throws NeedsWorker for the caller to run it again in
   * a worker (see evaluation.ts).
   */
  inline?: boolean;
}

/**
 * The verdict for bodies that get no chip whatever the definition says (event streams, non-JSON
 * content types, empty bodies without a type), or undefined when the body may be JSON.
 */
export function screenBody(method: string, contentType: string | undefined, body: Uint8Array, size?: number): Verdict | undefined {
  if (method.toUpperCase() === 'HEAD') return reasoned('none', 'no-body');
  if (contentType !== undefined && contentType.trim() !== '') {
    if (isEventStream(contentType)) return reasoned('none', 'event-stream');
    if (!isJsonMediaType(contentType)) return reasoned('none', 'not-json');
    return undefined;
  }
  if ((size ?? body.length) === 0) return reasoned('none', 'no-body');
  // No Content-Type: only something that starts like JSON is worth parsing.
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xef || c === 0xbb || c === 0xbf) continue;
    const looksJson = c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
    return looksJson ? undefined : reasoned('none', 'not-json');
  }
  // Only whitespace here; if more of the body exists elsewhere (over the limit, not sent), it may still be JSON.
  return (size ?? body.length) > body.length ? undefined : reasoned('none', 'not-json');
}

const operationCache = new WeakMap<PreparedDefinition, OperationEntry[]>();

/** The definition's operations, listed once per prepared definition. */
export function operationsOf(def: PreparedDefinition): OperationEntry[] {
  let ops = operationCache.get(def);
  if (!ops) operationCache.set(def, (ops = listOperations(def)));
  return ops;
}

const child = (loc: Loc, ...segments: string[]): Loc => ({
  docUri: loc.docUri,
  pointer: loc.pointer + segments.map((s) => '/' + escapeSegment(s)).join(''),
});

export function checkExchange(def: PreparedDefinition, input: ExchangeInput, options: CheckOptions = {}): Verdict {
  const screened = screenBody(input.method, input.contentType, input.body, input.size);
  if (screened) return screened;

  const op = matchOperation(operationsOf(def), input.method, input.url, input.operation);
  if (!op) return reasoned('none', 'no-operation');
  const operation = { method: op.method, path: op.path };
  const notes = [...def.notes];

  const responses = def.follow(child(op.loc, 'responses'));
  const responsesValue = typeof responses === 'string' ? undefined : responses.value;
  const responseKey = isObject(responsesValue) ? selectResponseKey(Object.keys(responsesValue), input.status) : undefined;
  if (typeof responses === 'string' || responseKey === undefined) {
    return makeVerdict('unexpected-status', { operation, notes });
  }
  const response = def.follow(child(responses.loc, responseKey));
  if (typeof response === 'string') {
    return reasoned('not-checked', 'schema-error', { operation, responseKey, notes: [...notes, response] });
  }

  const schema = findSchema(def, response.loc, response.value, input.contentType);
  if (schema.note) notes.push(schema.note);
  if (!schema.loc) return makeVerdict('no-schema', { operation, responseKey, mediaType: schema.mediaType, notes });
  const found = { operation, responseKey, mediaType: schema.mediaType };

  const size = input.size ?? input.body.length;
  if (size > CHECK_LIMITS.maxBodyBytes) return reasoned('skipped', 'too-large', { ...found, notes });
  if (input.body.length < size) {
    return reasoned('not-checked', 'checker-failure', { ...found, notes }, 'checker failure: the body arrived incomplete');
  }

  const declaredJson = input.contentType !== undefined && input.contentType.trim() !== '';
  const parsed = parseJson(input.body);
  if (!parsed.ok) {
    if (!declaredJson) return reasoned('none', 'not-json');
    return makeVerdict('problems', { ...found, notes, problems: [{ pointer: '', keyword: 'json', message: parsed.message }] });
  }

  const result = validateValue(def, schema.loc, parsed.value, 'response', options);
  return { ...result.verdict, ...found, notes: [...notes, ...result.verdict.notes].slice(0, CHECK_LIMITS.maxNotes) };
}

/** The schema location for a response and content type, or why there is none. */
function findSchema(
  def: PreparedDefinition,
  responseLoc: Loc,
  response: unknown,
  contentType: string | undefined,
): { loc?: Loc; mediaType?: string; note?: string } {
  if (!isObject(response)) return {};
  const wanted = contentType ? essence(contentType) : 'application/json';
  if (def.dialect === 'swagger2') {
    // Swagger 2.0 has one schema per response, for whatever the operation produces.
    return response.schema === undefined ? { mediaType: wanted } : { loc: child(responseLoc, 'schema'), mediaType: wanted };
  }
  const content = response.content;
  if (!isObject(content) || Object.keys(content).length === 0) return {};
  const key = selectMediaType(Object.keys(content), contentType);
  if (key === undefined) {
    return { note: `the response declares no content for ${wanted} (it declares ${Object.keys(content).slice(0, 6).join(', ')})` };
  }
  const media = def.follow(child(responseLoc, 'content', key));
  if (typeof media === 'string') return { mediaType: key, note: media };
  if (!isObject(media.value) || media.value.schema === undefined) return { mediaType: key };
  return { loc: child(media.loc, 'schema'), mediaType: key };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Parses a body; the failure message never repeats the body (V8's own messages quote it). */
export function parseJson(body: Uint8Array): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { ok: false, message: 'expected valid JSON; the body is not UTF-8 text' };
  }
  if (text.trim() === '') return { ok: false, message: 'expected valid JSON; the body is empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const at = /position (\d+)/.exec(err instanceof Error ? err.message : '');
    return { ok: false, message: at ? `expected valid JSON; the body does not parse (at character ${at[1]})` : 'expected valid JSON; the body does not parse' };
  }
}

export interface ValidationResult {
  verdict: Verdict;
}

/**
 * Validates a parsed value against the schema at `loc`: the verdict is pass, problems, or
 * not-checked (stopped by a limit, or the schema could not be evaluated) with what was found.
 * The mock host can call this for request bodies with direction `request`.
 */
export function validateValue(
  def: PreparedDefinition,
  loc: Loc,
  value: unknown,
  direction: Direction,
  options: CheckOptions = {},
): ValidationResult {
  const ev = new Evaluation(
    direction,
    {
      maxSteps: options.maxSteps ?? CHECK_LIMITS.maxSteps,
      maxDepth: options.maxDepth ?? CHECK_LIMITS.maxDepth,
      maxProblems: options.maxProblems ?? CHECK_LIMITS.maxProblems,
      deadline: options.deadline ?? Number.POSITIVE_INFINITY,
      now: options.now ?? Date.now,
      backtracking: options.backtracking ?? false,
      inline: options.inline ?? false,
    },
    (resource, anchor) => def.dynamicTarget(resource, anchor),
  );
  let stop: StopEvaluation | undefined;
  let ok = false;
  try {
    ok = evaluate(def.nodeAt(loc), value, ev);
  } catch (err) {
    // A schema nested deeper than the call stack (thousands of levels) ends like a deep body.
    if (err instanceof RangeError) stop = new StopEvaluation('too-deep');
    else if (!(err instanceof StopEvaluation)) throw err;
    else stop = err;
  }
  const notes = [...ev.schemaErrors, ...ev.notes].slice(0, CHECK_LIMITS.maxNotes);
  const base = { problems: ev.problems, moreProblems: ev.moreProblems, notes, steps: ev.steps };
  if (stop && stop.reason !== 'enough-problems') {
    return { verdict: reasoned('not-checked', stop.reason, { ...base, partial: true }) };
  }
  if (ev.schemaErrors.size > 0) return { verdict: reasoned('not-checked', 'schema-error', { ...base, partial: true }) };
  if (ev.problems.length > 0 || !ok) {
    // A failure always leaves a problem; the fallback guards the never-fail-open rule.
    if (ev.problems.length === 0) base.problems = [{ pointer: '', keyword: 'schema', message: 'expected to match the schema' }];
    return { verdict: makeVerdict('problems', base) };
  }
  return { verdict: makeVerdict('pass', base) };
}
