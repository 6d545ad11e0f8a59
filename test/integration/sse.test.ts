/**
 * Event streams through the real supervisor and sender process against a real SSE server on
 * 127.0.0.1: the head before any row and the stream's cookie in the jar by then; rows with the
 * true count; Stop ends as stopped (never an error), a dropped connection too, with its error and
 * the events received, and a kill -9 of the sender mid-stream with its error and the rows that arrived; no idle timeout after the headers; 20,000 events with the response, the
 * HTTP Log and History each keeping exactly their limits; the 32 MB and 1 MB caps; History and
 * the HTTP Log keeping the stream as a multi-message exchange; HAR export, Copy as cURL with -N,
 * a refused re-send of a streamed row; and the Query tab over the kept events.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { Handlers } from '../../protocol/peer.js';
import type { ReqOf, ResOf } from '../../protocol/messages.js';
import type { SendProgress } from '../../protocol/model/exchange.js';
import type { Request } from '../../protocol/model/request.js';
import { unpackRows, type StreamRow } from '../../protocol/model/stream.js';
import { FORWARD_MS, PACE_TIMEOUT_MS } from '../../processes/supervisor/send/stream-session.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';
import { startSseServer, STREAM_COOKIE, type SseServer } from '../support/sse-server.js';
import { until } from '../support/until.js';

let sup: Supervisor;
let handlers: Handlers;
let call: UiCall;
let server: SseServer;
let projectDir: string;
let apiId: string;
const MB = 1024 * 1024;

beforeAll(async () => {
  const home = await mkdtemp(join(tmpdir(), 'parley-sse-'));
  projectDir = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, log: () => {} });
  handlers = uiHandlers(sup);
  call = handlerCaller(handlers);
  server = await startSseServer();
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Streams', baseUrl: server.url })).id;
});

afterAll(async () => {
  await sup?.shutdown();
  await server?.close();
});

async function newRequest(url: string, patch: Partial<Request> = {}): Promise<Request> {
  const created = await call('request.create', { project: projectDir, parent: apiId, name: `r${Math.random()}`, method: 'GET', url });
  return call('request.save', { project: projectDir, request: { ...created, ...patch } });
}

interface Streamed {
  progress: SendProgress[];
  rows: StreamRow[];
  /** The stream's id, once its head came. */
  id: () => string | undefined;
  done: Promise<ResOf<'request.send'>>;
}

/** `request.send` as the page calls it, collecting its chunks; `onProgress` sees each as it comes. */
function send(request: Request, onProgress?: (p: SendProgress) => void, signal?: AbortSignal): Streamed {
  const progress: SendProgress[] = [];
  const rows: StreamRow[] = [];
  const handler = handlers['request.send']!;
  const payload: ReqOf<'request.send'> = { project: projectDir, request };
  const done = Promise.resolve(
    handler(payload, {
      signal: signal ?? new AbortController().signal,
      chunk: (p) => {
        progress.push(p);
        if (p.kind === 'batch') rows.push(...unpackRows(p.batch));
        onProgress?.(p);
      },
    }),
  );
  return { progress, rows, id: () => progress.find((p) => p.kind === 'head')?.stream, done };
}

