/**
 * A GraphQL subscription over WebSocket (graphql-ws's `graphql-transport-ws` protocol, its own
 * client), read as an event stream is (docs/graphql.md, docs/events.md): each message the server
 * sends for the operation is a row (`next` with its result, `error` with its errors), kept and
 * batched by the same StreamKeeper, so the Events view, History and the HTTP Log show it with the
 * true counts and the same retention. The head is the handshake's 101. The stream ends when the
 * server completes the operation or answers it with errors; Stop (or a cancel) completes it from
 * our side; a connection the server or the network closes ends it as stopped, with why.
 */
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { ParleyError } from '../../../../protocol/errors.js';
import type { SendResult, SendSpec } from '../../../../protocol/model/exchange.js';
import { STREAM_LIMITS, type StreamRow, type StreamState } from '../../../../protocol/model/stream.js';
import { RowBatcher } from '../event-stream.js';
import { StreamKeeper } from '../stream-keeper.js';
import { bytesText } from '../send-errors.js';
import type { SendOptions } from '../send.js';
import { onAnyAbort, prepareHandshake, sessionResult, type OpenSocket, type RefusedSocket } from '../websocket/handshake.js';
import { closeText } from '../websocket/close-codes.js';

/** The subprotocol graphql-ws speaks. */
const PROTOCOL = 'graphql-transport-ws';
/** One message may hold as much as a finished stream keeps in all (SPEC Limits, 32 MB); a larger one closes the socket (1009). */
export const MAX_MESSAGE_BYTES = STREAM_LIMITS.finished.bytes;
/** How long a close waits for graphql-ws before the socket is cut. */
const CLOSE_WAIT_MS = 1_000;

export async function subscribe(spec: SendSpec, options: SendOptions): Promise<SendResult> {
  const operation = spec.subscription;
  if (operation === undefined) throw new ParleyError('bad-input', 'Not sent: the request holds no subscription.');
  const handshake = await prepareHandshake({ spec, protocols: [PROTOCOL], maxPayload: MAX_MESSAGE_BYTES }, { ...(options.signal ? { signal: options.signal } : {}), ...(options.jar ? { jar: options.jar } : {}) });
  const host = handshake.url.host;
  let opening: { socket: WebSocket; answer: Promise<OpenSocket | RefusedSocket> } | undefined;
  // graphql-ws builds its socket with `new`: this class hands it the one the handshake watches.
  class HandshakeSocket {
    static readonly CONNECTING = WebSocket.CONNECTING;
    static readonly OPEN = WebSocket.OPEN;
    static readonly CLOSING = WebSocket.CLOSING;
    static readonly CLOSED = WebSocket.CLOSED;
    constructor() {
      opening ??= handshake.start((url, protocols, opts) => new WebSocket(url, protocols, opts));
      return opening.socket;
    }
  }
  const batcher = new RowBatcher((rows: StreamRow[]) => {
    keeper.add(rows);
    options.stream?.rows?.(rows);
  });
  const keeper = new StreamKeeper(options.stream?.batch?.bind(options.stream));
  let finish!: (end: { state: StreamState; error?: { code: string; message: string } }) => void;
  const ended = new Promise<{ state: StreamState; error?: { code: string; message: string } }>((resolve) => (finish = resolve));
  let over = false;
  const end = (state: StreamState, error?: { code: string; message: string }) => {
    if (over) return;
    over = true;
    finish(error ? { state, error } : { state });
  };
  let socketError: Error | undefined;
  const client: Client = createClient({
    url: handshake.url.href,
    webSocketImpl: HandshakeSocket,
    lazy: true,
    retryAttempts: 0,
    // The request's timeout covers the handshake; the server's acknowledgement gets as long again.
    connectionAckWaitTimeout: spec.timeoutMs,
  });
  const unsubscribe = client.subscribe(operation, {
    next: (result) => batcher.add('event', JSON.stringify(result), 'next'),
    error: (err) => {
      if (Array.isArray(err)) {
        // The server refused the operation (graphql-ws's `error` message): its errors are the last row.
        batcher.add('event', JSON.stringify({ errors: err }), 'error');
        end('ended');
      } else end('stopped', dropped(err, socketError, host));
    },
    complete: () => end('ended'),
  });
  let answered: OpenSocket | RefusedSocket;
  try {
    if (opening === undefined) throw new ParleyError('internal', 'graphql-ws did not open its socket.');
    answered = await opening.answer;
  } catch (err) {
    over = true;
    await closeClient(client, opening?.socket);
    throw err;
  }
  if (answered.kind === 'refused') {
    over = true;
    await closeClient(client, opening.socket);
    return answered.result;
  }
  const { socket, head, timing } = answered;
  const openedAt = performance.now();
  let bytes = 0;
  // ws reports why it closed the socket itself (a message over maxPayload) as an error before the close.
  socket.on('error', (err) => void (socketError ??= err));
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => (bytes += Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength));
  // The 101 names the subprotocol the server chose: anything else is not graphql-ws.
  if (socket.protocol !== PROTOCOL) {
    over = true;
    socket.terminate();
    await closeClient(client, socket);
    throw new ParleyError('protocol-error', `${host} accepted the WebSocket without the graphql-transport-ws subprotocol (it answered ${socket.protocol === '' ? 'none' : JSON.stringify(socket.protocol)}): it is not a graphql-ws server.`);
  }
  options.stream?.head(head, timing, answered.hopTiming);
  options.stream?.onTaken?.(() => keeper.taken());
  const stops = [options.signal, options.stream?.stop].filter((s): s is AbortSignal => s !== undefined);
  const onStop = () => end('stopped');
  const unlisten = onAnyAbort(stops, onStop);
  const outcome = await ended;
  unlisten();
  // Stop completes the operation from our side (graphql-ws sends `complete`), then closes with 1000.
  unsubscribe();
  await closeClient(client, socket);
  batcher.flush();
  return sessionResult(answered, openedAt, bytes, keeper.end(outcome.state, outcome.error));
}

/**
 * Closes graphql-ws's connection: with 1000 once it has the server's acknowledgement (its
 * `dispose`); a socket still waiting for one, or one already failed, is cut after CLOSE_WAIT_MS.
 */
async function closeClient(client: Client, socket: WebSocket | undefined): Promise<void> {
  const cut = setTimeout(() => socket?.terminate(), CLOSE_WAIT_MS);
  await Promise.resolve(client.dispose()).catch(() => undefined);
  clearTimeout(cut);
}

/** Why the connection ended under the subscription: a close the server (or the network) made, or graphql-ws's complaint. */
function dropped(err: unknown, socketError: Error | undefined, host: string): { code: string; message: string } {
  if (socketError && (socketError as { code?: unknown }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return { code: 'message-too-large', message: `A message from ${host} was over ${bytesText(MAX_MESSAGE_BYTES)} (the most one message may hold); the connection was closed there.` };
  }
  const close = err as { code?: unknown; reason?: unknown };
  if (typeof close.code === 'number') {
    return { code: 'connection-closed', message: `The connection to ${host} closed: ${closeText(close.code, typeof close.reason === 'string' ? close.reason : '')}.` };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'protocol-error', message: `The subscription with ${host} broke: ${message.slice(0, 300)}.` };
}
