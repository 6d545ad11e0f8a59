/**
 * A WebSocket session in the sender (docs/websocket.md): the handshake (handshake.ts), then every
 * message sent and received, each ping and pong and the close as a row, kept and batched by the
 * event streams' StreamKeeper, so the Events view, History and the HTTP Log show a session with
 * the true count and the same retention as a stream. The session answers when it closes: the
 * server's close (with its code and reason) ends it; Disconnect (Stop) closes it from our side
 * with 1000; a connection cut without a close frame, or a message over MAX_MESSAGE_BYTES, ends it
 * as stopped with why. Messages and pings go out through `send` and `ping`, given to the sink once
 * the socket is open.
 */
import WebSocket from 'ws';
import { ParleyError } from '../../../../protocol/errors.js';
import type { SendResult, SendSpec } from '../../../../protocol/model/exchange.js';
import { STREAM_LIMITS, type StreamRow, type StreamState } from '../../../../protocol/model/stream.js';
import type { OutgoingSocketMessage } from '../../../../protocol/model/websocket.js';
import { RowBatcher } from '../event-stream.js';
import { StreamKeeper } from '../stream-keeper.js';
import { bytesText } from '../send-errors.js';
import type { SendOptions } from '../send.js';
import { onAnyAbort, prepareHandshake, sessionResult } from './handshake.js';
import { closeText } from './close-codes.js';

/** One message may hold as much as a finished session keeps in all (SPEC Limits, 32 MB); a larger one closes the socket (1009). */
export const MAX_MESSAGE_BYTES = STREAM_LIMITS.finished.bytes;
/** How long Disconnect waits for the server's close frame before the connection is cut. */
export const CLOSE_WAIT_MS = 2_000;

type End = { state: StreamState; error?: { code: string; message: string } };

export async function runSocket(spec: SendSpec, options: SendOptions): Promise<SendResult> {
  const protocols = spec.socket?.protocols ?? [];
  const handshake = await prepareHandshake({ spec, protocols, maxPayload: MAX_MESSAGE_BYTES }, { ...(options.signal ? { signal: options.signal } : {}), ...(options.jar ? { jar: options.jar } : {}) });
  const host = handshake.url.host;
  const { socket, answer } = handshake.start((url, asked, opts) => new WebSocket(url, asked, opts));

  // Listened to from the start: a server may send (or close) as soon as it is open, while the
  // handshake's answer is still being made into the head. Rows wait until the head has gone.
  const keeper = new StreamKeeper(options.stream?.batch?.bind(options.stream));
  let early: StreamRow[] | undefined = [];
  const batcher = new RowBatcher((rows: StreamRow[]) => {
    if (early) early.push(...rows);
    else keeper.add(rows);
    options.stream?.rows?.(rows);
  });
  let bytes = 0;
  let closedBy: 'client' | 'server' = 'server';
  let socketError: Error | undefined;
  let finish!: (end: End) => void;
  const ended = new Promise<End>((resolve) => (finish = resolve));

  socket.on('message', (data: Buffer, isBinary: boolean) => {
    bytes += data.length;
    if (isBinary) batcher.add('received', data.toString('base64'), 'binary');
    else batcher.add('received', data.toString('utf8'));
  });
  socket.on('ping', (data: Buffer) => batcher.add('ping', data.toString('utf8')));
  socket.on('pong', (data: Buffer) => batcher.add('pong', data.toString('utf8')));
  // ws reports why it closed the socket itself (a message over maxPayload) as an error before the close.
  socket.on('error', (err) => void (socketError ??= err));
  socket.once('close', (code: number, reason: Buffer) => {
    batcher.add('close', closeText(code, reason.toString('utf8')), closedBy);
    finish(endOf(code, closedBy, socketError, host));
  });

  /** Sends one message; its row is written once ws has put it on the socket. */
  const send = (message: OutgoingSocketMessage): Promise<void> =>
    new Promise((resolve, reject) => {
      if (socket.readyState !== WebSocket.OPEN) {
        reject(new ParleyError('socket-closed', `The connection to ${host} is closed: the message was not sent.`));
        return;
      }
      const binary = message.binary !== undefined;
      const data = message.binary ?? message.text ?? '';
      socket.send(data, { binary }, (err) => {
        if (err) {
          reject(new ParleyError('socket-closed', `The message could not be sent to ${host}: the connection closed.`));
          return;
        }
        bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
        if (message.binary !== undefined) batcher.add('sent', Buffer.from(message.binary.buffer, message.binary.byteOffset, message.binary.byteLength).toString('base64'), 'binary');
        else batcher.add('sent', message.text ?? '');
        resolve();
      });
    });

  /**
   * A ping of ours: its row (named `client`, as a close from our side is) once it is on the
   * socket; its payload numbers it, so the pong that echoes it is told apart.
   */
  let pings = 0;
  const ping = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (socket.readyState !== WebSocket.OPEN) {
        reject(new ParleyError('socket-closed', `The connection to ${host} is closed: the ping was not sent.`));
        return;
      }
      const payload = `ping ${++pings}`;
      socket.ping(payload, undefined, (err) => {
        if (err) {
          reject(new ParleyError('socket-closed', `The ping could not be sent to ${host}: the connection closed.`));
          return;
        }
        batcher.add('ping', payload, 'client');
        resolve();
      });
    });

  let answered;
  try {
    answered = await answer;
  } catch (err) {
    socket.removeAllListeners();
    throw err;
  }
  if (answered.kind === 'refused') return answered.result;
  const { head, timing, hopTiming } = answered;
  const openedAt = performance.now();
  options.stream?.head(head, timing, hopTiming);
  batcher.flush();
  keeper.add(early);
  early = undefined;
  options.stream?.onTaken?.(() => keeper.taken());
  options.stream?.onSend?.(send);
  options.stream?.onPing?.(ping);

  // Disconnect (Stop) or a cancel: a close from our side, cut if the server does not answer it.
  const stops = [options.signal, options.stream?.stop].filter((s): s is AbortSignal => s !== undefined);
  let cut: NodeJS.Timeout | undefined;
  const disconnect = () => {
    if (socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) return;
    closedBy = 'client';
    socket.close(1000);
    cut = setTimeout(() => socket.terminate(), CLOSE_WAIT_MS);
  };
  const unlisten = onAnyAbort(stops, disconnect);
  const end = await ended;
  clearTimeout(cut);
  unlisten();
  batcher.flush();
  return sessionResult(answered, openedAt, bytes, keeper.end(end.state, end.error));
}

/**
 * How a session ended: closed by Disconnect, stopped; closed by the server with a close frame,
 * ended (the close row says its code and reason); cut without one (1006), or by ws over a
 * message too large (1009), stopped with why.
 */
function endOf(code: number, by: 'client' | 'server', socketError: Error | undefined, host: string): End {
  if (socketError && (socketError as { code?: unknown }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return { state: 'stopped', error: { code: 'message-too-large', message: `A message from ${host} was over ${bytesText(MAX_MESSAGE_BYTES)} (the most one message may hold); the connection was closed there.` } };
  }
  if (by === 'client') return { state: 'stopped' };
  if (code === 1006) return { state: 'stopped', error: { code: 'connection-closed', message: `The connection to ${host} dropped without a close frame (1006).` } };
  return { state: 'ended' };
}