describe('event streams through the supervisor', () => {
  it('streams the head, then the rows with the true counts, and answers with the ended stream; no contract chip', async () => {
    const s = send(await newRequest('/events?count=5&every=30'));
    const exchange = await s.done;
    expect(s.progress[0]).toMatchObject({ kind: 'head', head: { status: 200 } });
    expect(s.rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const last = s.progress.at(-1)!;
    expect(last).toMatchObject({ kind: 'batch', batch: { total: 7, events: 5 } });
    expect(exchange.response.stream).toMatchObject({ state: 'ended', total: 7, events: 5, notKept: 0 });
    expect(exchange.response.stream!.rows).toHaveLength(7);
    expect(exchange.verdict).toBeUndefined();
  });

  it('has the stream\'s Set-Cookie in the jar as soon as the head arrives, while the stream runs', async () => {
    let jarAtHead: string[] | undefined;
    const s = send(await newRequest('/endless?every=40&cookie=1'), (p) => {
      if (p.kind === 'head') {
        void call('cookies.list', { values: true }).then((r) => (jarAtHead = r.cookies.map((c) => `${c.name}=${c.value}`)));
      }
    });
    await until(() => jarAtHead !== undefined && s.rows.length >= 1);
    expect(jarAtHead).toContain(STREAM_COOKIE);
    expect(s.rows.length).toBeGreaterThanOrEqual(1);
    await call('request.stopStream', { stream: s.id()! });
    await s.done;
  });

  it('a page that says what it read gets each batch only after reading the one before (request.streamRead)', async () => {
    const arrived: number[] = [];
    const s = send(await newRequest('/endless?every=5'), (p) => void (p.kind === 'batch' && arrived.push(performance.now())));
    await until(() => arrived.length >= 1);
    await expect(call('request.streamRead', { stream: s.id()!, n: s.rows.at(-1)!.n })).resolves.toEqual({ open: true });
    await until(() => arrived.length >= 2);
    // The second batch is not read: the rows of the next 5 ms ticks wait for it (unpaced they go every 30 ms), until the read's deadline.
    await until(() => arrived.length >= 3, 5_000);
    expect(arrived[2]! - arrived[1]!).toBeGreaterThanOrEqual(PACE_TIMEOUT_MS - FORWARD_MS);
    await call('request.streamRead', { stream: s.id()!, n: s.rows.at(-1)!.n });
    await until(() => arrived.length >= 4);
    await call('request.stopStream', { stream: s.id()! });
    await s.done;
    await expect(call('request.streamRead', { stream: s.id()!, n: 1 })).resolves.toEqual({ open: false });
  });

  it('Stop ends the stream as stopped, never as an error, with the rows received; History and the HTTP Log keep it', async () => {
    const request = await newRequest('/endless?every=25');
    const closedBefore = server.endlessClosed();
    const s = send(request);
    await until(() => s.rows.length >= 4);
    await expect(call('request.stopStream', { stream: s.id()! })).resolves.toEqual({ stopped: true });
    const exchange = await s.done;
    const stream = exchange.response.stream!;
    expect(stream.state).toBe('stopped');
    expect(stream.error).toBeUndefined();
    expect(stream.total).toBeGreaterThanOrEqual(4);
    expect(stream.rows.map((r) => r.n)).toEqual(Array.from({ length: stream.total }, (_, i) => i + 1));
    await until(() => server.endlessClosed() > closedBefore);
    // Stopping it again finds nothing running.
    await expect(call('request.stopStream', { stream: s.id()! })).resolves.toEqual({ stopped: false });

    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.error).toBeUndefined();
    expect(entry.response!.stream).toMatchObject({ state: 'stopped', total: stream.total });
    const { rows } = await call('httpLog.list', {});
    expect(rows.find((r) => r.requestId === request.id)).toMatchObject({ status: 200, stream: { state: 'stopped', total: stream.total } });
  });

  it('a dropped connection ends as stopped, recorded with its error and the events already received', async () => {
    const request = await newRequest('/drop?after=3');
    const exchange = await send(request).done;
    expect(exchange.response.stream).toMatchObject({
      state: 'stopped',
      error: { code: 'protocol-error', message: expect.stringContaining('the connection closed before the response was complete') },
      total: 3,
      events: 3,
    });
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response!.stream!.rows.map((r) => r.id)).toEqual(['1', '2', '3']);
    expect(entry.response!.stream!.error?.code).toBe('protocol-error');
  });

  it('a kill -9 of the sender mid-stream ends the stream as stopped with the error, keeping the rows that arrived; the sender comes back', async () => {
    const request = await newRequest('/endless?every=10');
    const s = send(request);
    await until(() => s.rows.length >= 5);
    const pid = sup.sender.pid!;
    process.kill(pid, 'SIGKILL');
    const exchange = await s.done;
    const stream = exchange.response.stream!;
    expect(stream).toMatchObject({ state: 'stopped', error: { code: 'child-died', message: expect.stringMatching(/sender process was stopped by SIGKILL/) } });
    // The rows the page was sent are kept, numbered from 1 with nothing missing, and counted.
    expect(stream.rows.map((r) => r.n)).toEqual(Array.from({ length: stream.rows.length }, (_, i) => i + 1));
    expect(stream.rows.length).toBeGreaterThanOrEqual(s.rows.length);
    expect(stream.total).toBe(stream.rows.length);
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response!.stream).toMatchObject({ state: 'stopped', error: { code: 'child-died' }, total: stream.total });
    await until(() => sup.sender.state === 'running' && sup.sender.pid !== pid, 15_000);
    const again = await send(await newRequest('/events?count=2')).done;
    expect(again.response.stream).toMatchObject({ state: 'ended', events: 2 });
  });

  it('a caller that goes away mid-stream stops it: History gets the rows the sender kept', async () => {
    const request = await newRequest('/endless?every=10');
    const caller = new AbortController();
    const s = send(request, undefined, caller.signal);
    await until(() => s.rows.length >= 3);
    caller.abort();
    const exchange = await s.done;
    expect(exchange.response.stream).toMatchObject({ state: 'stopped' });
    expect(exchange.response.stream!.error).toBeUndefined();
    expect(exchange.response.stream!.total).toBeGreaterThanOrEqual(3);
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response!.stream!.total).toBe(exchange.response.stream!.total);
  });

  it('has no idle timeout once the headers are in: the request timeout governs only until them', async () => {
    const request = await newRequest('/keepalive?pings=3&every=400', { settings: { ...(await newRequest('/x')).settings, timeoutMs: 250 } });
    const exchange = await send(request).done;
    expect(exchange.response.stream).toMatchObject({ state: 'ended', total: 4, events: 1 });
  });

  it('20,000 events: the true count everywhere; the response and the HTTP Log keep the first 400 and last 4,600, History the first 400 and last 100', async () => {
    const request = await newRequest('/many?count=20000');
    const s = send(request);
    const exchange = await s.done;
    const stream = exchange.response.stream!;
    expect(stream).toMatchObject({ state: 'ended', total: 20_000, events: 20_000, notKept: 15_000 });
    const kept = stream.rows.map((r) => r.n);
    expect(kept.slice(0, 400)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(kept.slice(400)).toEqual(Array.from({ length: 4_600 }, (_, i) => 15_401 + i));
    // The page got the true total, and never more rows at once than its pane holds.
    const batches = s.progress.filter((p) => p.kind === 'batch');
    expect(batches.at(-1)).toMatchObject({ batch: { total: 20_000, events: 20_000 } });
    expect(Math.max(...batches.map((b) => b.batch.data.length))).toBeLessThanOrEqual(5_000);
    expect(s.rows.at(-1)!.n).toBe(20_000);

    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    const history = entry.response!.stream!;
    expect(history).toMatchObject({ total: 20_000, notKept: 19_500 });
    expect(history.rows.map((r) => r.n)).toEqual([...Array.from({ length: 400 }, (_, i) => i + 1), ...Array.from({ length: 100 }, (_, i) => 19_901 + i)]);

    const row = (await call('httpLog.list', {})).rows.find((r) => r.requestId === request.id)!;
    const logged = await call('httpLog.get', { id: row.id });
    expect(logged.response!.stream!.rows.map((r) => r.n)).toEqual(kept);
    expect(row.stream).toEqual({ state: 'ended', total: 20_000, events: 20_000 });
  });

  it('keeps a finished stream within 32 MB and History within 1 MB of event data, saying how many rows were not kept', async () => {
    const request = await newRequest(`/big?count=40&bytes=${MB}`);
    const exchange = await send(request).done;
    const stream = exchange.response.stream!;
    const bytes = (rows: StreamRow[]) => rows.reduce((sum, r) => sum + Buffer.byteLength(r.data) + Buffer.byteLength(r.id ?? ''), 0);
    expect(stream.total).toBe(40);
    expect(bytes(stream.rows)).toBeLessThanOrEqual(32 * MB);
    expect(stream.notKept).toBe(40 - stream.rows.length);
    expect(stream.notKept).toBeGreaterThanOrEqual(9);
    expect(stream.rows.at(-1)!.n).toBe(40);
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    // Each row is a little over 1 MB with its id: none fits History's budget, and it says so.
    expect(entry.response!.stream).toMatchObject({ total: 40, notKept: 40, rows: [] });
  });
});

