/**
 * Captures (issue 28, docs/captures.md): after a response, a variable set from it, for the
 * requests after it to read as `${name}`, without a script (Bruno's post-response vars, Hurl's
 * captures). A value is read from the body by JSONPath or XPath, from a header, the status or a
 * cookie, and goes to the session (the app's, or the run's; held in memory) or, when the user
 * chose so for this capture, into the active environment.
 */
import { Type as T, type Static } from '@sinclair/typebox';

export const CaptureSource = T.Union([T.Literal('jsonpath'), T.Literal('xpath'), T.Literal('header'), T.Literal('status'), T.Literal('cookie')]);
export type CaptureSource = Static<typeof CaptureSource>;

/** `session`: in memory for the app's session or the run; `environment`: written into the active environment. */
export const CaptureScope = T.Union([T.Literal('session'), T.Literal('environment')]);
export type CaptureScope = Static<typeof CaptureScope>;

export const Capture = T.Object({
  enabled: T.Boolean(),
  /** The variable set: the requests after read it as `${name}`. */
  name: T.String({ maxLength: 200 }),
  source: CaptureSource,
  /** A JSONPath or XPath expression, a header's name or a cookie's name; empty for the status. `${...}` expands. */
  expression: T.String({ maxLength: 10_000 }),
  scope: CaptureScope,
});
export type Capture = Static<typeof Capture>;

/** What one capture did after a send. */
export const CaptureResult = T.Object({
  /** Its index among the request's captures. */
  index: T.Integer({ minimum: 0 }),
  name: T.String(),
  /** "$.token (JSON body)", "header Location": where the value was read. */
  label: T.String(),
  scope: CaptureScope,
  /** The variable was set. */
  ok: T.Boolean(),
  /** The value set, cut short when long; the mask when it is a credential; absent when nothing was set. */
  value: T.Optional(T.String()),
  /** The value is a credential (by its name or where it was read): never shown, written or reported. */
  credential: T.Optional(T.Boolean()),
  /** Why nothing was set, or where the value went when not where asked (no active environment, no secure storage). */
  message: T.String(),
});
export type CaptureResult = Static<typeof CaptureResult>;

/** A variable captured this session, as the page is told of it (the editor's `${name}` scope). */
export const CapturedVariable = T.Object({
  name: T.String(),
  /** Its value cut at 500 characters; the mask for a credential. */
  value: T.String(),
  credential: T.Optional(T.Boolean()),
  /** The request whose capture set it (its name), for the page's Session values. */
  from: T.Optional(T.String()),
});
export type CapturedVariable = Static<typeof CapturedVariable>;

/** An open project's captured variables. */
export const ProjectCaptures = T.Object({ project: T.String(), variables: T.Array(CapturedVariable) });
export type ProjectCaptures = Static<typeof ProjectCaptures>;

/** Captures that read the body, for the checker's query thread (a JSONPath filter or an XPath may run long). */
export const CaptureJob = T.Object({
  captures: T.Array(T.Object({ source: T.Union([T.Literal('jsonpath'), T.Literal('xpath')]), expression: T.String({ maxLength: 10_000 }) }), { maxItems: 200 }),
  /** The decoded body as received (its start when `bodyComplete` is false). */
  body: T.Uint8Array(),
  bodyComplete: T.Boolean(),
});
export type CaptureJob = Static<typeof CaptureJob>;

/** One body capture's value as text, or why there is none. */
export const CapturedValue = T.Union([T.Object({ value: T.String() }), T.Object({ error: T.String() })]);
export type CapturedValue = Static<typeof CapturedValue>;

export const CAPTURE_SOURCES: readonly (readonly [CaptureSource, string])[] = [
  ['jsonpath', 'Body JSONPath'],
  ['xpath', 'Body XPath'],
  ['header', 'Header'],
  ['status', 'Status'],
  ['cookie', 'Cookie'],
];

/** Where a capture reads its value, in words: `$.token (JSON body)`, `header Location`, `status`, `cookie sid`. */
export function captureLabel(c: Pick<Capture, 'source' | 'expression'>): string {
  switch (c.source) {
    case 'jsonpath':
      return `${c.expression || '(no path)'} (JSON body)`;
    case 'xpath':
      return `${c.expression || '(no path)'} (XPath over the body)`;
    case 'header':
      return `header ${c.expression || '(no name)'}`;
    case 'cookie':
      return `cookie ${c.expression || '(no name)'}`;
    case 'status':
      return 'status';
  }
}

/** A new capture as the editor adds it: from the JSON body, for the session. */
export function blankCapture(): Capture {
  return { enabled: true, name: '', source: 'jsonpath', expression: '$.', scope: 'session' };
}
