/**
 * Server-sent event streams (SPEC "Events"): the rows a stream is shown as, how a finished
 * stream is kept, and what travels while it runs. docs/events.md has the rules.
 */
import { Type as T, type Static } from '@sinclair/typebox';

export const StreamRowKind = T.Union([T.Literal('event'), T.Literal('comment'), T.Literal('retry')]);
export type StreamRowKind = Static<typeof StreamRowKind>;

/** One thing the stream said: an event, a comment line, or a `retry:` field. */
export const StreamRow = T.Object({
  /** Its place in the stream, from 1: every row counts, comments and retry fields included. */
  n: T.Integer({ minimum: 1 }),
  /** When it arrived (ms since the epoch). */
  at: T.Number(),
  kind: StreamRowKind,
  /** An event's name (its `event:` field); absent for the default, `message`. */
  name: T.Optional(T.String()),
  /** An event's id (its `id:` field), when it had one. */
  id: T.Optional(T.String()),
  /** An event's data (its `data:` lines joined by line breaks), a comment's text, a retry field's milliseconds. */
  data: T.String(),
});
export type StreamRow = Static<typeof StreamRow>;

/** Ended: the server finished the response. Stopped: Stop, or the connection dropped (with its error). */
export const StreamState = T.Union([T.Literal('ended'), T.Literal('stopped')]);
export type StreamState = Static<typeof StreamState>;

/** A finished stream as kept by its holder (the response, the HTTP Log, History: each by its own limits). */
export const StreamRecord = T.Object({
  state: StreamState,
  /** Why a stream stopped without Stop being pressed: the dropped connection's error. */
  error: T.Optional(T.Object({ code: T.String(), message: T.String() })),
  /** Every row received, those not kept included (the Events tab's count). */
  total: T.Integer({ minimum: 0 }),
  /** How many of them were events (the rest were comments and retry fields). */
  events: T.Integer({ minimum: 0 }),
  /** The rows kept, oldest first: the first ones, then the last ones (their `n` shows the gap). */
  rows: T.Array(StreamRow),
  /** Rows received and not kept. */
  notKept: T.Integer({ minimum: 0 }),
});
export type StreamRecord = Static<typeof StreamRecord>;

/** The retention sizes of SPEC "Limits". */
export const STREAM_LIMITS = {
  /** The live pane holds the newest rows. */
  liveRows: 5_000,
  /** A finished stream, the HTTP Log and HAR export. */
  finished: { first: 400, last: 4_600, bytes: 32 * 1024 * 1024 },
  /** History's entry of a stream. */
  history: { first: 400, last: 100, bytes: 1024 * 1024 },
} as const;