describe('the HTTP Log', () => {
  it('lists every exchange of the session; exports chosen rows as HAR, a stream with its events', async () => {
    const plain = await newRequest('/json');
    await call('request.send', { project: projectDir, request: plain });
    const streamed = await newRequest('/events?count=3');
    await send(streamed).done;
    const { rows } = await call('httpLog.list', {});
    const plainRow = rows.find((r) => r.requestId === plain.id)!;
    const streamRow = rows.find((r) => r.requestId === streamed.id)!;
    expect(plainRow).toMatchObject({ method: 'GET', status: 200, url: `${server.url}/json` });
    expect(plainRow.stream).toBeUndefined();
    expect(streamRow.stream).toEqual({ state: 'ended', total: 5, events: 3 });
    // Newest first.
    expect(rows.indexOf(streamRow)).toBeLessThan(rows.indexOf(plainRow));

    const pieces: string[] = [];
    const harHandler = handlers['httpLog.har']!;
    const answer = await harHandler({ ids: [plainRow.id, streamRow.id] }, { signal: new AbortController().signal, chunk: (c) => pieces.push(c.text) });
    expect(answer).toEqual({ entries: 2 });
    type HarEntry = { request: { url: string }; response: { content: { text: string; mimeType: string } }; _eventSourceMessages: { eventId: string }[]; _parleyStream: unknown };
    const har = JSON.parse(pieces.join('')) as { log: { version: string; entries: HarEntry[] } };
    expect(har.log.version).toBe('1.2');
    const [first, second] = har.log.entries;
    expect(first!.request.url).toBe(`${server.url}/json`);
    expect(JSON.parse(first!.response.content.text)).toMatchObject({ store: { book: [{ title: 'A' }, { title: 'B' }] } });
    expect(second!.response.content.mimeType).toMatch(/^text\/event-stream/);
    expect(second!.response.content.text).toContain(': stream starts\nretry: 3000\nevent: tock\nid: 1\ndata: {"n":1');
    expect(second!._eventSourceMessages.map((m) => m.eventId)).toEqual(['1', '2', '3']);
    expect(second!._parleyStream).toEqual({ state: 'ended', total: 5, events: 3, kept: 5, notKept: 0 });
  });

  it('refuses to re-send a streamed row, re-sends any other, and copies a stream as cURL with -N', async () => {
    const { rows } = await call('httpLog.list', {});
    const streamRow = rows.find((r) => r.stream)!;
    await expect(call('httpLog.resend', { id: streamRow.id })).rejects.toMatchObject({ code: 'stream-resend-refused' });
    const plainRow = rows.find((r) => !r.stream && r.status === 200)!;
    const again = await call('httpLog.resend', { id: plainRow.id });
    expect(again.response.status).toBe(200);
    expect((await call('httpLog.list', {})).rows[0]!.url).toBe(plainRow.url);

    const { command } = await call('httpLog.curl', { id: streamRow.id });
    expect(command).toMatch(/^curl 'http:\/\/127\.0\.0\.1:\d+\/events\?count=3'/);
    expect(command.split(' \\\n  ')).toContain('-N');
    expect((await call('httpLog.curl', { id: plainRow.id })).command).not.toContain('-N');
  });

  it('copies a streamed History entry as cURL with -N', async () => {
    const exchange = await send(await newRequest('/events?count=1')).done;
    const { command } = await call('history.curl', { project: projectDir, id: exchange.id, showSecrets: false });
    expect(command.split(' \\\n  ')).toContain('-N');
  });
});

