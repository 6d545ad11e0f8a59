/**
 * The mock log under requests whose values are huge (issue 26 item 5), on the real app
 * (`parley ui`, its supervisor and a mock-host child): a dispatch script names its response from
 * the request body, made 2 MB, so each of 1,000 requests fails with an error about a 2 MB name.
 * The mock host's and the supervisor's memory after 1,000 requests is near what it was after 100,
 * and every page of `mocks.log` is far under the message limit. Before: each entry kept the
 * whole name, 450 such requests of 9 MB took the mock host past its heap, and `mocks.log` built a
 * 3.96 GB answer. Requests carry 20 KB each (20 MB in all); the script makes the 2 MB.
 * dist/ must be built first (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { encode } from '../../protocol/codec.js';
import { DEFAULT_MAX_FRAME } from '../../protocol/framing.js';
import { LOG_ENTRIES_KEPT, LOG_PAGE_BYTES, LOG_PAGE_ENTRIES } from '../../protocol/mock-log-bounds.js';
import type { MockLogEntry } from '../../protocol/model/mock.js';
import { startApp, type RunningApp } from '../support/app.js';
import { projectWithDefinition } from '../support/big-api-project.js';
import { busCaller, type UiCall } from '../support/ui-calls.js';
import { childrenOf } from '../support/processes.js';
import { until } from '../support/until.js';

const REQUESTS = 1_000;
const BODY_BYTES = 20_000;
/** The name the script hands respond(): the body 100 times over, 2 MB. */
const NAME_TIMES = 100;
/**
 * Generous: with entries bounded the log of 500 entries is under 10 MB in each process. Unbounded,
 * each entry held a 2 MB name, so 100 more requests already took both processes 200 MB further.
 */
const GROWTH_MB = 100;

const openapi = {
  openapi: '3.0.3',
  info: { title: 'Names', version: '1.0.0' },
  paths: {
    '/names': {
      post: {
        operationId: 'addName',
        requestBody: { content: { 'text/plain': { schema: { type: 'string' } } } },
        responses: { '200': { description: 'ok', content: { 'text/plain': { schema: { type: 'string' }, example: 'ok' } } } },
      },
    },
  },
};

let app: RunningApp;
let bus: { call: UiCall; close(): void };
let dir: string;
let project: string;
let url = '';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-mocklog-it-'));
  project = join(dir, 'names');
  const { apiId } = await projectWithDefinition(project, 'Names', openapi);
  app = await startApp([]);
  bus = await busCaller(app.url);
  await bus.call('project.open', { path: project });
  const created = await bus.call('mocks.create', { project, api: apiId, name: 'Names' });
  const mock = created.mock!;
  const op = mock.operations[0]!;
  await bus.call('mocks.save', {
    project,
    mock: { ...mock, contractCheck: 'off', operations: [{ ...op, dispatch: 'script', script: `respond(request.body.repeat(${NAME_TIMES}));\n` }] },
  });
  const started = await bus.call('mocks.start', { project, id: created.id });
  url = started.running!.url;
}, 120_000);

afterAll(async () => {
  bus?.close();
  await app?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** POSTs `count` bodies of BODY_BYTES, four at a time, each different; every one must fail the script as written. */
async function drive(from: number, count: number): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const n = next++;
      const body = `${String(n).padStart(8, '0')}${'b'.repeat(BODY_BYTES - 8)}`;
      const res = await request(`${url}/names`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
      const text = await res.body.text();
      if (res.statusCode !== 500 || !text.includes('mock-script-failed')) throw new Error(`request ${n}: ${res.statusCode} ${text.slice(0, 200)}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Every page of the log, newest first, as the UI asks for them. */
async function pages(): Promise<Array<{ entries: MockLogEntry[]; more: boolean }>> {
  const out: Array<{ entries: MockLogEntry[]; more: boolean }> = [];
  let before: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await bus.call('mocks.log', { project, id: 'm:Names', ...(before ? { before } : {}) });
    out.push(page);
    if (!page.more || page.entries.length === 0) return out;
    before = page.entries[0]!.id;
  }
  throw new Error('mocks.log never said there were no more pages');
}

/** Waits until the entry of a marker request (sent last, alone) has reached the supervisor. */
async function settled(mark: number): Promise<void> {
  const body = `mark-${mark}`;
  await (await request(`${url}/names?mark=${mark}`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } })).body.text();
  await until(async () => (await bus.call('mocks.log', { project, id: 'm:Names' })).entries.some((e) => e.path === `/names?mark=${mark}`), 30_000, () => `the entry of marker ${mark} never reached the supervisor`);
}

describe('the mock log under 1,000 requests whose script error names a 2 MB value', () => {
  it('keeps the mock host and the supervisor flat, and pages mocks.log far under the message limit', async () => {
    const supervisor = app.child.pid!;
    const [host] = await childrenOf(supervisor, 'mock-host.js');
    expect(host).toBeDefined();

    await drive(0, 100);
    await settled(100);
    const at100 = { host: rssMb(host!), supervisor: rssMb(supervisor) };
    // Checked every 100 requests, so an unbounded log fails here long before it takes the machine's memory.
    for (let done = 100; done < REQUESTS; done += 100) {
      await drive(done, 100);
      await settled(done + 100);
      const now = { host: rssMb(host!), supervisor: rssMb(supervisor) };
      expect(now.host - at100.host, `mock host RSS after ${done + 100} requests: ${now.host.toFixed(0)} MB, after 100: ${at100.host.toFixed(0)} MB`).toBeLessThan(GROWTH_MB);
      expect(now.supervisor - at100.supervisor, `supervisor RSS after ${done + 100} requests: ${now.supervisor.toFixed(0)} MB, after 100: ${at100.supervisor.toFixed(0)} MB`).toBeLessThan(GROWTH_MB);
    }

    const all = await pages();
    const entries = all.flatMap((p) => p.entries);
    expect(entries.length).toBeLessThanOrEqual(LOG_ENTRIES_KEPT);
    expect(entries.length).toBeGreaterThan(LOG_PAGE_ENTRIES);
    for (const page of all) {
      const bytes = encode(page).byteLength;
      expect(bytes).toBeLessThan(DEFAULT_MAX_FRAME);
      // The page's own bound, with room for what the estimate leaves out.
      expect(bytes).toBeLessThan(LOG_PAGE_BYTES * 1.25);
      expect(page.entries.length).toBeLessThanOrEqual(LOG_PAGE_ENTRIES);
    }
    // Pages follow one another: newest last, no entry twice.
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    const failed = entries.find((e) => e.status === 500)!;
    expect(failed.notes).toHaveLength(1);
    expect(failed.notes[0]).toMatch(/^The dispatch script threw: respond\(\): this operation has no response named "\d{8}b+…" \(2000000 characters\)$/);
    expect(failed.request.body).toMatchObject({ size: BODY_BYTES, truncated: true });
  }, 600_000);
});
