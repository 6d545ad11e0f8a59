/**
 * Process boundaries under kill -9: the supervisor restarts the sender and the checker, the
 * work in flight fails with a clear message, the next request succeeds, nothing stored is lost.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import type { SendSpec } from '../../protocol/model/exchange.js';
import type { CheckJob } from '../../protocol/model/verdict.js';

let sup: Supervisor;
let server: Server;
let base: string;
let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-sup-'));
  sup = await Supervisor.start({ dataDir: home, log: () => {}, heartbeatMs: 200, hangMs: 1000 });
  server = createServer((req, res) => {
    if (req.url === '/slow') setTimeout(() => res.end('late'), 5000);
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
  for (let i = 0; i < 100 && (child.state !== 'running' || child.pid === pid); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('supervisor and its children under kill -9', () => {
  it('the sender: in-flight send fails clearly, the sender restarts, the next send works', async () => {
    const before = sup.sender.pid;
    const inFlight = sup.sender.call('sender.send', spec('/slow'));
    await new Promise((r) => setTimeout(r, 300));
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
    // A catastrophic-backtracking pattern keeps a worker busy for the whole budget.
    const inFlight = sup.checker.call('checker.check', job('^(a+)+$', `${'a'.repeat(40)}!`));
    await new Promise((r) => setTimeout(r, 200));
    process.kill(before!, 'SIGKILL');
    await expect(inFlight).rejects.toMatchObject({ code: 'child-died', message: expect.stringContaining('checker process was stopped by SIGKILL') });
    await waitForRunning(sup.checker, before);
    await expect(sup.checker.call('checker.check', job('^a+$', 'aaa'))).resolves.toMatchObject({ kind: 'pass' });
  });

  it('a hung child misses its heartbeat, is killed and replaced', async () => {
    const before = sup.sender.pid!;
    process.kill(before, 'SIGSTOP');
    await waitForRunning(sup.sender, before);
    expect(sup.sender.pid).not.toBe(before);
    await expect(sup.sender.call('sender.send', spec('/fast'))).resolves.toMatchObject({ status: 200 });
  });

  it('nothing stored is lost: the workspace file is intact after the crashes', async () => {
    await sup.workspace.update((ws) => {
      ws.globals = [{ name: 'kept', value: 'yes', enabled: true }];
    });
    process.kill(sup.sender.pid!, 'SIGKILL');
    const text = await readFile(join(home, 'workspace.yaml'), 'utf8');
    expect(text).toContain('kept');
  });

  it('shutting down leaves no child running', async () => {
    const pids = [sup.sender.pid, sup.checker.pid].filter((p): p is number => p !== undefined);
    await waitForRunning(sup.sender, undefined);
    await sup.shutdown();
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
