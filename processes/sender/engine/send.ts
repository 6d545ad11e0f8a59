import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ParleyError } from '../../../protocol/errors.js';
import type { Header, Hop, HopTiming, ResponseBody, ResponseHead, SendResult, SendSpec, SentHead, Timing } from '../../../protocol/model/exchange.js';
import type { RowBatch, StreamRow } from '../../../protocol/model/stream.js';
import { isEventStream } from '../../../protocol/media-type.js';
import type { CookieOutcome } from '../../../protocol/model/cookies.js';
import { cookiePairValues } from '../../../protocol/credentials/index.js';
import type { NegotiateToken } from '../../../protocol/spnego.js';
import { decodersFor } from './decode-body.js';
import { readEventStream } from './event-stream.js';
import { StreamKeeper } from './stream-keeper.js';
import { dispatcherFor } from './dispatchers.js';
import { storeHopCookies, withJarCookies, type CookieJarPort } from './hop-cookies.js';
import { closeBody, openBody, type OpenedBody } from './outgoing-body.js';
import { rawRequestText, rawResponseText, sentHeaderLines } from './raw-text.js';
import { isRedirectStatus, redirectedRequest, resolveLocation, type HopRequest } from './redirects.js';
import { moveUrlCredentials, requestHeaders } from './request-headers.js';
import { asksForNegotiate, negotiateHeader } from './negotiate.js';
import { SendControl } from './send-control.js';
import { sendFailure } from './send-errors.js';
import { HopFailure, sendHop, type HopResponse } from './send-hop.js';
import { SpoolingSink } from './spool-body.js';
import { subscribe } from './graphql/subscribe.js';
import { runSocket } from './websocket/session.js';
import { runGrpc } from './grpc/call.js';
import type { DescriptorSource } from './grpc/definitions.js';
import type { OutgoingSocketMessage } from '../../../protocol/model/websocket.js';

export interface SendOptions {
  /** Cancels the send at any point, body download included (code `cancelled`). */
  signal?: AbortSignal;
  /** Folder for bodies over `spec.inlineLimit`; created if missing. The caller deletes spooled files. */
  spoolDir: string;
  /** The workspace's cookie jar, used when the spec asks for it (`spec.cookies`). */
  jar?: CookieJarPort;
  /**
   * Where an event stream goes as it arrives: its head once the jar has the final response's
   * cookies, then its rows. Without it a text/event-stream response is read as a body.
   */
  stream?: StreamSink;
  /** Makes the Kerberos token for `spec.negotiate` (protocol/spnego.ts's unless a test gives another). */
  negotiate?: NegotiateToken;
  /** A gRPC call's definition text by its hash, when the sender has not parsed it yet (engine/grpc/definitions.ts). */
  grpcDescriptor?: DescriptorSource;
}

export interface StreamSink {
  /** `timing` and `hopTiming` run to the headers (`download` and `receive` 0). */
  head(head: ResponseHead, timing: Timing, hopTiming: HopTiming): void;
  /**
   * Batches of the rows some holder keeps or the live pane shows, with the true counts, at most
   * one every BATCH_MS (stream-keeper.ts); the last goes before `send` answers.
   */
  batch?(batch: RowBatch): void;
  /** Every row as it is parsed, in batches of one loop turn (tests, and the bench's engine alone). */
  rows?(rows: StreamRow[]): void;
  /** Stop: the read ends as stopped and `send` answers with the rows kept (a cancel drops the answer). */
  stop?: AbortSignal;
  /** Given the function to call each time the receiver has taken a batch (StreamKeeper.taken): batches then wait for it. */
  onTaken?(taken: () => void): void;
  /** A WebSocket session: given, once the socket is open, the function that sends a message over it. */
  onSend?(send: (message: OutgoingSocketMessage) => Promise<void>): void;
  /** A gRPC client or bidirectional stream: given the function that half-closes its request side. */
  onHalfClose?(halfClose: () => void): void;
}

