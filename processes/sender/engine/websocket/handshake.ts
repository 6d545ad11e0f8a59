/**
 * Opening a WebSocket (RFC 6455) with `ws`, for the sender's socket sends (a GraphQL subscription,
 * graphql/subscribe.ts). The handshake is an HTTP GET as a send's hop is: the spec's headers (its
 * auth already in them), the jar's cookies for the URL (ws: as http:, wss: as https:), the extra
 * CAs and `insecure`, the preferences' proxy (a CONNECT tunnel, proxy-tunnel.ts), the request's
 * timeout until the handshake's answer. A 101 gives the open
 * socket with the head (status, headers, raw text, timing); any other answer is a response like
 * an HTTP one, its body read up to the inline limit. What the handshake's answer sets goes into
 * the jar either way.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates, type ConnectionOptions } from 'node:tls';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type WebSocket from 'ws';
import { ParleyError } from '../../../../protocol/errors.js';
import type { CookieOutcome } from '../../../../protocol/model/cookies.js';
import type { Header, HopTiming, ResponseHead, SendResult, SendSpec, Timing } from '../../../../protocol/model/exchange.js';
import type { StreamRecord } from '../../../../protocol/model/stream.js';
import { cookiePairValues } from '../../../../protocol/credentials/index.js';
import { storeHopCookies, withJarCookies, type CookieJarPort } from '../hop-cookies.js';
import { rawResponseText } from '../raw-text.js';
import { moveUrlCredentials, requestHeaders } from '../request-headers.js';
import { SendControl } from '../send-control.js';
import { sendFailure } from '../send-errors.js';
import { parseProxyUrl } from '../dispatchers.js';
import { openTunnel } from './proxy-tunnel.js';

/** Headers the WebSocket layer writes itself; a request's own are not sent (subprotocols are asked for by name). */
const SOCKET_HEADERS = new Set(['sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol', 'sec-websocket-accept']);

export interface SocketTarget {
  spec: SendSpec;
  /** The subprotocols asked for, in order of preference. */
  protocols: string[];
  /** The largest message the socket takes; a larger one closes it with 1009. */
  maxPayload: number;
}

export interface HandshakeOptions {
  signal?: AbortSignal;
  jar?: CookieJarPort;
}

/** The socket is open: its head (the 101 and what came with it), the timing up to it. */
export interface OpenSocket {
  kind: 'open';
  socket: WebSocket;
  head: ResponseHead;
  timing: Timing;
  /** The handshake's phases as HAR records them (`receive` 0: the session's messages are rows). */
  hopTiming: HopTiming;
}

/** Calls `stop` once any of `signals` aborts (at once when one already has); the returned call removes the listeners. */
export function onAnyAbort(signals: readonly AbortSignal[], stop: () => void): () => void {
  for (const signal of signals) {
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  }
  return () => {
    for (const signal of signals) signal.removeEventListener('abort', stop);
  };
}

/**
 * What a session over an open socket answers once it ended: the handshake's head, no body (its
 * messages are the stream's rows, `bytes` of them), and its time until now.
 */
export function sessionResult(open: Pick<OpenSocket, 'head' | 'timing'>, openedAt: number, bytes: number, kept: { finished: StreamRecord; history: StreamRecord }): SendResult {
  const lasted = performance.now() - openedAt;
  return {
    ...open.head,
    body: { bytes: new Uint8Array(0), size: bytes, wireSize: bytes },
    timing: { ...open.timing, download: lasted, total: open.timing.total + lasted },
    stream: kept.finished,
    streamHistory: kept.history,
  };
}

/** The server answered the handshake with something other than 101: a response like any other. */
export interface RefusedSocket {
  kind: 'refused';
  result: SendResult;
}

/** A handshake ready to start: its URL, headers and cookies settled (the jar asked). */
export interface PreparedHandshake {
  url: URL;
  /**
   * Starts the handshake. `make` builds the WebSocket from the URL, the protocols and the options
   * given (`new WebSocket(...)`, or inside a library that constructs its own, graphql-ws): the
   * socket it makes is returned at once, and `answer` says how the handshake went. It fails with a
   * ParleyError as a send does.
   */
  start(make: (url: string, protocols: string[], opts: WebSocket.ClientOptions) => WebSocket): { socket: WebSocket; answer: Promise<OpenSocket | RefusedSocket> };
}

