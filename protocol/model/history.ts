import { AssertionResult } from './assertion.js';
import { CaptureResult } from './capture.js';
import { Type as T, type Static } from '@sinclair/typebox';
import { GrpcOutcome, Header, SendResult } from './exchange.js';
import { StreamRecord } from './stream.js';
import { Verdict, VerdictKind } from './verdict.js';

/** How a recorded request body was sent: text (as sent, maybe cut), one file, or multipart parts. */
export const SentBodyKind = T.Union([T.Literal('none'), T.Literal('text'), T.Literal('file'), T.Literal('multipart')]);
export type SentBodyKind = Static<typeof SentBodyKind>;

/**
 * What was sent, as recorded: secret values replaced by their `${secret:name}` references and
 * credential values (by SPEC's name rule) masked.
 */
export const SentRequest = T.Object({
  method: T.String(),
  url: T.String(),
  headers: T.Array(Header),
  /** A text preview of the body (at most 256 KiB), or a note for files; multipart parts as `name=value` lines. */
  body: T.String(),
  /** Absent in entries recorded before it was kept. */
  bodyKind: T.Optional(SentBodyKind),
  /** The body was longer than the preview kept. */
  bodyTruncated: T.Optional(T.Boolean()),
});
export type SentRequest = Static<typeof SentRequest>;

/** One send: what went out, what came back, and the contract verdict of that response. */
export const Exchange = T.Object({
  id: T.String(),
  at: T.String(),
  request: SentRequest,
  response: SendResult,
  verdict: T.Optional(Verdict),
  /** True when secret or credential values were masked out of what History recorded. */
  redacted: T.Boolean(),
  /** The request's enabled assertions, passed or failed (absent when it has none). */
  assertions: T.Optional(T.Array(AssertionResult)),
  /** What the request's enabled captures set, or why not (absent when it has none); credential values masked. */
  captures: T.Optional(T.Array(CaptureResult)),
});
export type Exchange = Static<typeof Exchange>;

export const RecordedResponse = T.Object({
  status: T.Integer(),
  statusText: T.String(),
  headers: T.Array(Header),
  /** The start of the body as text (at most 256 KiB), credential values masked. */
  body: T.String(),
  size: T.Integer(),
  timeMs: T.Number(),
  /** The URL of the final hop (after redirects); absent in entries recorded before it was kept. */
  url: T.Optional(T.String()),
  bodyTruncated: T.Optional(T.Boolean()),
  /** An event stream, kept as a multi-message exchange: its rows by the holder's limits (History: the first 400 and last 100 within 1 MB). */
  stream: T.Optional(StreamRecord),
  /** A gRPC call's status, details and trailers (trailers masked as headers are). */
  grpc: T.Optional(GrpcOutcome),
});
export type RecordedResponse = Static<typeof RecordedResponse>;

export const HistoryEntry = T.Object({
  id: T.String(),
  at: T.String(),
  requestId: T.String(),
  request: SentRequest,
  response: T.Optional(RecordedResponse),
  error: T.Optional(T.Object({ code: T.String(), message: T.String() })),
  verdict: T.Optional(Verdict),
  /** The mark for redacted values: something was masked before the entry was written. */
  redacted: T.Boolean(),
});
export type HistoryEntry = Static<typeof HistoryEntry>;

/** An entry as History lists it: no headers or bodies (those come with `history.get`). */
export const HistorySummary = T.Object({
  id: T.String(),
  at: T.String(),
  requestId: T.String(),
  method: T.String(),
  url: T.String(),
  status: T.Optional(T.Integer()),
  statusText: T.Optional(T.String()),
  timeMs: T.Optional(T.Number()),
  size: T.Optional(T.Integer()),
  error: T.Optional(T.Object({ code: T.String(), message: T.String() })),
  verdict: T.Optional(Verdict),
  redacted: T.Boolean(),
});
export type HistorySummary = Static<typeof HistorySummary>;

/** What History is searched by: all given parts must hold. */
export const HistoryQuery = T.Object({
  /** Only this request's entries. */
  requestId: T.Optional(T.String()),
  /** Words that must each occur (ignoring case) in the URL, the method, the status or the chip's text. */
  text: T.Optional(T.String({ maxLength: 2000 })),
  method: T.Optional(T.String({ maxLength: 32 })),
  /** `2xx`...`5xx`, an exact status such as `404`, or `error` (no response). */
  status: T.Optional(T.String({ maxLength: 8 })),
  /** A chip kind, or `none` for entries without a chip. */
  chip: T.Optional(T.Union([VerdictKind, T.Literal('none')])),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

/** Where a re-send came from: the entry (masked values filled from the request), or the request itself. */
export const ResendResult = T.Object({
  exchange: Exchange,
  from: T.Union([T.Literal('entry'), T.Literal('request')]),
  /** Why the request was sent instead of the entry (another host, a value that could not be filled). */
  reason: T.Optional(T.String()),
  /** What of the entry could not be sent as recorded (a body History kept only a preview of). */
  note: T.Optional(T.String()),
});
export type ResendResult = Static<typeof ResendResult>;
