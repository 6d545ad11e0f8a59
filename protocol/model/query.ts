/**
 * The response pane's Query tab (SPEC "Request sending rules" 3): XPath 3.1 or JSONPath over a
 * JSON body, XPath 3.1 over an XML or SOAP body, or either over an event stream's kept events as
 * one JSON document (docs/events.md).
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { StreamRow } from './stream.js';

export const QueryLanguage = T.Union([T.Literal('xpath'), T.Literal('jsonpath')]);
export type QueryLanguage = Static<typeof QueryLanguage>;

export const QueryJob = T.Object({
  language: QueryLanguage,
  expression: T.String({ maxLength: 100_000 }),
  /** A JSON or XML body as received (UTF-8; `syntax` absent: JSON), or the rows an event stream kept. */
  source: T.Union([
    T.Object({ kind: T.Literal('body'), bytes: T.Uint8Array(), syntax: T.Optional(T.Union([T.Literal('json'), T.Literal('xml')])) }),
    T.Object({ kind: T.Literal('events'), rows: T.Array(StreamRow) }),
  ]),
});
export type QueryJob = Static<typeof QueryJob>;

/** One item of XPath over XML: a node as XML (an element with its namespace declarations, an attribute as `name="value"`, a text node's text), or an atomic value as text. */
export const QueryItem = T.Object({ kind: T.Union([T.Literal('node'), T.Literal('value')]), text: T.String() });
export type QueryItem = Static<typeof QueryItem>;

const counts = {
  /** How many items the expression returned. */
  count: T.Integer({ minimum: 0 }),
  /** How many of them are shown (fewer when the whole would be too long to show). */
  shown: T.Integer({ minimum: 0 }),
};

export const QueryResult = T.Union([
  /** Over JSON: the items shown, as a pretty-printed JSON array. */
  T.Object({ format: T.Literal('json'), ...counts, json: T.String() }),
  /** XPath over XML: each item shown as XML or as its value. */
  T.Object({ format: T.Literal('xml'), ...counts, items: T.Array(QueryItem) }),
]);
export type QueryResult = Static<typeof QueryResult>;
