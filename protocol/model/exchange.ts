import { Type as T, type Static } from '@sinclair/typebox';
import { HttpVersion } from './request.js';
import { CookieOutcome } from './cookies.js';
import { RowBatch, StreamRecord } from './stream.js';
import { GraphqlOperation } from './graphql.js';

export const Header = T.Tuple([T.String(), T.String()]);
export type Header = Static<typeof Header>;

/**
 * A body the sender can put on the wire, already resolved: no `${...}` left in it. A file is named
 * by the project folder (`root`, absolute) and its path there (relative): the sender opens it only
 * inside `root`, once per send, and sends that open file on every hop (sender/engine/body-file.ts).
 */
export const OutgoingBody = T.Union([
  T.Object({ type: T.Literal('none') }),
  T.Object({ type: T.Literal('bytes'), data: T.Uint8Array() }),
  T.Object({ type: T.Literal('file'), root: T.String(), path: T.String() }),
  T.Object({
    type: T.Literal('multipart'),
    root: T.String(),
    parts: T.Array(
      T.Union([
        T.Object({ kind: T.Literal('text'), name: T.String(), value: T.String() }),
        T.Object({ kind: T.Literal('file'), name: T.String(), path: T.String(), contentType: T.String() }),
      ]),
    ),
  }),
]);
export type OutgoingBody = Static<typeof OutgoingBody>;

/**
 * What the sender needs of a gRPC call beyond the spec's URL, metadata and TLS: the method, its
 * definition named by the SHA-256 of its descriptor text (the sender keeps parsed definitions by
 * it and asks `grpc.descriptor` for the text only when it has none), the messages as JSON.
 */
export const GrpcCallSpec = T.Object({
  /** host:port */
  address: T.String({ maxLength: 1_000 }),
  tls: T.Boolean(),
  service: T.String({ maxLength: 1_000 }),
  method: T.String({ maxLength: 1_000 }),
  descriptor: T.String({ maxLength: 64 }),
  /** The messages to send, JSON text each (checked by the supervisor): one for a unary or server-streaming call. */
  messages: T.Array(T.String(), { maxItems: 1_000 }),
  /** Keep the request side open after `messages` for the composer (client and bidirectional streams in the app); false: half-close once sent. */
  open: T.Boolean(),
  /** Milliseconds until the call's deadline; 0: none. */
  deadlineMs: T.Integer({ minimum: 0 }),
  /** A client certificate and its key, PEM, or empty. */
  certPem: T.String(),
  keyPem: T.String(),
});
export type GrpcCallSpec = Static<typeof GrpcCallSpec>;

/** How a gRPC call ended: its status code and name, message, details (google.rpc.Status, as JSON text) and trailers. */
export const GrpcOutcome = T.Object({
  code: T.Integer({ minimum: 0 }),
  name: T.String(),
  message: T.String(),
  /** `grpc-status-details-bin` decoded: the google.rpc.Status's details as JSON text; absent when none came. */
  details: T.Optional(T.String()),
  trailers: T.Array(Header),
});
export type GrpcOutcome = Static<typeof GrpcOutcome>;

