/**
 * Event streams through the sender engine against a real SSE server on 127.0.0.1: rows with
 * names, ids, multi-line data, comments and retry fields; the head before any row, with the
 * jar's cookies already stored; no idle timeout after the headers; Stop and a dropped
 * connection both end as stopped (the drop with its error); gzip; 20,000 events counted exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseHead } from '../../../protocol/model/exchange.js';
import type { StreamRow } from '../../../protocol/model/stream.js';
import { startSseServer, STREAM_COOKIE, type SseServer } from '../../../test/support/sse-server.js';
import { until } from '../../../test/support/until.js';
import { closeDispatchers, send, type CookieJarPort } from './index.js';
import { sendSpec, tempDir } from './test-support/spec.js';

let server: SseServer;
const spool = tempDir();

beforeAll(async () => {
  server = await startSseServer();
});
afterAll(async () => {
  await closeDispatchers();
  await server.close();
  spool.remove();
});

/** Sends to `path`, collecting what the stream sink receives, in order. */
async function stream(path: string, options: { timeoutMs?: number; signal?: AbortSignal; jar?: CookieJarPort; onRow?: (row: StreamRow) => void } = {}) {
  const seen: ({ head: ResponseHead } | { rows: StreamRow[] })[] = [];
  const rows: StreamRow[] = [];
  const result = await send(sendSpec(`${server.url}${path}`, { timeoutMs: options.timeoutMs ?? 10_000, ...(options.jar ? { cookies: { send: false } } : {}) }), {
    spoolDir: spool.path,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.jar ? { jar: options.jar } : {}),
    stream: {
      head: (head) => seen.push({ head }),
      rows: (batch) => {
        seen.push({ rows: batch });
        rows.push(...batch);
        batch.forEach((row) => options.onRow?.(row));
      },
    },
  });
  return { result, seen, rows };
}

describe('event streams in the sender engine', () => {
  it('reads events, comments and retry fields as numbered rows, the head first', async () => {
    const { result, seen, rows } = await stream('/events?count=4');
    expect('head' in seen[0]!).toBe(true);
    expect((seen[0] as { head: ResponseHead }).head.status).toBe(200);
    expect(rows.map((r) => [r.n, r.kind, r.name, r.id, r.data])).toEqual([
      [1, 'comment', undefined, undefined, 'stream starts'],
      [2, 'retry', undefined, undefined, '3000'],
      [3, 'event', 'tock', '1', '{"n":1,"even":false,"label":"item 1"}'],
      [4, 'event', 'tick', '2', '{"n":2,"even":true,"label":"item 2"}'],
      [5, 'event', undefined, '3', 'first line\nsecond line'],
      [6, 'event', 'tick', '4', '{"n":4,"even":true,"label":"item 4"}'],
    ]);
    expect(rows.every((r) => r.at > Date.now() - 60_000 && r.at <= Date.now())).toBe(true);
    expect(result.stream).toMatchObject({ state: 'ended', total: 6, events: 4 });
    expect(result.stream!.error).toBeUndefined();
    expect(result.body.bytes.byteLength).toBe(0);
    expect(result.body.size).toBeGreaterThan(100);
  });

  it('has no idle timeout once the headers are in: keep-alive comments far apart outlast the request timeout', async () => {
    const { result, rows } = await stream('/keepalive?pings=3&every=400', { timeoutMs: 250 });
    expect(result.stream!.state).toBe('ended');
    expect(rows.map((r) => r.kind)).toEqual(['comment', 'comment', 'comment', 'event']);
    expect(rows[3]!.data).toBe('after the pings');
  });

  it('ends as stopped, without an error, when the send is cancelled (Stop)', async () => {
    const stop = new AbortController();
    const { result, rows } = await stream('/endless?every=20', { signal: stop.signal, onRow: (row) => row.n === 3 && stop.abort() });
    expect(result.stream).toMatchObject({ state: 'stopped' });
    expect(result.stream!.error).toBeUndefined();
    expect(result.stream!.total).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    // The connection is closed, so the server stops writing.
    await until(() => server.endlessClosed() >= 1);
  });

  it('ends a dropped connection as stopped, with its error and the events already received', async () => {
    const { result, rows } = await stream('/drop?after=3');
    expect(rows.map((r) => r.id)).toEqual(['1', '2', '3']);
    expect(result.stream!.state).toBe('stopped');
    expect(result.stream!.error).toEqual({ code: 'protocol-error', message: expect.stringMatching(/^The exchange with 127\.0\.0\.1:\d+ broke: the connection closed before the response was complete\.$/) });
    expect(result.stream).toMatchObject({ total: 3, events: 3 });
  });

  it('decodes a gzip-encoded stream', async () => {
    const { result, rows } = await stream('/gzip?count=5');
    expect(rows.map((r) => r.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(result.body.wireSize).toBeLessThan(result.body.size);
  });

  it('puts the stream\'s Set-Cookie into the jar before the head goes out', async () => {
    const order: string[] = [];
    const jar: CookieJarPort = {
      cookieHeader: async () => '',
      received: async (_url, setCookies) => {
        order.push(`jar ${setCookies.join()}`);
        return setCookies.map(() => ({ name: 'stream-session', domain: '127.0.0.1', path: '/', outcome: 'stored' as const }));
      },
    };
    const { result, seen } = await stream('/cookie', { jar });
    expect(order).toEqual([`jar ${STREAM_COOKIE}; Path=/; HttpOnly`]);
    expect((seen[0] as { head: ResponseHead }).head.cookies).toEqual([{ name: 'stream-session', domain: '127.0.0.1', path: '/', outcome: 'stored' }]);
    expect(result.cookies).toHaveLength(1);
  });

  it('counts 20,000 events exactly, in batches', async () => {
    const { result, seen, rows } = await stream('/many?count=20000');
    expect(result.stream).toMatchObject({ state: 'ended', total: 20_000, events: 20_000 });
    expect(rows).toHaveLength(20_000);
    expect(rows[19_999]!.n).toBe(20_000);
    expect(rows.every((r, i) => r.n === i + 1)).toBe(true);
    // Batched: far fewer hand-overs than rows, none over the batch size.
    const batches = seen.filter((s) => 'rows' in s) as { rows: StreamRow[] }[];
    expect(batches.length).toBeLessThan(20_000 / 10);
    expect(Math.max(...batches.map((b) => b.rows.length))).toBeLessThanOrEqual(1_000);
  });

  it('reads a text/event-stream response as a body when no stream sink is given', async () => {
    const result = await send(sendSpec(`${server.url}/events?count=2`), { spoolDir: spool.path });
    expect(result.stream).toBeUndefined();
    expect(new TextDecoder().decode(result.body.bytes)).toContain('id: 2');
  });
});