describe('the Query tab', () => {
  it('runs JSONPath and XPath 3.1 over a stream\'s kept events as one JSON document', async () => {
    const exchange = await send(await newRequest('/events?count=6')).done;
    const rows = exchange.response.stream!.rows;
    const jsonPath = await call('query.run', { language: 'jsonpath', expression: '$[?(@.event == "tick")].json.n', source: { kind: 'events', rows } });
    expect(jsonPath).toMatchObject({ format: 'json' });
    expect(JSON.parse(jsonPath.format === 'json' ? jsonPath.json : '')).toEqual([2, 4, 6]);
    const xpath = await call('query.run', { language: 'xpath', expression: 'count(?*[?json?even = false()])', source: { kind: 'events', rows } });
    expect(JSON.parse(xpath.format === 'json' ? xpath.json : '')).toEqual([2]);
  });

  it('runs over a JSON body, and XPath 3.1 over an XML body (JSONPath over XML says to choose XPath)', async () => {
    const json = await call('request.send', { project: projectDir, request: await newRequest('/json') });
    const result = await call('query.run', { language: 'xpath', expression: '?store?book?*[?price > 10]?title', source: { kind: 'body', bytes: json.response.body.bytes } });
    expect(JSON.parse(result.format === 'json' ? result.json : '')).toEqual(['B']);
    const xml = await call('request.send', { project: projectDir, request: await newRequest('/xml') });
    const bytes = xml.response.body.bytes;
    await expect(call('query.run', { language: 'xpath', expression: '//book/@price', source: { kind: 'body', bytes, syntax: 'xml' } })).resolves.toEqual({ format: 'xml', count: 1, shown: 1, items: [{ kind: 'node', text: 'price="8"' }] });
    await expect(call('query.run', { language: 'jsonpath', expression: '$', source: { kind: 'body', bytes, syntax: 'xml' } })).rejects.toMatchObject({ code: 'not-json', message: expect.stringContaining('choose XPath 3.1') });
    await expect(call('query.run', { language: 'jsonpath', expression: '$', source: { kind: 'body', bytes } })).rejects.toMatchObject({ code: 'not-json' });
  });
});
