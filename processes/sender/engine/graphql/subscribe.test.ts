/**
 * GraphQL subscriptions through the sender engine against real servers on 127.0.0.1: graphql-js
 * served by graphql-ws (test/support/graphql-server.ts) for a subscription's results, a
 * refused operation, Stop, a handshake refused with 401 and the jar's cookies; a bare `ws` server
 * speaking graphql-transport-ws by hand for what graphql-js never does: a close with a code mid-
 * subscription, a burst of 10,000 results counted exactly with the newest kept, a message over
 * the limit; a TCP server that never answers the handshake.
 */
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { ResponseHead, SendSpec } from '../../../../protocol/model/exchange.js';
import { STREAM_LIMITS, type StreamRow } from '../../../../protocol/model/stream.js';
import { GRAPHQL_TOKEN, startGraphqlServer, type GraphqlServer } from '../../../../test/support/graphql-server.js';
import { send, type CookieJarPort } from '../index.js';
import { sendSpec, tempDir } from '../test-support/spec.js';

let server: GraphqlServer;
let locked: GraphqlServer;
const spool = tempDir();

beforeAll(async () => {
  server = await startGraphqlServer();
  locked = await startGraphqlServer({ auth: true });
});
afterAll(async () => {
  await server.close();
  await locked.close();
  spool.remove();
});

const subscription = (query: string, variables?: Record<string, unknown>): Pick<SendSpec, 'subscription'> => ({ subscription: { query, ...(variables ? { variables } : {}) } });

async function subscribe(url: string, spec: Partial<SendSpec>, options: { stop?: AbortSignal; jar?: CookieJarPort; onRow?: (row: StreamRow) => void } = {}) {
  const heads: ResponseHead[] = [];
  const rows: StreamRow[] = [];
  const result = await send(sendSpec(url, spec), {
    spoolDir: spool.path,
    ...(options.jar ? { jar: options.jar } : {}),
    stream: {
      head: (head) => heads.push(head),
      rows: (batch) => {
        rows.push(...batch);
        batch.forEach((row) => options.onRow?.(row));
      },
      ...(options.stop ? { stop: options.stop } : {}),
    },
  });
  return { result, heads, rows };
}

