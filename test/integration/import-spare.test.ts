/**
 * The importer child started ahead of its import (Supervisor.prepareJob): the dialog's auto-detect
 * starts it, the import then runs in it; one the import cannot use, one killed while it waits
 * (kill -9), one left unused and one still waiting at shutdown are stopped, and the import
 * starts its own. Real supervisor, real importer children.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import type { ChildProcessHandle } from '../../processes/supervisor/children/child-process.js';
import type { ReqOf } from '../../protocol/messages.js';
import { alive } from '../support/processes.js';
import { until } from '../support/until.js';

const HAR = join(import.meta.dirname, '../fixtures/cli-check/har/recorded-api.har');
const PETS = `openapi: 3.0.3
info: { title: Pets, version: '1.0' }
paths:
  /pets:
    get: { summary: List pets, responses: { '200': { description: ok } } }
`;

let sup: Supervisor;
let home: string;
let pets: string;
/** The pid of each child an import took from the spare (undefined: it had to start its own). */
const taken: (number | undefined)[] = [];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-spare-'));
  pets = join(home, 'pets.yaml');
  await writeFile(pets, PETS);
  sup = await Supervisor.start({ dataDir: join(home, 'data'), services: false, log: () => {} });
  const take = sup.spareJob.take.bind(sup.spareJob);
  vi.spyOn(sup.spareJob, 'take').mockImplementation(async (spec) => {
    const child: ChildProcessHandle | null = await take(spec);
    taken.push(child?.pid);
    return child;
  });
}, 30_000);

afterAll(async () => {
  await sup?.shutdown();
});

const run = (req: ReqOf<'import.run'>) => sup.imports.run(req, { signal: new AbortController().signal, chunk: () => {} });

async function waitingSpare(): Promise<number> {
  return until(() => sup.spareJob.pid, 20_000);
}

describe('the importer started ahead of its import', () => {
  it("auto-detect starts it, and the import runs in it", async () => {
    const { detection } = await sup.imports.detect({ source: { kind: 'file', path: HAR } });
    expect(detection?.format).toBe('har');
    const spare = await waitingSpare();
    const done = await run({ source: { kind: 'file', path: HAR }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'har') } });
    expect(done.report.requestCount).toBeGreaterThan(0);
    expect(taken.at(-1)).toBe(spare);
    // Done with its job, it is stopped like any job child, and nothing waits in its place.
    await until(() => !alive(spare));
    expect(sup.spareJob.pid).toBeUndefined();
  }, 60_000);

  it('one the import cannot use (another heap cap and flags) is stopped, and the import starts its own', async () => {
    await sup.imports.detect({ source: { kind: 'file', path: pets } });
    const spare = await waitingSpare();
    const done = await run({ source: { kind: 'file', path: HAR }, format: 'har', options: {}, into: { kind: 'new', path: join(home, 'har2') } });
    expect(done.report.requestCount).toBeGreaterThan(0);
    expect(taken.at(-1)).toBeUndefined();
    await until(() => !alive(spare));
  }, 60_000);

  it('kill -9 of it while it waits: the import starts its own and works', async () => {
    await sup.imports.detect({ source: { kind: 'file', path: pets } });
    const spare = await waitingSpare();
    process.kill(spare, 'SIGKILL');
    await until(() => !alive(spare));
    const done = await run({ source: { kind: 'file', path: pets }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'pets') } });
    expect(done.apis[0]).toMatchObject({ name: 'Pets', requests: 1 });
    expect(taken.at(-1)).toBeUndefined();
  }, 60_000);

  it('a source nothing recognises starts none', async () => {
    const notes = join(home, 'notes.txt');
    await writeFile(notes, 'just some words');
    expect((await sup.imports.detect({ source: { kind: 'file', path: notes } })).detection).toBeNull();
    expect(sup.spareJob.pid).toBeUndefined();
  });
});

describe('an importer started ahead and never used', () => {
  async function supervisor(spareJobMs?: number): Promise<Supervisor> {
    const dataDir = await mkdtemp(join(tmpdir(), 'parley-spare-idle-'));
    return Supervisor.start({ dataDir, services: false, log: () => {}, ...(spareJobMs !== undefined ? { spareJobMs } : {}) });
  }

  it('is stopped after its wait', async () => {
    const idle = await supervisor(300);
    try {
      await idle.imports.detect({ source: { kind: 'file', path: HAR } });
      const spare = await until(() => idle.spareJob.pid, 20_000);
      await until(() => !alive(spare), 20_000);
      expect(idle.spareJob.pid).toBeUndefined();
    } finally {
      await idle.shutdown();
    }
  }, 60_000);

  it('is stopped at shutdown while it waits', async () => {
    const waiting = await supervisor();
    await waiting.imports.detect({ source: { kind: 'file', path: HAR } });
    const spare = await until(() => waiting.spareJob.pid, 20_000);
    await waiting.shutdown();
    expect(alive(spare)).toBe(false);
  }, 60_000);
});