/**
 * Sends a fully resolved request and returns the final response with every redirect hop,
 * timing phases, the raw exchange and the decoded body (spooled to a file past the inline limit).
 * Failures throw a ParleyError with a stable code (see send-errors.ts).
 */
export async function send(spec: SendSpec, options: SendOptions): Promise<SendResult> {
  // A GraphQL subscription goes over a WebSocket, its messages a stream as an event stream's are.
  if (spec.subscription !== undefined) return subscribe(spec, options);
  // A WebSocket session: its messages, both ways, are the stream's rows.
  if (spec.socket !== undefined) return runSocket(spec, options);
  // A gRPC call: a unary answer, or a stream whose messages are rows as a WebSocket's are.
  if (spec.grpc !== undefined) return runGrpc(spec, options);
  const startedAt = performance.now();
  const firstUrl = targetUrl(spec.url);
  const proxyHost = spec.proxy === '' ? '' : safeHost(spec.proxy);
  const control = new SendControl(spec.timeoutMs, options.signal, firstUrl.host);
  let body: OpenedBody | undefined;
  try {
    control.throwIfStopped();
    checkMethod(spec.method);
    const headers = requestHeaders(moveUrlCredentials(firstUrl, spec.headers), spec.body, spec.proxy !== '');
    // Body files are opened once, here, and every hop sends those open files (body-file.ts).
    body = await openBody(spec.body);
    const dispatcher = dispatcherFor(spec);
    let request: HopRequest = { method: spec.method, url: firstUrl, headers, body };
    const hops: Hop[] = [];
    const jar = spec.cookies === undefined ? undefined : options.jar;
    /** The values of the jar's cookies sent on any hop, for the supervisor to mask (SendResult.jarCookies). */
    const jarCookies = new Set<string>();
    // Kerberos goes only to the request's own origin, and never again once a hop has left it.
    let neverLeftOrigin = true;

    for (;;) {
      control.host = request.url.host;
      control.throwIfStopped();
      neverLeftOrigin &&= request.url.origin === firstUrl.origin;
      // The jar's cookies are added per hop and never carried into the next hop's request:
      // each hop gets those matching its own URL, the last hop's Set-Cookie included.
      const jarHeader = async () => {
        const header = jar !== undefined && spec.cookies?.send ? await jar.cookieHeader(request.url.href) : '';
        for (const value of cookiePairValues(header)) jarCookies.add(value);
        return header;
      };
      const firstHeaders = withJarCookies(request.headers, await jarHeader());
      // The hop's clock starts once its request is ready (HAR's `blocked` counts from here).
      let hopStartedAt = performance.now();
      let response = await sendHopExplained(dispatcher, { ...request, headers: firstHeaders }, control, proxyHost);
      if (spec.negotiate !== undefined && neverLeftOrigin && asksForNegotiate(response.status, response.headers)) {
        // The same hop once more with a token for its host; the token is not carried to the next hop.
        await storeHopCookies(jar, request.url, response.headers);
        await response.body.dump({ limit: 128 * 1024, signal: control.signal }).catch(() => undefined);
        const authorization = await negotiateHeader(request.url, spec.negotiate.spn, control.signal, options.negotiate);
        const signedIn = withJarCookies([...request.headers.filter(([name]) => name.toLowerCase() !== 'authorization'), authorization], await jarHeader());
        hopStartedAt = performance.now();
        response = await sendHopExplained(dispatcher, { ...request, headers: signedIn }, control, proxyHost);
      }
      const cookies = storeHopCookies(jar, request.url, response.headers);
      const next = spec.followRedirects ? redirectTarget(response, request.url) : undefined;
      if (next === undefined) {
        control.headersArrived();
        return await finish(spec, options, control, request, response, hops, { send: startedAt, hop: hopStartedAt }, cookies, [...jarCookies]);
      }
      const outcomes = await cookies;
      const headersAt = response.trace.respondedAt ?? performance.now();
      // The redirect's own body is not kept; dump() reads a little so the connection can be reused.
      await response.body.dump({ limit: 128 * 1024, signal: control.signal }).catch(() => undefined);
      hops.push({
        method: request.method,
        url: request.url.href,
        status: response.status,
        statusText: response.statusText,
        location: next.location,
        headers: response.headers,
        ...(outcomes ? { cookies: outcomes } : {}),
        sent: sentHead(request, response),
        timing: hopPhases(request, response, { send: startedAt, hop: hopStartedAt }, headersAt, performance.now()),
      });
      if (hops.length > spec.maxRedirects) {
        throw new ParleyError('too-many-redirects', `Stopped after ${spec.maxRedirects} redirects; ${request.url.host} redirected again.`, {
          host: request.url.host,
          maxRedirects: spec.maxRedirects,
        });
      }
      request = redirectedRequest(request, response.status, next.url);
    }
  } catch (err) {
    throw control.stoppedError() ?? (err instanceof ParleyError ? err : sendFailure(err, { host: firstUrl.host, proxyHost, requestStarted: false }));
  } finally {
    control.dispose();
    await closeBody(body);
  }
}

