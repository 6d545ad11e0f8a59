/**
 * WebSocket sessions through the sender engine against a real `ws` server on 127.0.0.1: text and
 * binary echoed, the subprotocol the server chose, pings, a server that closes with a code and a
 * reason, Disconnect, a server that never answers the handshake, a handshake refused with a
 * status, a burst of 10,000 messages counted exactly with the newest kept, and a message of
 * 100 MB refused at the limit with memory bounded.
 */
import { createServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { ResponseHead, SendSpec } from '../../../../protocol/model/exchange.js';
import { STREAM_LIMITS, type StreamRow } from '../../../../protocol/model/stream.js';
import type { OutgoingSocketMessage } from '../../../../protocol/model/websocket.js';
import { until } from '../../../../test/support/until.js';
import { send } from '../index.js';
import { sendSpec, tempDir } from '../test-support/spec.js';

const spool = tempDir();
let wss: WebSocketServer;
let base: string;
/** What the server does on connection, by the path asked for. */
const behaviours = new Map<string, (socket: ServerSocket) => void>();

beforeAll(async () => {
  wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (asked) => (asked.has('chat.v2') ? 'chat.v2' : asked.has('chat.v1') ? 'chat.v1' : false),
    verifyClient: ({ req }, done) => (req.url === '/refused' ? done(false, 403, 'Not for you.', { 'x-why': 'test' }) : done(true)),
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  base = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on('connection', (socket, req) => {
    const behaviour = behaviours.get(req.url ?? '/');
    if (behaviour) return behaviour(socket);
    // Echo: text as text, binary as binary.
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
});
afterAll(async () => {
  for (const client of wss.clients) client.terminate();
  await new Promise((resolve) => wss.close(resolve));
  spool.remove();
});

/** Opens a session to `path`; `session.send` and `session.ping` once it is open, `session.disconnect()` is Disconnect. */
function open(path: string, spec: Partial<SendSpec> = {}) {
  const heads: ResponseHead[] = [];
  const rows: StreamRow[] = [];
  const stop = new AbortController();
  let sender: ((message: OutgoingSocketMessage) => Promise<void>) | undefined;
  let pinger: (() => Promise<void>) | undefined;
  const result = send(sendSpec(`${base}${path}`, { socket: { protocols: [] }, ...spec }), {
    spoolDir: spool.path,
    stream: {
      head: (head) => heads.push(head),
      rows: (batch) => rows.push(...batch),
      stop: stop.signal,
      onSend: (fn) => void (sender = fn),
      onPing: (fn) => void (pinger = fn),
    },
  });
  return {
    heads,
    rows,
    result,
    opened: () => until(() => sender !== undefined),
    send: (message: OutgoingSocketMessage) => sender!(message),
    ping: () => pinger!(),
    disconnect: () => stop.abort(),
  };
}

describe('WebSocket sessions in the sender engine', () => {
  it('echoes text and binary, shows the 101 with the subprotocol the server chose, and closes on Disconnect', async () => {
    const session = open('/', { socket: { protocols: ['chat.v1', 'chat.v2'] } });
    await session.opened();
    expect(session.heads[0]).toMatchObject({ status: 101, statusText: 'Switching Protocols' });
    expect(session.heads[0]!.headers.find(([n]) => n.toLowerCase() === 'sec-websocket-protocol')?.[1]).toBe('chat.v2');
    expect(session.heads[0]!.raw.request).toContain('Sec-WebSocket-Protocol: chat.v1,chat.v2');
    const received = () => session.rows.filter((r) => r.kind === 'received').length;
    await session.send({ text: '{"hello":"there"}' });
    await until(() => received() === 1);
    await session.send({ binary: new Uint8Array([0, 1, 2, 255]) });
    await until(() => received() === 2);
    session.disconnect();
    const result = await session.result;
    expect(result.stream!.rows.map((r) => [r.kind, r.name, r.data])).toEqual([
      ['sent', undefined, '{"hello":"there"}'],
      ['received', undefined, '{"hello":"there"}'],
      ['sent', 'binary', 'AAEC/w=='],
      ['received', 'binary', 'AAEC/w=='],
      ['close', 'client', '1000 (normal closure)'],
    ]);
    expect(result.stream).toMatchObject({ state: 'stopped', total: 5, events: 4 });
    expect(result.stream!.error).toBeUndefined();
    await expect(session.send({ text: 'late' })).rejects.toMatchObject({ code: 'socket-closed' });
  });

  it('ends with the close code and reason the server sent, after its pings', async () => {
    behaviours.set('/closing', (socket) => {
      socket.ping('are you there');
      socket.send('last words');
      setTimeout(() => socket.close(4001, 'session expired'), 30);
    });
    const { result } = open('/closing');
    const ended = await result;
    expect(ended.stream!.rows.map((r) => [r.kind, r.name, r.data])).toEqual([
      ['ping', undefined, 'are you there'],
      ['received', undefined, 'last words'],
      ['close', 'server', '4001: "session expired"'],
    ]);
    expect(ended.stream).toMatchObject({ state: 'ended', events: 1 });
  });

  it("pings on demand: each ping a row once on the socket, the server's pong a row, pings and pongs not counted as messages", async () => {
    const session = open('/');
    await session.opened();
    await session.ping();
    await until(() => session.rows.some((r) => r.kind === 'pong'));
    await session.ping();
    await until(() => session.rows.filter((r) => r.kind === 'pong').length === 2);
    session.disconnect();
    const result = await session.result;
    expect(result.stream!.rows.map((r) => [r.kind, r.name, r.data])).toEqual([
      ['ping', 'client', 'ping 1'],
      ['pong', undefined, 'ping 1'],
      ['ping', 'client', 'ping 2'],
      ['pong', undefined, 'ping 2'],
      ['close', 'client', '1000 (normal closure)'],
    ]);
    expect(result.stream).toMatchObject({ total: 5, events: 0 });
    await expect(session.ping()).rejects.toMatchObject({ code: 'socket-closed', message: expect.stringContaining('the ping was not sent') });
  });

  it('ends as stopped with why when the connection drops without a close frame', async () => {
    behaviours.set('/drop', (socket) => {
      socket.send('one');
      setTimeout(() => socket.terminate(), 30);
    });
    const ended = await open('/drop').result;
    expect(ended.stream).toMatchObject({ state: 'stopped', error: { code: 'connection-closed', message: expect.stringContaining('dropped without a close frame (1006)') } });
  });

  it('answers a refused handshake as a response with its status, headers and body', async () => {
    const result = await open('/refused').result;
    expect(result).toMatchObject({ status: 403, statusText: 'Forbidden' });
    expect(result.stream).toBeUndefined();
    expect(result.headers).toContainEqual(['x-why', 'test']);
    expect(new TextDecoder().decode(result.body.bytes)).toBe('Not for you.');
  });

  it('gives up on a server that never answers the handshake, within the timeout', async () => {
    const sockets: Socket[] = [];
    const silent: NetServer = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
      await expect(send(sendSpec(url, { socket: { protocols: [] }, timeoutMs: 300 }), { spoolDir: spool.path })).rejects.toMatchObject({ code: 'timeout', message: expect.stringContaining('within 300 ms') });
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('counts a burst of 10,000 messages exactly, keeping the first and the newest', async () => {
    behaviours.set('/burst', (socket) => {
      for (let n = 1; n <= 10_000; n++) socket.send(`{"n":${n}}`);
      socket.close(1000, 'done');
    });
    const session = open('/burst');
    const ended = await session.result;
    expect(session.rows.filter((r) => r.kind === 'received')).toHaveLength(10_000);
    const { first, last } = STREAM_LIMITS.finished;
    expect(ended.stream).toMatchObject({ state: 'ended', total: 10_001, events: 10_000, notKept: 10_001 - first - last });
    expect(ended.stream!.rows.at(-2)).toMatchObject({ kind: 'received', data: '{"n":10000}' });
    expect(ended.stream!.rows.at(-1)).toMatchObject({ kind: 'close', data: '1000 (normal closure): "done"' });
  });

  it('closes the connection on a message of 100 MB and says so, without holding it', async () => {
    behaviours.set('/huge', (socket) => {
      socket.send('small first');
      socket.send(Buffer.alloc(100 * 1024 * 1024, 0x61));
    });
    const before = process.memoryUsage().rss;
    const ended = await open('/huge').result;
    expect(ended.stream).toMatchObject({ state: 'stopped', error: { code: 'message-too-large', message: expect.stringContaining('over 32 MiB') } });
    expect(ended.stream!.rows.filter((r) => r.kind === 'received').map((r) => r.data)).toEqual(['small first']);
    // The client never buffered the message: ws refuses it from its frame's length. (The server's own 100 MB is counted too.)
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
  });
});
