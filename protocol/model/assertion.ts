/**
 * Request assertions (issue 17): what a response must satisfy, checked after every send in the
 * app and by `parley run`. A source (the status, the response time in ms, or a JSONPath into a
 * JSON body) is compared by one operator with an expected value written as text.
 */
import { Type as T, type Static } from '@sinclair/typebox';

/** `graphqlErrors`: a GraphQL answer's `errors` (docs/graphql.md), asserted empty. */
export const AssertionSource = T.Union([T.Literal('status'), T.Literal('time'), T.Literal('body'), T.Literal('graphqlErrors')]);
export type AssertionSource = Static<typeof AssertionSource>;

export const AssertionOp = T.Union([
  T.Literal('equals'),
  T.Literal('notEquals'),
  T.Literal('less'),
  T.Literal('greater'),
  T.Literal('exists'),
  T.Literal('matches'),
  T.Literal('empty'),
]);
export type AssertionOp = Static<typeof AssertionOp>;

export const Assertion = T.Object({
  enabled: T.Boolean(),
  source: AssertionSource,
  /** The JSONPath expression for a body assertion (`$.items[0].id`); empty for status and time. */
  path: T.String({ maxLength: 10_000 }),
  op: AssertionOp,
  /**
   * The expected value as typed: read as JSON when it parses (`42`, `true`, `"x"`, `null`,
   * `[1,2]`), else as text; a regular expression for `matches`; unused for `exists`.
   */
  value: T.String({ maxLength: 100_000 }),
});
export type Assertion = Static<typeof Assertion>;

/** The outcome of one assertion after a send. */
export const AssertionResult = T.Object({
  /** Its index among the request's assertions. */
  index: T.Integer({ minimum: 0 }),
  /** "status equals 200", "$.id exists": the assertion as read. */
  label: T.String(),
  passed: T.Boolean(),
  /** Why it failed (what was found), or empty when it passed. Body values are cut short. */
  message: T.String(),
});
export type AssertionResult = Static<typeof AssertionResult>;

/** Which operators each source offers (the editor's choices; the evaluator refuses the rest). */
export const OPS_BY_SOURCE: Readonly<Record<AssertionSource, readonly AssertionOp[]>> = {
  status: ['equals', 'notEquals', 'less', 'greater', 'matches'],
  time: ['less', 'greater'],
  body: ['equals', 'notEquals', 'less', 'greater', 'exists', 'matches'],
  graphqlErrors: ['empty'],
};

export const OP_LABELS: Readonly<Record<AssertionOp, string>> = {
  equals: 'equals',
  notEquals: 'not equals',
  less: 'less than',
  greater: 'greater than',
  exists: 'exists',
  matches: 'matches',
  empty: 'empty',
};

export function assertionLabel(a: Pick<Assertion, 'source' | 'path' | 'op' | 'value'>): string {
  const subject = a.source === 'status' ? 'status' : a.source === 'time' ? 'response time (ms)' : a.source === 'graphqlErrors' ? 'GraphQL errors' : a.path || '(no path)';
  return a.op === 'exists' || a.op === 'empty' ? `${subject} ${a.op}` : `${subject} ${OP_LABELS[a.op]} ${a.value}`;
}

/** Assertions that read the body (or may need the backtracking regex engine), for the checker's query thread. */
export const AssertJob = T.Object({
  assertions: T.Array(Assertion, { maxItems: 200 }),
  status: T.Integer(),
  timeMs: T.Number(),
  /** The decoded body as received (its start when `bodyComplete` is false). */
  body: T.Uint8Array(),
  bodyComplete: T.Boolean(),
});
export type AssertJob = Static<typeof AssertJob>;