async function sendHopExplained(dispatcher: ReturnType<typeof dispatcherFor>, request: HopRequest, control: SendControl, proxyHost: string): Promise<HopResponse> {
  try {
    return await sendHop(dispatcher, request, control.signal);
  } catch (err) {
    if (!(err instanceof HopFailure)) throw err;
    throw control.stoppedError() ?? sendFailure(err.error, { host: request.url.host, proxyHost, requestStarted: err.trace.headersSentAt !== undefined });
  }
}

function redirectTarget(response: HopResponse, from: URL): { url: URL; location: string } | undefined {
  if (!isRedirectStatus(response.status)) return undefined;
  const location = headerValue(response.headers, 'location');
  if (location === undefined) return undefined;
  // A Location we cannot follow (not http/https) makes the 3xx the final response.
  const url = resolveLocation(location, from);
  return url === undefined ? undefined : { url, location };
}

async function finish(
  spec: SendSpec,
  options: SendOptions,
  control: SendControl,
  request: HopRequest,
  response: HopResponse,
  hops: Hop[],
  clock: HopClock,
  cookies: Promise<CookieOutcome[] | undefined>,
  jarCookies: string[],
): Promise<SendResult> {
  const headersAt = response.trace.respondedAt ?? performance.now();
  if (options.stream && isStreamResponse(request, response)) return finishStream(options.stream, control, request, response, hops, clock, headersAt, cookies, jarCookies);
  // The jar takes the cookies while the body downloads.
  const [body, outcomes] = await Promise.all([readBody(spec, options, control, request, response), cookies]);
  const endedAt = performance.now();
  return {
    status: response.status,
    statusText: response.statusText,
    httpVersion: response.httpVersion,
    headers: response.headers,
    body,
    hops,
    timing: hopTiming(response, clock.send, headersAt, endedAt),
    hopTiming: hopPhases(request, response, clock, headersAt, endedAt),
    raw: {
      request: rawRequestText(response.trace, request.method, request.url, response.sentHeaders),
      response: rawResponseText(response.httpVersion, response.status, response.statusText, response.headers),
    },
    url: request.url.href,
    sent: sentHead(request, response),
    remoteAddress: response.trace.remoteAddress,
    ...(outcomes ? { cookies: outcomes } : {}),
    ...(jarCookies.length > 0 ? { jarCookies } : {}),
  };
}

function isStreamResponse(request: HopRequest, response: HopResponse): boolean {
  const bodiless = request.method.toUpperCase() === 'HEAD' || response.status === 204 || response.status === 304;
  return !bodiless && isEventStream(headerValue(response.headers, 'content-type') ?? '');
}

