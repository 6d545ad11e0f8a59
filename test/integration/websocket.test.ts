/**
 * WebSocket requests through the real supervisor and sender against a `ws` server on 127.0.0.1
 * (docs/websocket.md): a request of the WebSocket kind saved as its own file and shown in the tree;
 * a session opened with its headers, auth and subprotocols, messages sent (text with `${...}`,
 * JSON, binary from a project file) and echoed, Disconnect; the session kept in History and the
 * HTTP Log as one exchange with its messages, the token masked; a kill -9 of the sender mid-session
 * ending it with a clear message, the rows kept and the connection closed.
 */
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { SendProgress } from '../../protocol/model/exchange.js';
import type { Exchange } from '../../protocol/model/history.js';
import { unpackRows, type StreamRow } from '../../protocol/model/stream.js';
import type { WebSocketRequest } from '../../protocol/model/websocket.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';
import { until } from '../support/until.js';

const TOKEN = 'ws-t0ken-6f1c2b';

let sup: Supervisor;
let call: UiCall;
let wss: WebSocketServer;
let wsBase: string;
let projectDir: string;
let apiId: string;
/** What the server saw of each handshake. */
const handshakes: { authorization?: string; protocol?: string; cookie?: string }[] = [];

beforeAll(async () => {
  const home = await mkdtemp(join(tmpdir(), 'parley-websocket-'));
  projectDir = join(home, 'project');
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (asked) => (asked.has('echo.v1') ? 'echo.v1' : false) });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wsBase = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on('connection', (socket, req) => {
    handshakes.push({ ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), protocol: socket.protocol, ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}) });
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  sup = await Supervisor.start({ dataDir: home, log: () => {} });
  call = handlerCaller(uiHandlers(sup));
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Live', baseUrl: '' })).id;
  await call('project.setProperties', { project: projectDir, properties: [{ name: 'who', value: 'Ada', enabled: true }, { name: 'token', value: TOKEN, enabled: true }] });
});

afterAll(async () => {
  await sup?.shutdown();
  for (const client of wss?.clients ?? []) client.terminate();
  await new Promise((resolve) => wss?.close(resolve));
});

async function socketRequest(patch: Partial<WebSocketRequest> = {}): Promise<WebSocketRequest> {
  const created = await call('request.createOfKind', { project: projectDir, parent: apiId, kind: 'websocket', name: `ws${Math.random()}`, url: `${wsBase}/echo` });
  return (await call('request.save', { project: projectDir, request: { ...(created as WebSocketRequest), ...patch } })) as WebSocketRequest;
}

/** `request.send` as the page calls it (Connect), collecting its progress. */
function connect(request: WebSocketRequest) {
  const progress: SendProgress[] = [];
  const rows: StreamRow[] = [];
  const done = Promise.resolve(
    uiHandlers(sup)['request.send']!({ project: projectDir, request }, {
      signal: new AbortController().signal,
      chunk: (p: SendProgress) => {
        progress.push(p);
        if (p.kind === 'batch') rows.push(...unpackRows(p.batch));
      },
    }) as Promise<Exchange>,
  );
  const stream = () => progress.find((p) => p.kind === 'head')?.stream;
  return { progress, rows, done, stream, opened: () => until(() => stream() !== undefined) };
}

