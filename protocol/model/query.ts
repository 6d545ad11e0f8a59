/**
 * The response pane's Query tab (SPEC "Request sending rules" 3): XPath 3.1 or JSONPath over a
 * JSON body, or over an event stream's kept events as one JSON document (docs/events.md).
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { StreamRow } from './stream.js';

export const QueryLanguage = T.Union([T.Literal('xpath'), T.Literal('jsonpath')]);
export type QueryLanguage = Static<typeof QueryLanguage>;

export const QueryJob = T.Object({
  language: QueryLanguage,
  expression: T.String({ maxLength: 100_000 }),
  /** A JSON body as received (UTF-8), or the rows an event stream kept. */
  source: T.Union([T.Object({ kind: T.Literal('body'), bytes: T.Uint8Array() }), T.Object({ kind: T.Literal('events'), rows: T.Array(StreamRow) })]),
});
export type QueryJob = Static<typeof QueryJob>;

export const QueryResult = T.Object({
  /** How many items the expression returned. */
  count: T.Integer({ minimum: 0 }),
  /** How many of them `json` holds (fewer when the whole would be too long to show). */
  shown: T.Integer({ minimum: 0 }),
  /** The items shown, as a pretty-printed JSON array. */
  json: T.String(),
});
export type QueryResult = Static<typeof QueryResult>;
