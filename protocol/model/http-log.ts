/**
 * The HTTP Log: every exchange of the session (every send, from any project), redacted as
 * History records it, kept in the supervisor's memory until it quits (docs/events.md).
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { Header, HopTiming, Timing } from './exchange.js';
import { RecordedResponse, SentRequest } from './history.js';
import { Verdict } from './verdict.js';

export const HttpLogRow = T.Object({
  id: T.String(),
  /** When the send started (ISO). */
  at: T.String(),
  /** The project folder the request belongs to. */
  project: T.String(),
  requestId: T.String(),
  /** The request's name when it was sent. */
  requestName: T.String(),
  method: T.String(),
  /** Credentials masked, as History writes it. */
  url: T.String(),
  status: T.Optional(T.Integer()),
  statusText: T.Optional(T.String()),
  timeMs: T.Optional(T.Number()),
  size: T.Optional(T.Integer()),
  /** A send that got no response. */
  error: T.Optional(T.Object({ code: T.String(), message: T.String() })),
  /** An event stream: open while it runs, then how it finished and how many rows and events it had. */
  stream: T.Optional(
    T.Object({
      state: T.Union([T.Literal('open'), T.Literal('ended'), T.Literal('stopped')]),
      total: T.Integer({ minimum: 0 }),
      events: T.Integer({ minimum: 0 }),
    }),
  ),
  redacted: T.Boolean(),
});
export type HttpLogRow = Static<typeof HttpLogRow>;

/**
 * One hop of a send as it went on the wire, for HAR export, masked as History masks what it
 * records: the request's header lines as written (the jar's Cookie included) and the response's
 * status and headers.
 */
export const LoggedHop = T.Object({
  method: T.String(),
  url: T.String(),
  requestHeaders: T.Array(Header),
  /** Body bytes written on this hop (0: the hop carried no body, e.g. after a 303). */
  requestBodySize: T.Integer({ minimum: 0 }),
  status: T.Integer(),
  statusText: T.String(),
  headers: T.Array(Header),
  timing: HopTiming,
});
export type LoggedHop = Static<typeof LoggedHop>;

/** One exchange in full: the request as sent and the response as kept (a stream's first 400 and last 4,600 rows within 32 MB). */
export const HttpLogEntry = T.Object({
  row: HttpLogRow,
  request: SentRequest,
  response: T.Optional(RecordedResponse),
  httpVersion: T.Optional(T.String()),
  timing: T.Optional(Timing),
  /** Every hop on the wire, the final response's last (absent for a send that got no response). */
  hops: T.Optional(T.Array(LoggedHop)),
  verdict: T.Optional(Verdict),
});
export type HttpLogEntry = Static<typeof HttpLogEntry>;
