import diagnosticsChannel from 'node:diagnostics_channel';
import { claimConnectionTiming, type ConnectionTiming } from './connection-timing.js';

/** The request body kept for the raw view: at most this many bytes. */
export const BODY_PREVIEW_LIMIT = 64 * 1024;

/** What undici's diagnostics channels tell about one request/response exchange (one hop). */
export interface HopTrace {
  /** Set-up phases of the connection, zeros when it was reused. */
  connection: ConnectionTiming;
  /** The request went on a connection an earlier request had set up (or one whose set-up was not timed). */
  reusedConnection: boolean;
  /** When undici started writing the request. */
  headersSentAt?: number;
  /** Request line and headers as written (framing headers included when we could see them). */
  requestHead?: string;
  /** When the request, body included, was written. */
  bodySentAt?: number;
  bodyPreview: Buffer[];
  bodyPreviewSize: number;
  bodySize: number;
  /** When the response headers arrived. */
  respondedAt?: number;
  /** Response head exactly as parsed: raw header names and values, in order. */
  responseHead?: { statusCode: number; statusText: string; rawHeaders: Buffer[] };
  /** 'h2' when HTTP/2 was negotiated. */
  alpnProtocol?: string;
  remoteAddress: string;
  /** Undoes the write capture if the head was never written (an abort). */
  releaseSocket?: () => void;
}

export function newHopTrace(): HopTrace {
  return { connection: { dns: 0, connect: 0, tls: 0 }, reusedConnection: false, bodyPreview: [], bodyPreviewSize: 0, bodySize: 0, remoteAddress: '' };
}

/**
 * undici creates its internal request object synchronously inside `dispatcher.request()`
 * (Agent -> Pool -> Client, and ProxyAgent's agent alike), so the trace waiting here during
 * that call is the one its `undici:request:create` message belongs to.
 */
let waiting: HopTrace | undefined;
const traces = new WeakMap<object, HopTrace>();

/** Runs `dispatch` (a call into undici) so the request it creates reports into `trace`. */
export function dispatchTraced<T>(trace: HopTrace, dispatch: () => T): T {
  waiting = trace;
  try {
    return dispatch();
  } finally {
    waiting = undefined;
  }
}

interface UndiciRequest {
  origin?: string;
}
interface WritableSocket {
  write: (...args: unknown[]) => boolean;
  remoteAddress?: string;
  remotePort?: number;
  alpnProtocol?: string | false;
}

diagnosticsChannel.subscribe('undici:request:create', (message) => {
  if (waiting === undefined) return;
  traces.set((message as { request: UndiciRequest }).request, waiting);
  waiting = undefined;
});

diagnosticsChannel.subscribe('undici:client:sendHeaders', (message) => {
  const { request, headers, socket } = message as { request: object; headers: string; socket: WritableSocket };
  const trace = traces.get(request);
  if (trace === undefined) return;
  trace.headersSentAt = performance.now();
  trace.requestHead = headers;
  const claimed = claimConnectionTiming(socket);
  trace.connection = claimed.timing;
  trace.reusedConnection = claimed.reused;
  trace.alpnProtocol = typeof socket.alpnProtocol === 'string' ? socket.alpnProtocol : undefined;
  trace.remoteAddress = formatAddress(socket.remoteAddress, socket.remotePort);
  if (trace.alpnProtocol !== 'h2') captureWrittenHead(trace, socket, headers);
});

diagnosticsChannel.subscribe('undici:request:bodyChunkSent', (message) => {
  const { request, chunk } = message as { request: object; chunk: Uint8Array | string };
  const trace = traces.get(request);
  if (trace === undefined) return;
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  trace.bodySize += bytes.length;
  const room = BODY_PREVIEW_LIMIT - trace.bodyPreviewSize;
  if (room > 0) {
    // Copy: undici may reuse the chunk's memory once it is written.
    const kept = Buffer.from(bytes.subarray(0, room));
    trace.bodyPreview.push(kept);
    trace.bodyPreviewSize += kept.length;
  }
});

diagnosticsChannel.subscribe('undici:request:bodySent', (message) => {
  const trace = traces.get((message as { request: object }).request);
  if (trace !== undefined) trace.bodySentAt = performance.now();
});

diagnosticsChannel.subscribe('undici:request:headers', (message) => {
  const { request, response } = message as {
    request: object;
    response: { statusCode: number; statusText: string; headers: Buffer[] };
  };
  const trace = traces.get(request);
  if (trace === undefined) return;
  trace.respondedAt = performance.now();
  trace.responseHead = { statusCode: response.statusCode, statusText: response.statusText, rawHeaders: response.headers };
});

/**
 * `sendHeaders` carries the head before undici appends the framing header (content-length or
 * transfer-encoding). undici then writes the head as one string starting with exactly that
 * text, so the first such write is the head as actually sent; the capture removes itself then.
 */
function captureWrittenHead(trace: HopTrace, socket: WritableSocket, head: string): void {
  const hadOwnWrite = Object.hasOwn(socket, 'write');
  const original = socket.write;
  const release = (): void => {
    if (socket.write !== capture) return;
    if (hadOwnWrite) socket.write = original;
    else delete (socket as Partial<WritableSocket>).write;
    trace.releaseSocket = undefined;
  };
  const capture = function (this: unknown, ...args: unknown[]): boolean {
    const [data] = args;
    if (typeof data === 'string' && data.startsWith(head)) {
      trace.requestHead = data;
      release();
    }
    return original.apply(this, args);
  };
  socket.write = capture;
  trace.releaseSocket = release;
}

function formatAddress(address: string | undefined, port: number | undefined): string {
  if (address === undefined) return '';
  const host = address.includes(':') ? `[${address}]` : address;
  return port === undefined ? host : `${host}:${port}`;
}