/** A fully resolved request: what the sender process sends, hop after hop. */
export const SendSpec = T.Object({
  method: T.String(),
  url: T.String(),
  headers: T.Array(Header),
  body: OutgoingBody,
  timeoutMs: T.Integer({ minimum: 0 }),
  httpVersion: HttpVersion,
  followRedirects: T.Boolean(),
  maxRedirects: T.Integer({ minimum: 0, maximum: 100 }),
  /** http://host:port or empty. */
  proxy: T.String(),
  /** Extra trusted CAs in PEM, or empty. */
  caPem: T.String(),
  /** Bodies over this many bytes are spooled to a file and only their start is kept in memory. */
  inlineLimit: T.Integer({ minimum: 0 }),
  /**
   * The workspace's cookie jar takes part: every hop's Set-Cookie headers go into it, and with
   * `send` each hop carries the jar's matching cookies. Absent: no jar at all.
   */
  cookies: T.Optional(T.Object({ send: T.Boolean() })),
  /** Skip TLS certificate verification (`parley run --insecure` only; the app never sets it). */
  insecure: T.Optional(T.Boolean()),
  /**
   * Kerberos auth: a 401 offering Negotiate from the request's own origin is asked again once
   * with a SPNEGO token for `spn` (empty: HTTP@<host of the hop>). Absent: no Kerberos.
   */
  negotiate: T.Optional(T.Object({ spn: T.String({ maxLength: 255 }) })),
  /**
   * A GraphQL subscription (docs/graphql.md): `url` is ws: or wss:, and the operation is
   * subscribed to over graphql-ws; each message the server sends for it is a row of the stream.
   * Absent: an HTTP send.
   */
  subscription: T.Optional(GraphqlOperation),
  /**
   * A WebSocket session (docs/websocket.md): `url` is ws: or wss:, the handshake asks for these
   * subprotocols, and the session's messages are the stream's rows. Absent: an HTTP send.
   */
  socket: T.Optional(T.Object({ protocols: T.Array(T.String({ maxLength: 200 }), { maxItems: 50 }) })),
  /**
   * A gRPC call (docs/grpc.md): `url` is `grpc(s)://host:port/<service>/<method>` (for the
   * records), `headers` its metadata, `caPem` and `insecure` its TLS. Absent: an HTTP send.
   */
  grpc: T.Optional(GrpcCallSpec),
});
export type SendSpec = Static<typeof SendSpec>;

/**
 * One hop's phases as HAR 1.2 names them, in milliseconds, for HAR export: -1 where a phase did
 * not happen on this hop or is not known (a reused connection's dns and connect, ssl over http).
 * `connect` includes `ssl`, as HAR says. `blocked` is the hop's wait before its request was
 * written, less the connection's set-up. `startedAt` is when the hop started, in ms after the send did.
 */
export const HopTiming = T.Object({
  startedAt: T.Number(),
  blocked: T.Number(),
  dns: T.Number(),
  connect: T.Number(),
  ssl: T.Number(),
  send: T.Number(),
  wait: T.Number(),
  receive: T.Number(),
});
export type HopTiming = Static<typeof HopTiming>;

/**
 * A hop's request as it went on the wire: its method, its header lines as written (Host, the
 * jar's Cookie and the body's framing header included; HTTP/2 pseudo-headers as `:name`) and how
 * many body bytes were written.
 */
export const SentHead = T.Object({
  method: T.String(),
  headers: T.Array(Header),
  bodySize: T.Integer({ minimum: 0 }),
});
export type SentHead = Static<typeof SentHead>;

export const Hop = T.Object({
  method: T.String(),
  url: T.String(),
  status: T.Integer(),
  statusText: T.String(),
  location: T.String(),
  headers: T.Array(Header),
  /** What the jar made of this hop's Set-Cookie headers, one per header in order (when the jar took part). */
  cookies: T.Optional(T.Array(CookieOutcome)),
  /** The request as it went out on this hop. */
  sent: SentHead,
  timing: HopTiming,
});
export type Hop = Static<typeof Hop>;

/**
 * Milliseconds of each phase of the final hop; a phase that did not happen (a reused
 * connection's DNS, connect and TLS) is 0. Through a proxy, `dns` is the proxy's, `connect`
 * covers TCP to the proxy and its CONNECT tunnel, `tls` the handshake inside the tunnel.
 * `total` runs from the start of the send to the last body byte, earlier redirect hops included.
 */
export const Timing = T.Object({
  dns: T.Number(),
  connect: T.Number(),
  tls: T.Number(),
  send: T.Number(),
  wait: T.Number(),
  download: T.Number(),
  total: T.Number(),
});
export type Timing = Static<typeof Timing>;