/**
 * An event stream: the head goes out as soon as the jar has stored the response's cookies (so
 * the supervisor has both before the first event), then the rows as they are parsed, until the
 * stream ends, drops or is stopped. The rows are kept here (StreamKeeper): the result carries how
 * it ended, the true counts, and the finished stream's and History's kept rows.
 */
async function finishStream(
  sink: StreamSink,
  control: SendControl,
  request: HopRequest,
  response: HopResponse,
  hops: Hop[],
  clock: HopClock,
  headersAt: number,
  cookies: Promise<CookieOutcome[] | undefined>,
  jarCookies: string[],
): Promise<SendResult> {
  const outcomes = await cookies;
  const head: ResponseHead = {
    status: response.status,
    statusText: response.statusText,
    httpVersion: response.httpVersion,
    headers: response.headers,
    hops,
    raw: {
      request: rawRequestText(response.trace, request.method, request.url, response.sentHeaders),
      response: rawResponseText(response.httpVersion, response.status, response.statusText, response.headers),
    },
    url: request.url.href,
    sent: sentHead(request, response),
    remoteAddress: response.trace.remoteAddress,
    ...(outcomes ? { cookies: outcomes } : {}),
    ...(jarCookies.length > 0 ? { jarCookies } : {}),
  };
  sink.head(head, hopTiming(response, clock.send, headersAt, headersAt), hopPhases(request, response, clock, headersAt, headersAt));
  let wireSize = 0;
  const countWire = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      wireSize += chunk.length;
      callback(null, chunk);
    },
  });
  const decoders = decodersFor(headerValue(response.headers, 'content-encoding') ?? '') ?? [];
  const host = request.url.host;
  const keeper = new StreamKeeper(sink.batch?.bind(sink));
  sink.onTaken?.(() => keeper.taken());
  const end = await readEventStream([response.body, countWire, ...decoders.map((d) => d.stream)], {
    signal: sink.stop ? AbortSignal.any([control.signal, sink.stop]) : control.signal,
    onRows: (rows) => {
      keeper.add(rows);
      sink.rows?.(rows);
    },
    describe: (err) => sendFailure(err, { host, proxyHost: '', requestStarted: true }),
  });
  const kept = keeper.end(end.state, end.error);
  const endedAt = performance.now();
  return {
    ...head,
    body: { bytes: new Uint8Array(0), size: end.bytes, wireSize },
    timing: hopTiming(response, clock.send, headersAt, endedAt),
    hopTiming: hopPhases(request, response, clock, headersAt, endedAt),
    stream: kept.finished,
    streamHistory: kept.history,
  };
}

/** Decodes and stores the body; decoded bytes past the inline limit go to a spool file. */
async function readBody(spec: SendSpec, options: SendOptions, control: SendControl, request: HopRequest, response: HopResponse): Promise<ResponseBody> {
  const bodiless = request.method.toUpperCase() === 'HEAD' || response.status === 204 || response.status === 304;
  const decoders = bodiless ? [] : (decodersFor(headerValue(response.headers, 'content-encoding') ?? '') ?? []);
  let failedEncoding: string | undefined;
  for (const decoder of decoders) decoder.stream.once('error', () => (failedEncoding ??= decoder.encoding));
  let wireSize = 0;
  const countWire = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      wireSize += chunk.length;
      callback(null, chunk);
    },
  });
  const sink = new SpoolingSink(spec.inlineLimit, options.spoolDir);
  try {
    await pipeline([response.body, countWire, ...decoders.map((d) => d.stream), sink], { signal: control.signal });
  } catch (err) {
    // The pipeline rejects before the sink's clean-up ran: wait for it, so no partial spool
    // file outlives the failed send.
    await discarded(sink);
    const stopped = control.stoppedError();
    if (stopped !== undefined) throw stopped;
    const host = request.url.host;
    if (failedEncoding !== undefined) {
      // An empty body declared as encoded is just empty, not corrupt.
      if (wireSize === 0) return { bytes: new Uint8Array(0), size: 0, wireSize: 0 };
      throw new ParleyError('decode-failed', `The ${failedEncoding} body from ${host} could not be decoded (corrupt or truncated).`, { host, encoding: failedEncoding });
    }
    throw sendFailure(err, { host, proxyHost: '', requestStarted: true });
  }
  const stored = sink.result();
  return stored.spooledTo === undefined
    ? { bytes: stored.bytes, size: stored.size, wireSize }
    : { bytes: stored.bytes, size: stored.size, wireSize, spooledTo: stored.spooledTo };
}

