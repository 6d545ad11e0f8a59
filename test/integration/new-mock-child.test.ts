/**
 * New Mock samples in an importer child, never on the supervisor's loop (issue 12 item 6): the real
 * app (`parley ui`) makes a mock of a generated definition of 1,000 operations while a page's bus
 * pings are answered; kill -9 of the sampling child fails that New Mock with a clear error, writes
 * nothing, and the next New Mock works; a New Mock past its deadline is stopped with
 * `mock-new-too-slow`, nothing written, no child left.
 * dist/ must be built first (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Peer } from '../../protocol/peer.js';
import { validateInterpreted } from '../../protocol/validate-browser.js';
import { webSocketTransport } from '../../processes/supervisor/ui-server.js';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { MockService } from '../../processes/supervisor/mocks/mock-service.js';
import { startApp, type RunningApp } from '../support/app.js';
import { bigOpenApi } from '../support/big-openapi.js';
import { projectWithDefinition } from '../support/big-api-project.js';
import { childrenOf } from '../support/processes.js';
import { until } from '../support/until.js';

const OPERATIONS = 1000;

let app: RunningApp;
let ws: WebSocket;
let page: Peer;
let dir: string;
let project: string;
let apiId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-newmock-it-'));
  project = join(dir, 'big');
  ({ apiId } = await projectWithDefinition(project, 'Big', bigOpenApi(OPERATIONS)));
  app = await startApp([]);
  const url = new URL(app.url);
  ws = new WebSocket(`ws://${url.host}/bus?token=${url.searchParams.get('token')}`, { headers: { origin: `http://${url.host}` } });
  page = new Peer(webSocketTransport(ws), { role: 'ui', validate: validateInterpreted });
  await page.ready;
  await page.call('project.open', { path: project });
}, 120_000);

afterAll(async () => {
  page?.close();
  await app?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const importerPids = () => childrenOf(app.child.pid!, 'importer.js');

/** CPU time a process has used, in ms (utime + stime from /proc/<pid>/stat); 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function mockFolders(): Promise<string[]> {
  return (await readdir(join(project, 'mocks')).catch(() => [] as string[])).sort();
}

describe('New Mock in a child', () => {
  it('samples a big definition in an importer child while the page\'s pings are answered', async () => {
    const job = page.call('mocks.create', { project, api: apiId, name: 'Big' });
    let finished = false;
    void job.finally(() => (finished = true)).catch(() => {});
    const pings: number[] = [];
    let sawChild = false;
    while (!finished) {
      const started = performance.now();
      await page.call('app.ping', { t: started });
      if (!finished) pings.push(performance.now() - started);
      if ((await importerPids()).length > 0) sawChild = true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const view = await job;
    expect(view.mock?.operations).toHaveLength(OPERATIONS);
    expect(view.mock?.operations[0]?.responses[0]).toMatchObject({ name: 'Default', status: 200 });
    expect(sawChild).toBe(true);
    // The bus answered while New Mock ran; the figures go to bench/README.md, not into assertions.
    expect(pings.length).toBeGreaterThan(3);
    const sorted = [...pings].sort((a, b) => a - b);
    console.log(`New Mock of ${OPERATIONS} operations: ${pings.length} pings answered meanwhile, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)} ms, slowest ${sorted.at(-1)!.toFixed(1)} ms`);
    await until(async () => (await importerPids()).length === 0);
  }, 120_000);

  it('kill -9 of the sampling child fails New Mock with a clear error and writes nothing; the next New Mock works', async () => {
    const before = await mockFolders();
    const job = page.call('mocks.create', { project, api: apiId, name: 'Killed' }).then(
      () => null,
      (err: unknown) => err,
    );
    // Mid-sampling: the child has used more CPU than its start-up takes (about 300 ms).
    const pid = await until(async () => (await importerPids()).find((p) => cpuMs(p) >= 1000), 60_000);
    process.kill(pid, 'SIGKILL');
    const failure = await job;
    expect(failure).toMatchObject({ code: 'child-died', message: expect.stringMatching(/SIGKILL.*New Mock of Big did not finish; nothing was written\./) });
    expect(await mockFolders()).toEqual(before);

    const again = await page.call('mocks.create', { project, api: apiId, name: 'Again' });
    expect(again.mock?.operations).toHaveLength(OPERATIONS);
    expect(await mockFolders()).toEqual([...before, 'Again'].sort());
  }, 180_000);
});

describe('New Mock past its deadline', () => {
  it('is stopped with mock-new-too-slow, writes nothing and leaves no child', async () => {
    const sup = await Supervisor.start({ dataDir: join(dir, 'data'), log: () => {}, services: false });
    const service = new MockService(sup, { newMockDeadlineMs: 300 });
    try {
      await sup.openProject(project, { remember: false });
      const before = await mockFolders();
      const failure = await service.create(project, apiId, 'Slow').then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toMatchObject({ code: 'mock-new-too-slow', message: expect.stringContaining('took longer than 300 ms, the most New Mock may take. Nothing was written.') });
      expect(await mockFolders()).toEqual(before);
      expect(sup.activeJobs).toEqual([]);
    } finally {
      await service.stopAll();
      await sup.shutdown();
    }
  }, 60_000);
});