export const ResponseBody = T.Object({
  /** The whole decoded body, or its first `inlineLimit` bytes when spooled. */
  bytes: T.Uint8Array(),
  /** Decoded size in bytes. */
  size: T.Integer({ minimum: 0 }),
  /** Bytes as they came off the wire (before gzip/deflate/br decoding). */
  wireSize: T.Integer({ minimum: 0 }),
  /** Path of the temp file holding the whole body when it was too large to hold. */
  spooledTo: T.Optional(T.String()),
});
export type ResponseBody = Static<typeof ResponseBody>;

/** The final response's head: what a send knows once its headers arrived. */
const headFields = {
  status: T.Integer(),
  statusText: T.String(),
  httpVersion: T.String(),
  headers: T.Array(Header),
  /** Every hop before the final response (the redirects), in order. */
  hops: T.Array(Hop),
  /** The final exchange as text: request line and headers, a body preview, then the response head. */
  raw: T.Object({ request: T.String(), response: T.String() }),
  /** The final hop's URL. */
  url: T.String(),
  /** The final hop's request as it went out (absent for a response Parley did not send: an example's). */
  sent: T.Optional(SentHead),
  /** ip:port the final response came from ([v6]:port for IPv6; the proxy's through a proxy), or empty. */
  remoteAddress: T.String(),
  /** What the jar made of the final response's Set-Cookie headers, one per header in order (when the jar took part). */
  cookies: T.Optional(T.Array(CookieOutcome)),
  /**
   * The values of the jar's cookies the send added, on any hop: the supervisor masks them
   * wherever the exchange is recorded (they may come back in a body) and passes them no further.
   */
  jarCookies: T.Optional(T.Array(T.String())),
  /** A gRPC call's end (its status, details and trailers); `status` is then the code and `statusText` its name. */
  grpc: T.Optional(GrpcOutcome),
};

export const ResponseHead = T.Object(headFields);
export type ResponseHead = Static<typeof ResponseHead>;

export const SendResult = T.Object({
  ...headFields,
  /** Empty for an event stream, whose rows are in `stream`. */
  body: ResponseBody,
  timing: Timing,
  /** The final hop's phases, for HAR export (absent for a response Parley did not send). */
  hopTiming: T.Optional(HopTiming),
  /** A response with Content-Type text/event-stream: its rows, kept by the holder's limits. */
  stream: T.Optional(StreamRecord),
  /**
   * The same stream as History keeps it (first 400 and last 100 rows within 1 MB): the sender
   * keeps both, the supervisor records this one and never passes it on.
   */
  streamHistory: T.Optional(StreamRecord),
});
export type SendResult = Static<typeof SendResult>;

/**
 * What a send streams before its result, when the response is an event stream: the head as
 * soon as the headers arrived (the jar already has its cookies) with the timing up to them and
 * the read's id (`sender.stopStream` takes it), then batches of the rows some holder keeps or the
 * live pane shows, with the true counts, at most one batch every 50 ms.
 */
export const SendChunk = T.Union([
  T.Object({ kind: T.Literal('head'), head: ResponseHead, timing: Timing, hopTiming: T.Optional(HopTiming), stream: T.String() }),
  T.Object({ kind: T.Literal('batch'), batch: RowBatch }),
]);
export type SendChunk = Static<typeof SendChunk>;

/**
 * What `request.send` streams to the UI before its answer when the response is an event stream:
 * the head with the stream's id (`request.stopStream` takes it), then the rows as they come, in
 * batches of columns whose `total` and `events` count every row received so far, including any
 * a batch left out because the live pane would let it go at once.
 */
export const SendProgress = T.Union([
  T.Object({ kind: T.Literal('head'), stream: T.String(), head: ResponseHead }),
  T.Object({ kind: T.Literal('batch'), batch: RowBatch }),
]);
export type SendProgress = Static<typeof SendProgress>;