describe('WebSocket requests', () => {
  it('is a request kind of its own: its own file, WS in the tree, read back as written', async () => {
    const request = await socketRequest({ subprotocols: ['echo.v1'], messages: [{ name: 'hello', format: 'text', text: 'hi ${who}', file: '' }] });
    const files = await readdir(join(projectDir, 'apis', 'Live', 'requests'));
    expect(files).toContain(`${request.name}.websocket.yaml`);
    const tree = await call('project.tree', { project: projectDir });
    expect(tree.items.find((i) => i.id === request.id)).toMatchObject({ kind: 'request', method: 'WS', requestKind: 'websocket' });
    expect(await call('request.get', { project: projectDir, id: request.id })).toEqual(request);
  });

  it('connects with its headers, auth and subprotocols, sends text, JSON and binary messages, sees their echoes, and disconnects', async () => {
    await writeFile(join(projectDir, 'blob.bin'), Buffer.from([1, 2, 3, 250]));
    const request = await socketRequest({ subprotocols: ['echo.v1'], auth: { type: 'bearer', token: '${token}' }, headers: [{ name: 'X-Client', value: 'parley', enabled: true }] });
    const s = connect(request);
    await s.opened();
    expect(s.progress[0]).toMatchObject({ kind: 'head', head: { status: 101 } });
    expect(handshakes.at(-1)).toMatchObject({ authorization: `Bearer ${TOKEN}`, protocol: 'echo.v1' });
    const id = s.stream()!;
    await call('request.socketSend', { stream: id, message: { format: 'text', text: 'hi ${who}', file: '' } });
    await call('request.socketSend', { stream: id, message: { format: 'json', text: '{ "n": 1 }', file: '' } });
    await call('request.socketSend', { stream: id, message: { format: 'binary', text: '', file: 'blob.bin' } });
    await expect(call('request.socketSend', { stream: id, message: { format: 'json', text: '{ nope', file: '' } })).rejects.toMatchObject({ code: 'bad-input', message: expect.stringContaining('not JSON') });
    await expect(call('request.socketSend', { stream: id, message: { format: 'text', text: '${missing}', file: '' } })).rejects.toMatchObject({ code: 'unresolved' });
    await expect(call('request.socketSend', { stream: id, message: { format: 'binary', text: '', file: '../outside.bin' } })).rejects.toMatchObject({ code: 'path-escape' });
    await until(() => s.rows.filter((r) => r.kind === 'received').length === 3);
    await call('request.stopStream', { stream: id });
    const exchange = await s.done;
    expect(exchange.response.stream!.rows.map((r) => [r.kind, r.data])).toEqual([
      ['sent', 'hi Ada'],
      ['received', 'hi Ada'],
      ['sent', '{ "n": 1 }'],
      ['received', '{ "n": 1 }'],
      ['sent', 'AQID+g=='],
      ['received', 'AQID+g=='],
      ['close', '1000 (normal closure)'],
    ]);
    expect(exchange.response.stream).toMatchObject({ state: 'stopped', events: 6 });
    await expect(call('request.socketSend', { stream: id, message: { format: 'text', text: 'late', file: '' } })).rejects.toMatchObject({ code: 'socket-closed' });

    // History and the HTTP Log keep the session as one exchange with its messages; the token is masked.
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.request.url).toBe(`${wsBase}/echo`);
    expect(entry.response!.stream).toMatchObject({ state: 'stopped', events: 6, total: 7 });
    expect(JSON.stringify(entry)).not.toContain(TOKEN);
    const log = await call('httpLog.list', {});
    const logged = log.rows.find((row) => row.requestId === request.id)!;
    expect(logged.stream).toEqual({ state: 'stopped', total: 7, events: 6 });
    // HAR export lists the messages as Chromium writes a WebSocket's.
    const pieces: string[] = [];
    await uiHandlers(sup)['httpLog.har']!({ ids: [logged.id] }, { signal: new AbortController().signal, chunk: (c: { text: string }) => pieces.push(c.text) });
    const har = JSON.parse(pieces.join('')) as { log: { entries: { _webSocketMessages: { type: string; opcode: number; data: string }[] }[] } };
    expect(har.log.entries[0]!._webSocketMessages.map((m) => [m.type, m.opcode, m.data])).toEqual([
      ['send', 1, 'hi Ada'],
      ['receive', 1, 'hi Ada'],
      ['send', 1, '{ "n": 1 }'],
      ['receive', 1, '{ "n": 1 }'],
      ['send', 2, 'AQID+g=='],
      ['receive', 2, 'AQID+g=='],
    ]);
    expect(pieces.join('')).not.toContain(TOKEN);
  });

  it('answers a handshake refused by the server (no subprotocol it speaks) with the reason', async () => {
    const request = await socketRequest({ subprotocols: ['mqtt'] });
    await expect(call('request.send', { project: projectDir, request })).rejects.toMatchObject({ code: 'protocol-error', message: expect.stringContaining('with none of the subprotocols asked for (mqtt)') });
  });

  it('a kill -9 of the sender mid-session ends it with a clear message, keeps the rows in History, and closes the connection', async () => {
    const request = await socketRequest();
    const s = connect(request);
    await s.opened();
    await call('request.socketSend', { stream: s.stream()!, message: { format: 'text', text: 'before', file: '' } });
    await until(() => s.rows.some((r) => r.kind === 'received'));
    const pid = sup.sender.pid!;
    process.kill(pid, 'SIGKILL');
    const exchange = await s.done;
    expect(exchange.response.stream).toMatchObject({ state: 'stopped', error: { code: 'child-died', message: expect.stringMatching(/sender process was stopped by SIGKILL/) } });
    expect(exchange.response.stream!.rows.map((r) => r.data)).toEqual(['before', 'before']);
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response!.stream!.rows.map((r) => r.data)).toEqual(['before', 'before']);
    await until(() => wss.clients.size === 0);
    await until(() => sup.sender.state === 'running' && sup.sender.pid !== pid, 15_000);
  });
});