export async function prepareHandshake(target: SocketTarget, options: HandshakeOptions): Promise<PreparedHandshake> {
  const { spec } = target;
  const startedAt = performance.now();
  const url = socketUrl(spec.url);
  const httpUrl = new URL(url.href.replace(/^ws/, 'http'));
  const proxy = spec.proxy === '' ? undefined : parseProxyUrl(spec.proxy);
  const proxyHost = proxy?.host ?? '';
  const jar = spec.cookies === undefined ? undefined : options.jar;
  const jarHeader = jar !== undefined && spec.cookies?.send ? await jar.cookieHeader(httpUrl.href) : '';
  const headers = withJarCookies(requestHeaders(moveUrlCredentials(url, spec.headers), { type: 'none' }, false).filter(([name]) => !SOCKET_HEADERS.has(name.toLowerCase())), jarHeader);
  const secure = url.protocol === 'wss:';
  const tlsOptions: ConnectionOptions = { ...(spec.caPem === '' ? {} : { ca: [...rootCertificates, spec.caPem] }), ...(spec.insecure ? { rejectUnauthorized: false } : {}) };
  return {
    url,
    start(make) {
      const control = new SendControl(spec.timeoutMs, options.signal, url.host);
      const marks: { lookup?: number; connected?: number; secured?: number } = {};
      // ws connects with these: Node's own connect, watched for the timing of each phase; through a
      // proxy, the socket comes later (Node's request waits for `made`), once the tunnel is open.
      const servername = (opts: { servername?: string; host?: string }) => opts.servername || (isIP(opts.host ?? '') ? '' : (opts.host ?? ''));
      const secureOver = (opts: ConnectionOptions & { host?: string }, socket?: Socket): Socket => {
        const secured = tlsConnect({ ...opts, ...tlsOptions, ...(socket ? { socket } : {}), servername: servername(opts) });
        secured.once('secureConnect', () => (marks.secured = performance.now()));
        return secured;
      };
      const lookedUp = (socket: Socket) => socket.once('lookup', () => (marks.lookup = performance.now()));
      const createConnection = (opts: ConnectionOptions & { host?: string }, made: (err: Error | null, socket?: Socket) => void): Socket | undefined => {
        if (proxy) {
          const authority = `${url.hostname}:${url.port || (secure ? 443 : 80)}`;
          openTunnel(proxy, { authority, tls: tlsOptions, signal: control.signal }, (err, tunnel) => {
            if (err || !tunnel) return made(err ?? new ParleyError('connect-failed', `The proxy ${proxyHost} gave no tunnel to ${authority}.`));
            // Connected once the tunnel is: TCP to the proxy and CONNECT, as undici times a proxied send.
            marks.connected = performance.now();
            made(null, secure ? secureOver(opts, tunnel) : tunnel);
          }, lookedUp);
          return undefined;
        }
        const socket = secure ? secureOver(opts) : netConnect(opts as never);
        lookedUp(socket).once('connect', () => (marks.connected = performance.now()));
        return socket;
      };
      const socket = make(url.href, target.protocols, {
        headers: Object.fromEntries(groupHeaders(headers)),
        maxPayload: target.maxPayload,
        followRedirects: false,
        perMessageDeflate: true,
        createConnection: createConnection as never,
      });
      // The handshake request ws made (a field of its own, set as it is made): the raw view shows what it sent.
      const request = (socket as unknown as { _req?: ClientRequest | null })._req ?? undefined;
      const answered = new Promise<{ kind: 'open'; response: IncomingMessage } | { kind: 'refused'; response: IncomingMessage; body: Buffer; size: number }>((resolve, reject) => {
        let response: IncomingMessage | undefined;
        const settle = () => {
          control.dispose();
          control.signal.removeEventListener('abort', onAbort);
          socket.off('upgrade', onUpgrade).off('open', onOpen).off('error', fail).off('unexpected-response', onRefused).off('close', onClose);
        };
        const fail = (err: unknown) => {
          settle();
          socket.terminate();
          reject(control.stoppedError() ?? subprotocolRefusal(err, url.host, target.protocols) ?? sendFailure(err, { host: url.host, proxyHost, requestStarted: marks.connected !== undefined }));
        };
        const onAbort = () => fail(control.signal.reason);
        const onUpgrade = (res: IncomingMessage) => (response = res);
        const onOpen = () => {
          settle();
          resolve({ kind: 'open', response: response! });
        };
        const onClose = () => fail(new ParleyError('protocol-error', `The WebSocket handshake with ${url.host} ended before an answer.`));
        const onRefused = (_req: ClientRequest, res: IncomingMessage) => {
          // With this listener ws leaves the answer to us: its body is read (up to the inline limit) and the connection closed.
          settle();
          const chunks: Buffer[] = [];
          let kept = 0;
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            const room = spec.inlineLimit - kept;
            if (room > 0) {
              chunks.push(chunk.subarray(0, room));
              kept += Math.min(chunk.length, room);
            }
          });
          res.once('end', () => {
            resolve({ kind: 'refused', response: res, body: Buffer.concat(chunks), size });
            // ws then ends the socket as a handshake that failed (its error and close events).
            socket.terminate();
          });
          res.once('error', (err) => reject(sendFailure(err, { host: url.host, proxyHost, requestStarted: true })));
        };
        control.signal.addEventListener('abort', onAbort, { once: true });
        socket.once('upgrade', onUpgrade).once('open', onOpen).once('error', fail).once('unexpected-response', onRefused).once('close', onClose);
      });
      const answer = answered.then(async (outcome): Promise<OpenSocket | RefusedSocket> => {
        const answeredAt = performance.now();
        const { response } = outcome;
        const responseHeaders = rawHeaders(response.rawHeaders);
        const cookies = await storeHopCookies(jar, httpUrl, responseHeaders);
        const sentAt = marks.secured ?? marks.connected ?? startedAt;
        const timing: Timing = {
          dns: marks.lookup === undefined ? 0 : marks.lookup - startedAt,
          connect: marks.connected === undefined ? 0 : marks.connected - (marks.lookup ?? startedAt),
          tls: marks.secured === undefined || marks.connected === undefined ? 0 : marks.secured - marks.connected,
          send: 0,
          wait: Math.max(0, answeredAt - sentAt),
          download: 0,
          total: answeredAt - startedAt,
        };
        const head: ResponseHead = {
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          httpVersion: response.httpVersion,
          headers: responseHeaders,
          hops: [],
          raw: { request: requestText(url, request, headers), response: rawResponseText(response.httpVersion, response.statusCode ?? 0, response.statusMessage ?? '', responseHeaders) },
          url: url.href,
          remoteAddress: addressOf(response.socket),
          ...(cookies ? { cookies: cookies satisfies CookieOutcome[] } : {}),
          ...(jarHeader !== '' ? { jarCookies: cookiePairValues(jarHeader) } : {}),
        };
        const ms = (value: number) => Math.round(Math.max(0, value) * 1000) / 1000;
        const hopTiming: HopTiming = { startedAt: 0, blocked: 0, dns: ms(timing.dns), connect: ms(timing.connect + timing.tls), ssl: secure ? ms(timing.tls) : -1, send: 0, wait: ms(timing.wait), receive: 0 };
        if (outcome.kind === 'open') return { kind: 'open', socket, head, timing, hopTiming };
        return { kind: 'refused', result: { ...head, body: { bytes: new Uint8Array(outcome.body), size: outcome.size, wireSize: outcome.size }, timing, hopTiming } };
      });
      return { socket, answer };
    },
  };
}