function discarded(sink: SpoolingSink): Promise<void> {
  if (sink.closed) return Promise.resolve();
  return new Promise((resolve) => {
    sink.once('close', () => resolve());
    sink.destroy(new Error('body failed'));
  });
}

/**
 * Phases of the final hop: set-up (zeros on a reused connection), writing the request, waiting
 * for the headers, reading the body. `total` runs from the call to the last byte, redirects included.
 */
function hopTiming(response: HopResponse, startedAt: number, headersAt: number, endedAt: number): Timing {
  const { trace } = response;
  const sendingAt = trace.headersSentAt ?? headersAt;
  const sentAt = Math.max(trace.bodySentAt ?? sendingAt, sendingAt);
  const phase = (from: number, to: number): number => Math.max(0, to - from);
  return {
    ...trace.connection,
    send: phase(sendingAt, sentAt),
    wait: phase(sentAt, headersAt),
    download: phase(headersAt, endedAt),
    total: phase(startedAt, endedAt),
  };
}

/** When the send started, and when the hop's request was ready to go (performance.now()). */
interface HopClock {
  send: number;
  hop: number;
}

/** The hop's request as it went out (sent-head lines from the channels, body bytes as written). */
function sentHead(request: HopRequest, response: HopResponse): SentHead {
  return { method: request.method, headers: sentHeaderLines(response.trace, request.url, response.sentHeaders), bodySize: response.trace.bodySize };
}

/**
 * One hop's phases as HAR names them (HopTiming): set-up phases -1 on a reused connection, ssl
 * -1 over http, `connect` including `ssl`, `blocked` the rest of the time before the request
 * was written. Rounded to the microsecond.
 */
function hopPhases(request: HopRequest, response: HopResponse, clock: HopClock, headersAt: number, endedAt: number): HopTiming {
  const { trace } = response;
  const sendingAt = trace.headersSentAt ?? headersAt;
  const sentAt = Math.max(trace.bodySentAt ?? sendingAt, sendingAt);
  const ms = (value: number): number => Math.round(Math.max(0, value) * 1000) / 1000;
  const { dns, connect, tls } = trace.connection;
  const reused = trace.reusedConnection;
  const secure = request.url.protocol === 'https:';
  return {
    startedAt: ms(clock.hop - clock.send),
    blocked: trace.headersSentAt === undefined ? -1 : ms(sendingAt - clock.hop - (reused ? 0 : dns + connect + tls)),
    dns: reused ? -1 : ms(dns),
    connect: reused ? -1 : ms(connect + tls),
    ssl: reused || !secure ? -1 : ms(tls),
    send: ms(sentAt - sendingAt),
    wait: ms(headersAt - sentAt),
    receive: ms(endedAt - headersAt),
  };
}

function targetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ParleyError('bad-url', 'The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ParleyError('bad-url', `The URL scheme ${url.protocol} is not supported (http or https).`, { scheme: url.protocol });
  }
  if (url.hostname === '') throw new ParleyError('bad-url', 'The URL has no host.');
  return url;
}

function checkMethod(method: string): void {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(method)) {
    throw new ParleyError('bad-input', `The method "${method.replace(/[^\x20-\x7e]/g, '?').slice(0, 32)}" is not a valid HTTP method name.`, { field: 'method' });
  }
}

function safeHost(proxy: string): string {
  try {
    return new URL(proxy).host;
  } catch {
    return 'the proxy';
  }
}

function headerValue(headers: Header[], name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}
