/**
 * Process boundaries under kill -9: the supervisor restarts the sender and the checker, the
 * work in flight fails with a clear message, the next request succeeds, and what the supervisor
 * was storing from a child's work when that child died is stored whole.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { Handlers } from '../../protocol/peer.js';
import type { HistoryEntry } from '../../protocol/model/history.js';
import type { SendSpec } from '../../protocol/model/exchange.js';
import type { CheckJob } from '../../protocol/model/verdict.js';
import { until } from '../support/until.js';

let sup: Supervisor;
let server: Server;
let base: string;
let home: string;
/** Requests for /slow the test server has received: the sender's send is in flight once it grows. */
let slowArrived = 0;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-sup-'));
  sup = await Supervisor.start({ dataDir: home, log: () => {}, heartbeatMs: 200, hangMs: 1000 });
  server = createServer((req, res) => {
    if (req.url === '/slow') {
      slowArrived++;
      setTimeout(() => res.end('late'), 5000);
    }
    else res.end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await sup?.shutdown();
  server?.closeAllConnections();
  server?.close();
});

function spec(path: string): SendSpec {
  return { method: 'GET', url: `${base}${path}`, headers: [], body: { type: 'none' }, timeoutMs: 10_000, httpVersion: '1.1', followRedirects: true, maxRedirects: 5, proxy: '', caPem: '', inlineLimit: 1 << 20 };
}

async function waitForRunning(child: Supervisor['sender'], pid: number | undefined): Promise<void> {
  await until(() => child.state === 'running' && child.pid !== pid, 15_000, () => `the child is ${child.state} with pid ${child.pid} (was ${pid})`);
}

describe('supervisor and its children under kill -9', () => {
  it('the sender: in-flight send fails clearly, the sender restarts, the next send works', async () => {
    const before = sup.sender.pid;
    const arrived = slowArrived;
    const inFlight = sup.sender.call('sender.send', spec('/slow'));
    await until(() => slowArrived > arrived, 10_000, () => 'the sender never reached the test server');
    process.kill(before!, 'SIGKILL');
    await expect(inFlight).rejects.toMatchObject({ code: 'child-died', message: expect.stringMatching(/sender process was stopped by SIGKILL.*in flight.*restarted/) });
    await waitForRunning(sup.sender, before);
    expect(sup.sender.pid).not.toBe(before);
    await expect(sup.sender.call('sender.send', spec('/fast'))).resolves.toMatchObject({ status: 200 });
  });

  it('the checker: in-flight check fails clearly, the checker restarts, the next check works', async () => {
    const job = (pattern: string, body: string): CheckJob => ({
      definition: {
        fingerprint: `fp-${pattern.length}`,
        documents: [
          {
            uri: 'file:///t/openapi.json',
            document: {
              openapi: '3.0.3',
              info: { title: 't', version: '1' },
              paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string', pattern } } } } } } } },
            },
          },
        ],
      },
      request: { method: 'GET', url: 'http://h/x' },
      response: { status: 200, contentType: 'application/json', body: new TextEncoder().encode(JSON.stringify(body)) },
    });
    const before = sup.checker.pid;
    // Stopped, the checker cannot answer: the check is surely still in flight when it is killed
    // (patterns run in linear time now, so no check is slow enough to race a kill).
    process.kill(before!, 'SIGSTOP');
    const inFlight = sup.checker.call('checker.check', job('^(a+)+$', `${'a'.repeat(40)}!`));
    process.kill(before!, 'SIGKILL');
    await expect(inFlight).rejects.toMatchObject({ code: 'child-died', message: expect.stringContaining('checker process was stopped by SIGKILL') });
    await waitForRunning(sup.checker, before);
    await expect(sup.checker.call('checker.check', job('^a+$', 'aaa'))).resolves.toMatchObject({ kind: 'pass' });
  });

  it('a hung child misses its heartbeat, is killed and replaced, and is said to have been', async () => {
    const before = sup.sender.pid!;
    const said: string[] = [];
    const unlisten = sup.sender.onStatus((_state, message) => void (message && said.push(message)));
    process.kill(before, 'SIGSTOP');
    await waitForRunning(sup.sender, before);
    unlisten();
    expect(sup.sender.pid).not.toBe(before);
    expect(said.join(' ')).toMatch(/sender process was stopped by SIGKILL after it missed its heartbeat for 1 s/);
    await expect(sup.sender.call('sender.send', spec('/fast'))).resolves.toMatchObject({ status: 200 });
  });

  it('nothing stored is lost: a kill -9 of the sender while its send is written to History', async () => {
    const handlers: Handlers = uiHandlers(sup);
    const call = async <M extends keyof Handlers>(method: M, payload: Parameters<NonNullable<Handlers[M]>>[0]) =>
      (await (handlers[method] as (p: unknown, ctx: unknown) => unknown)(payload, { signal: new AbortController().signal, chunk: () => {} })) as Awaited<ReturnType<NonNullable<Handlers[M]>>>;
    const projectDir = join(home, 'project');
    await sup.openProject(projectDir, { create: true });
    const api = await call('api.create', { project: projectDir, name: 'Local', baseUrl: base });
    const request = await call('request.create', { project: projectDir, parent: api.id, name: 'fast', method: 'GET', url: '/fast' });
    const send = () => call('request.send', { project: projectDir, request });
    await send();
    await send();

    // The sender's answer is being appended to History when the sender is killed.
    const store = sup.history;
    const add = store.add.bind(store);
    let killed: number | undefined;
    store.add = (root: string, ...added: HistoryEntry[]) => {
      const writing = add(root, ...added);
      if (killed === undefined) {
        killed = sup.sender.pid!;
        process.kill(killed, 'SIGKILL');
      }
      return writing;
    };
    let third: Awaited<ReturnType<typeof send>>;
    try {
      third = await send();
    } finally {
      store.add = add;
    }
    expect(third.response.status).toBe(200);
    expect(killed).toBeDefined();

    // Every entry is there, whole, the one being written when the sender died included.
    const entries = await call('history.list', { project: projectDir, requestId: request.id });
    expect(entries).toHaveLength(3);
    expect(entries[0]!.id).toBe(third.id);
    for (const { id } of entries) expect(await call('history.get', { project: projectDir, id })).toMatchObject({ id, response: { status: 200 } });
    const historyFile = (await readdir(join(home, 'history'))).find((f) => f.endsWith('.jsonl'))!;
    const file = (await readFile(join(home, 'history', historyFile), 'utf8')).trimEnd();
    expect(file.split('\n').map((line) => (JSON.parse(line) as HistoryEntry).id).slice(-3)).toEqual([...entries].reverse().map((e) => e.id));

    // The supervisor recovers: a new sender, and the next send is stored after the others.
    await waitForRunning(sup.sender, killed);
    expect(sup.sender.pid).not.toBe(killed);
    const fourth = await send();
    expect(fourth.response.status).toBe(200);
    expect((await call('history.list', { project: projectDir, requestId: request.id })).map((e) => e.id)).toEqual([fourth.id, ...entries.map((e) => e.id)]);
  });

  it('shutting down leaves no child running', async () => {
    const pids = [sup.sender.pid, sup.checker.pid].filter((p): p is number => p !== undefined);
    await waitForRunning(sup.sender, undefined);
    await sup.shutdown();
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
