import { Type as T, type Static } from '@sinclair/typebox';
import { Header, SendResult } from './exchange.js';
import { Verdict } from './verdict.js';

/** What was sent, as recorded: secret values replaced by their `${secret:name}` references. */
export const SentRequest = T.Object({
  method: T.String(),
  url: T.String(),
  headers: T.Array(Header),
  /** A text preview of the body (at most 256 KiB), or a note for files and binary bodies. */
  body: T.String(),
});
export type SentRequest = Static<typeof SentRequest>;

/** One send: what went out, what came back, and the contract verdict of that response. */
export const Exchange = T.Object({
  id: T.String(),
  at: T.String(),
  request: SentRequest,
  response: SendResult,
  verdict: T.Optional(Verdict),
  /** True when secret values were masked out of `request`. */
  redacted: T.Boolean(),
});
export type Exchange = Static<typeof Exchange>;

export const HistoryEntry = T.Object({
  id: T.String(),
  at: T.String(),
  requestId: T.String(),
  request: SentRequest,
  response: T.Optional(
    T.Object({
      status: T.Integer(),
      statusText: T.String(),
      headers: T.Array(Header),
      /** The start of the body as text (at most 256 KiB). */
      body: T.String(),
      size: T.Integer(),
      timeMs: T.Number(),
    }),
  ),
  error: T.Optional(T.Object({ code: T.String(), message: T.String() })),
  verdict: T.Optional(Verdict),
  redacted: T.Boolean(),
});
export type HistoryEntry = Static<typeof HistoryEntry>;