/**
 * A 101 whose subprotocol is not one asked for (or none when some were): ws fails the handshake
 * with only a message to tell (no code), so its two messages are matched here.
 */
function subprotocolRefusal(err: unknown, host: string, asked: string[]): ParleyError | undefined {
  const message = err instanceof Error ? err.message : '';
  if (message === 'Server sent no subprotocol') return new ParleyError('protocol-error', `${host} accepted the WebSocket with none of the subprotocols asked for (${asked.join(', ')}).`, { host });
  if (message === 'Server sent an invalid subprotocol') return new ParleyError('protocol-error', `${host} answered the WebSocket handshake with a subprotocol that was not asked for.`, { host });
  return undefined;
}

/** The URL of a socket send: ws: or wss: with a host. */
export function socketUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ParleyError('bad-url', 'The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new ParleyError('bad-url', `The URL scheme ${url.protocol} is not a WebSocket one (ws or wss).`, { scheme: url.protocol });
  if (url.hostname === '') throw new ParleyError('bad-url', 'The URL has no host.');
  url.hash = '';
  return url;
}

/** Headers as ws takes them: one value per name, repeated names joined as HTTP allows (Cookie with `; `). */
function groupHeaders(headers: Header[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    const before = out.get(key);
    out.set(key, before === undefined ? value : `${before}${key === 'cookie' ? '; ' : ', '}${value}`);
  }
  return out;
}

function rawHeaders(raw: string[]): Header[] {
  const out: Header[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/** The handshake request as sent: its request line and the headers Node wrote (ws's own among them). */
function requestText(url: URL, req: ClientRequest | undefined, fallback: Header[]): string {
  const headers: Header[] = req ? req.getRawHeaderNames().map((name): Header => [name, String(req.getHeader(name) ?? '')]) : fallback;
  const host = headers.some(([name]) => name.toLowerCase() === 'host') ? [] : [['Host', url.host] as Header];
  return [`GET ${url.pathname}${url.search} HTTP/1.1`, ...[...host, ...headers].map(([n, v]) => `${n}: ${v}`)].join('\r\n') + '\r\n\r\n';
}

function addressOf(socket: Socket | null): string {
  if (!socket?.remoteAddress) return '';
  return socket.remoteFamily === 'IPv6' ? `[${socket.remoteAddress}]:${socket.remotePort}` : `${socket.remoteAddress}:${socket.remotePort}`;
}