describe('GraphQL subscriptions in the sender engine', () => {
  it('reads each result as a row after the 101, and ends when the server completes the operation', async () => {
    const { result, heads, rows } = await subscribe(`${server.wsUrl}/graphql`, subscription('subscription T($n: Int!) { ticks(count: $n, every: 5) }', { n: 3 }));
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatchObject({ status: 101, statusText: 'Switching Protocols' });
    expect(heads[0]!.headers.find(([n]) => n.toLowerCase() === 'sec-websocket-protocol')?.[1]).toBe('graphql-transport-ws');
    expect(heads[0]!.raw.request).toMatch(/^GET \/graphql HTTP\/1\.1\r\n/);
    expect(heads[0]!.raw.request).toContain('Sec-WebSocket-Protocol: graphql-transport-ws');
    expect(rows.map((r) => [r.n, r.kind, r.name, JSON.parse(r.data)])).toEqual([
      [1, 'event', 'next', { data: { ticks: 1 } }],
      [2, 'event', 'next', { data: { ticks: 2 } }],
      [3, 'event', 'next', { data: { ticks: 3 } }],
    ]);
    expect(result.stream).toMatchObject({ state: 'ended', total: 3, events: 3, notKept: 0 });
    expect(result.stream!.error).toBeUndefined();
    expect(result.streamHistory!.rows).toHaveLength(3);
    expect(result.body.size).toBeGreaterThan(0);
  });

  it('ends with the server\'s errors as the last row when it refuses the operation', async () => {
    const { result, rows } = await subscribe(`${server.wsUrl}/graphql`, subscription('subscription { nope }'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe('error');
    expect((JSON.parse(rows[0]!.data) as { errors: { message: string }[] }).errors[0]!.message).toContain('Cannot query field "nope"');
    expect(result.stream).toMatchObject({ state: 'ended', total: 1 });
  });

  it('stops on Stop, completing the operation, with the rows so far', async () => {
    const stop = new AbortController();
    const { result, rows } = await subscribe(`${server.wsUrl}/graphql`, subscription('subscription { ticks(count: 100000, every: 5) }'), { stop: stop.signal, onRow: (row) => row.n === 3 && stop.abort() });
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(result.stream).toMatchObject({ state: 'stopped' });
    expect(result.stream!.error).toBeUndefined();
    expect(result.stream!.total).toBe(rows.length);
  });

  it('answers a refused handshake as a response, with its status and body, and stores its cookies', async () => {
    const received: string[][] = [];
    const jar: CookieJarPort = { cookieHeader: async () => 'sid=jar-value', received: async (_url, setCookies) => (received.push(setCookies), []) };
    const refused = await subscribe(`${locked.wsUrl}/graphql`, { ...subscription('subscription { ticks(count: 1) }'), cookies: { send: true } }, { jar });
    expect(refused.heads).toHaveLength(0);
    expect(refused.result).toMatchObject({ status: 401, statusText: 'Unauthorized' });
    expect(refused.result.stream).toBeUndefined();
    expect(new TextDecoder().decode(refused.result.body.bytes)).toContain('Sign in first.');
    expect(refused.result.jarCookies).toEqual(['jar-value']);
    expect(refused.result.raw.request).toContain('sid=jar-value');
    expect(received).toEqual([['seen=1; Path=/']]);

    const signedIn = await subscribe(`${locked.wsUrl}/graphql`, { ...subscription('subscription { ticks(count: 1) }'), headers: [['Authorization', `Bearer ${GRAPHQL_TOKEN}`]] });
    expect(signedIn.result.status).toBe(101);
    expect(signedIn.rows.map((r) => r.data)).toEqual(['{"data":{"ticks":1}}']);
  });

  it('fails before any row when nothing listens, and when the handshake is never answered, within the timeout', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(subscribe(`ws://127.0.0.1:${port}/graphql`, subscription('subscription { ticks(count: 1) }'))).rejects.toMatchObject({ code: 'connect-failed' });

    const sockets: Socket[] = [];
    const silent: NetServer = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}/graphql`;
      await expect(subscribe(url, { ...subscription('subscription { ticks(count: 1) }'), timeoutMs: 300 })).rejects.toMatchObject({ code: 'timeout', message: expect.stringContaining('within 300 ms') });
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('GraphQL subscriptions against a hand-driven graphql-transport-ws server', () => {
  let wss: WebSocketServer;
  let url: string;
  /** What the server does once the client subscribes, by the operation's name. */
  const behaviours = new Map<string, (socket: ServerSocket, id: string) => void>();

  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (protocols) => (protocols.has('graphql-transport-ws') ? 'graphql-transport-ws' : false) });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/graphql`;
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: string; payload?: { operationName?: string } };
        if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
        if (message.type === 'subscribe') behaviours.get(message.payload?.operationName ?? '')?.(socket, message.id!);
      });
    });
  });
  afterAll(async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  const next = (id: string, n: number) => JSON.stringify({ type: 'next', id, payload: { data: { n } } });

  it('ends as stopped with the close code and reason when the server closes mid-subscription', async () => {
    behaviours.set('Closing', (socket, id) => {
      socket.send(next(id, 1));
      setTimeout(() => socket.close(1011, 'the database went away'), 20);
    });
    const { result, rows } = await subscribe(url, { subscription: { query: 'subscription Closing { n }', operationName: 'Closing' } });
    expect(rows).toHaveLength(1);
    expect(result.stream).toMatchObject({ state: 'stopped', error: { code: 'connection-closed', message: 'The connection to ' + new URL(url).host + ' closed: 1011 (internal server error): "the database went away".' } });
  });

  it('counts a burst of 10,000 results exactly and keeps the first and the newest, as event streams do', async () => {
    behaviours.set('Burst', (socket, id) => {
      for (let n = 1; n <= 10_000; n++) socket.send(next(id, n));
      socket.send(JSON.stringify({ type: 'complete', id }));
    });
    let seen = 0;
    const { result } = await subscribe(url, { subscription: { query: 'subscription Burst { n }', operationName: 'Burst' } }, { onRow: () => seen++ });
    expect(seen).toBe(10_000);
    const { first, last } = STREAM_LIMITS.finished;
    expect(result.stream).toMatchObject({ state: 'ended', total: 10_000, events: 10_000, notKept: 10_000 - first - last });
    expect(result.stream!.rows[0]!.n).toBe(1);
    expect(result.stream!.rows.at(-1)).toMatchObject({ n: 10_000, data: '{"data":{"n":10000}}' });
  });

  it('closes the connection on a message over 32 MiB and says so, memory bounded by the limit', async () => {
    behaviours.set('Huge', (socket, id) => {
      socket.send(next(id, 1));
      socket.send(JSON.stringify({ type: 'next', id, payload: { data: { blob: 'x'.repeat(STREAM_LIMITS.finished.bytes + 1024) } } }));
    });
    const { result, rows } = await subscribe(url, { subscription: { query: 'subscription Huge { n }', operationName: 'Huge' } });
    expect(rows).toHaveLength(1);
    expect(result.stream).toMatchObject({ state: 'stopped', error: { code: 'message-too-large' } });
    expect(result.stream!.error!.message).toContain('over 32 MiB');
  });

  it('refuses a server that accepts the socket without the graphql-ws subprotocol', async () => {
    const plain = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => false });
    await new Promise<void>((resolve) => plain.once('listening', () => resolve()));
    try {
      const target = `ws://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
      await expect(subscribe(target, subscription('subscription { n }'))).rejects.toMatchObject({ code: 'protocol-error' });
    } finally {
      for (const client of plain.clients) client.terminate();
      await new Promise((resolve) => plain.close(resolve));
    }
  });
});
