/**
 * Server-sent event streams (SPEC "Events"): the rows a stream is shown as, how a finished
 * stream is kept, and what travels while it runs. docs/events.md has the rules.
 */
import { Type as T, type Static } from '@sinclair/typebox';

/**
 * An event stream's rows are events, comment lines and `retry:` fields; a WebSocket session's
 * (docs/websocket.md) are messages sent and received, pings and pongs, and the close.
 */
export const StreamRowKind = T.Union([
  T.Literal('event'),
  T.Literal('comment'),
  T.Literal('retry'),
  T.Literal('sent'),
  T.Literal('received'),
  T.Literal('ping'),
  T.Literal('pong'),
  T.Literal('close'),
]);
export type StreamRowKind = Static<typeof StreamRowKind>;

/** Rows that are messages, counted as a stream's events: an event stream's events, a session's messages either way. */
export function isMessageRow(kind: StreamRowKind): boolean {
  return kind === 'event' || kind === 'sent' || kind === 'received';
}

/** Rows the Events view hides on its toggle: comment lines and retry fields, pings and pongs. */
export function isAsideRow(kind: StreamRowKind): boolean {
  return kind === 'comment' || kind === 'retry' || kind === 'ping' || kind === 'pong';
}

/**
 * One thing the stream said: an event, a comment line or a `retry:` field; a message sent or
 * received (`name` is `binary` for a binary one, its data then base64), a ping or a pong (its
 * payload as text), or the close (`name` says who closed: `server` or `client`; data its code and reason).
 */
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

/**
 * Rows as the sender hands them to the supervisor: one message of columns rather than an object
 * per row (a stream's rows are the bus's busiest traffic: per-row objects cost both processes
 * their encoding, decoding and garbage). `rows(batch)` gives the rows back; `packRows` makes one.
 * `total` and `events` are the true counts so far, rows not sent included.
 */
export const RowBatch = T.Object({
  total: T.Integer({ minimum: 0 }),
  events: T.Integer({ minimum: 0 }),
  /** The rows' numbers as runs: first number, count, first number, count, ... */
  runs: T.Array(T.Integer({ minimum: 0 })),
  /** Arrival times: the first row's (ms since the epoch), then each row's difference from the one before. */
  at: T.Array(T.Number()),
  /** One letter a row: `e` event, `c` comment, `r` retry field; `o` sent, `i` received, `p` ping, `q` pong, `x` close. */
  kinds: T.String(),
  /** Each row's name, null when it had none. */
  names: T.Array(T.Union([T.String(), T.Null()])),
  /** Each row's id, null when it had none. */
  ids: T.Array(T.Union([T.String(), T.Null()])),
  data: T.Array(T.String()),
});
export type RowBatch = Static<typeof RowBatch>;

const KIND_LETTER = { event: 'e', comment: 'c', retry: 'r', sent: 'o', received: 'i', ping: 'p', pong: 'q', close: 'x' } as const;
const LETTER_KIND = new Map<string, StreamRowKind>(Object.entries(KIND_LETTER).map(([kind, letter]) => [letter, kind as StreamRowKind]));

/** `rows` (in order of their numbers) as one batch with the true counts. */
export function packRows(rows: readonly StreamRow[], total: number, events: number): RowBatch {
  const runs: number[] = [];
  const at: number[] = [];
  const names: (string | null)[] = [];
  const ids: (string | null)[] = [];
  const data: string[] = [];
  let kinds = '';
  let previousN = -1;
  let previousAt = 0;
  for (const row of rows) {
    if (row.n === previousN + 1) runs[runs.length - 1]!++;
    else runs.push(row.n, 1);
    previousN = row.n;
    at.push(at.length === 0 ? row.at : row.at - previousAt);
    previousAt = row.at;
    kinds += KIND_LETTER[row.kind];
    names.push(row.name ?? null);
    ids.push(row.id ?? null);
    data.push(row.data);
  }
  return { total, events, runs, at, kinds, names, ids, data };
}

/** The rows of a batch; a batch whose columns disagree (a broken sender) is refused with a thrown Error. */
export function unpackRows(batch: RowBatch): StreamRow[] {
  const count = batch.data.length;
  if (batch.at.length !== count || batch.kinds.length !== count || batch.names.length !== count || batch.ids.length !== count || batch.runs.length % 2 !== 0) {
    throw new Error('A stream batch whose columns disagree was refused.');
  }
  const rows: StreamRow[] = new Array<StreamRow>(count);
  let i = 0;
  let at = 0;
  for (let r = 0; r < batch.runs.length; r += 2) {
    const first = batch.runs[r]!;
    const length = batch.runs[r + 1]!;
    if (first < 1) throw new Error('A stream batch with a row numbered 0 was refused.');
    if (i + length > count) throw new Error('A stream batch whose row numbers outrun its rows was refused.');
    for (let k = 0; k < length; k++, i++) {
      const kind = LETTER_KIND.get(batch.kinds[i]!);
      if (kind === undefined) throw new Error('A stream batch with an unknown row kind was refused.');
      at = i === 0 ? batch.at[0]! : at + batch.at[i]!;
      const row: StreamRow = { n: first + k, at, kind, data: batch.data[i]! };
      const name = batch.names[i];
      const id = batch.ids[i];
      if (name !== null && name !== undefined) row.name = name;
      if (id !== null && id !== undefined) row.id = id;
      rows[i] = row;
    }
  }
  if (i !== count) throw new Error('A stream batch with rows its numbers do not cover was refused.');
  return rows;
}

/** How many rows a batch carries. */
export function batchLength(batch: RowBatch): number {
  return batch.data.length;
}

/** The number of a batch's last row (0 for an empty batch). */
export function lastRowNumber(batch: RowBatch): number {
  const runs = batch.runs;
  return runs.length === 0 ? 0 : runs[runs.length - 2]! + runs[runs.length - 1]! - 1;
}

/**
 * The newest `max` rows of `batches` (in order) as one batch, with the last batch's counts, in
 * time proportional to the rows kept: what a holder behind its stream sends on without making
 * an object of every row.
 */
export function newestRows(batches: readonly RowBatch[], max: number): RowBatch {
  const last = batches[batches.length - 1];
  const out: RowBatch = { total: last?.total ?? 0, events: last?.events ?? 0, runs: [], at: [], kinds: '', names: [], ids: [], data: [] };
  let skip = batches.reduce((sum, b) => sum + b.data.length, 0) - max;
  let previousN = -1;
  let previousAt = 0;
  for (const batch of batches) {
    const length = batch.data.length;
    if (skip >= length) {
      skip -= length;
      continue;
    }
    const from = Math.max(0, skip);
    skip = 0;
    // Row numbers and arrival times up to `from` are only summed, never made into rows.
    let at = 0;
    let i = 0;
    for (let r = 0; r < batch.runs.length; r += 2) {
      const first = batch.runs[r]!;
      const count = batch.runs[r + 1]!;
      for (let k = 0; k < count; k++, i++) {
        at = i === 0 ? batch.at[0]! : at + batch.at[i]!;
        if (i < from) continue;
        const n = first + k;
        if (n === previousN + 1) out.runs[out.runs.length - 1]!++;
        else out.runs.push(n, 1);
        out.at.push(out.at.length === 0 ? at : at - previousAt);
        previousN = n;
        previousAt = at;
      }
    }
    out.kinds += from === 0 ? batch.kinds : batch.kinds.slice(from);
    for (let j = from; j < length; j++) {
      out.names.push(batch.names[j] ?? null);
      out.ids.push(batch.ids[j] ?? null);
      out.data.push(batch.data[j]!);
    }
  }
  return out;
}
