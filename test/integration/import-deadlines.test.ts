/**
 * Import deadlines through the supervisor and a real importer child (issue 11, item 7), with
 * deadlines shortened through the supervisor's options: a server on 127.0.0.1 sending one byte
 * at a time fails the job at the fetch deadline, naming the URL and the deadline; an importer
 * that cannot answer at all (SIGSTOPped) is killed once the job's deadline and its grace have
 * passed. Either way the job ends, its importer process is gone and no project is left behind.
 * dist/ must be built first (`node scripts/build.mjs`).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJobDeadlines } from '../../processes/supervisor/imports/import-service.js';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import type { SecretStore } from '../../processes/supervisor/store/secrets.js';
import type { ReqOf } from '../../protocol/messages.js';
import { alive } from '../support/processes.js';
import { trickle } from '../support/trickle.js';
import { until } from '../support/until.js';

const memorySecrets: SecretStore = { get: async () => null, set: async () => {}, delete: async () => {}, unavailableReason: async () => null };

let home: string;
let server: Server;
let base: string;
const trickling = new Set<ServerResponse>();

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-import-deadlines-'));
  server = createServer((_req, res) => trickle(res, trickling));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 30_000);

const supervisors: Supervisor[] = [];
afterAll(async () => {
  await Promise.all(supervisors.map((sup) => sup.shutdown()));
  server?.closeAllConnections();
  server?.close();
});

/** A headless supervisor of its own (no sender or checker), with the deadlines a test needs. */
async function supervisor(importDeadlines: ImportJobDeadlines): Promise<Supervisor> {
  const sup = await Supervisor.start({ dataDir: await mkdtemp(join(home, 'data-')), secrets: memorySecrets, services: false, importDeadlines });
  supervisors.push(sup);
  return sup;
}

function run(sup: Supervisor, req: ReqOf<'import.run'>) {
  return sup.imports.run(req, { signal: new AbortController().signal, chunk: () => {} });
}

describe('import deadlines, supervisor and importer process', () => {
  it('a trickling definition fails the job at the fetch deadline, naming the URL and the deadline', async () => {
    // The job's own deadline far away, so only the fetch's can end it, however slow the machine.
    const sup = await supervisor({ fetchMs: 500, jobMs: 120_000 });
    const into = join(home, 'never');
    await expect(run(sup, { source: { kind: 'url', url: `${base}/openapi.yaml` }, format: 'auto', options: {}, into: { kind: 'new', path: into } })).rejects.toMatchObject({
      code: 'import-fetch-deadline',
      message: `${base}/openapi.yaml was not read: it did not arrive within 500 ms, the most one document may take (the server may be slow, or sending it a little at a time).`,
    });
    await until(() => sup.activeJobs.length === 0 && trickling.size === 0);
    expect(existsSync(into)).toBe(false);
  });

  it('an importer that cannot answer is killed after the job deadline and its grace', async () => {
    const sup = await supervisor({ fetchMs: 120_000, jobMs: 1500, graceMs: 300 });
    const into = join(home, 'stopped');
    const job = run(sup, { source: { kind: 'url', url: `${base}/openapi.yaml` }, format: 'auto', options: {}, into: { kind: 'new', path: into } });
    await until(() => sup.activeJobs.some((j) => j.state === 'running' && j.pid !== undefined));
    const pid = sup.activeJobs[0]!.pid!;
    // Frozen, it can neither read nor report its own deadline: only the supervisor's backstop ends the job.
    process.kill(pid, 'SIGSTOP');
    await expect(job).rejects.toMatchObject({ code: 'import-job-deadline', message: 'The import was stopped: it took longer than 1.5 s, the most one import may take.' });
    await until(() => !alive(pid));
    expect(sup.activeJobs).toEqual([]);
    expect(existsSync(into)).toBe(false);
  });

  it('an importer that runs out of memory ends the job with a clear error and changes nothing', async () => {
    const sup = await supervisor({ fetchMs: 120_000, jobMs: 120_000, memoryMb: 40 });
    // A Postman collection of about 20 MB: parsing it needs several times the 40 MB heap.
    const item = (i: number) => ({ name: `Request ${i}`, request: { method: 'GET', url: `https://example.test/items/${i}?q=${'x'.repeat(300)}` } });
    const file = join(home, 'big.postman_collection.json');
    await writeFile(file, JSON.stringify({ info: { name: 'Big', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: Array.from({ length: 50_000 }, (_, i) => item(i)) }));
    const into = join(home, 'oom');
    await expect(run(sup, { source: { kind: 'file', path: file }, format: 'postman-collection', options: {}, into: { kind: 'new', path: into } })).rejects.toMatchObject({
      code: 'import-out-of-memory',
      message: 'The import ran out of memory (the importer may use 40 MB for a source of this size) and was stopped; nothing was changed.',
    });
    await until(() => sup.activeJobs.length === 0);
    expect(existsSync(into)).toBe(false);
  }, 60_000);
});
