/**
 * A job child (`--job-child`) starts its job thread while it waits for the job, so the job runs
 * on a thread already up with the import engine loaded; the curl reader's child (no flag) starts
 * none. Real importer children from dist/ (npm run build first).
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ChildProcessHandle } from '../../processes/supervisor/children/child-process.js';
import { distEntry } from '../../processes/supervisor/paths.js';
import { until } from '../support/until.js';

const children: ChildProcessHandle[] = [];

async function importer(args: string[]): Promise<ChildProcessHandle> {
  const child = new ChildProcessHandle({ name: 'importer process', entry: distEntry('importer.js'), args, execArgv: ['--max-old-space-size=256'], restart: false });
  children.push(child);
  await child.start();
  return child;
}

/** The process's threads (a worker thread is one more). */
const threads = (pid: number) => readdirSync(`/proc/${pid}/task`).length;

afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.stop()));
});

describe('the job thread started ahead', () => {
  it('a job child has one more thread waiting than a child without the flag, and its job runs on it', async () => {
    const plain = await importer([]);
    const job = await importer(['--job-child']);
    // Both settle to their idle threads; the job child's count includes the waiting job thread.
    await until(() => threads(job.pid!) > threads(plain.pid!), 20_000, () => `threads: job child ${threads(job.pid!)}, plain ${threads(plain.pid!)}`);
    const waiting = threads(job.pid!);

    const text = `openapi: 3.0.3\ninfo: { title: Ahead, version: '1' }\npaths:\n  /a: { get: { summary: A, responses: { '200': { description: ok } } } }\n`;
    const answer = await job.call('importer.run', { source: { kind: 'paste', text }, format: 'auto', options: {}, network: { proxy: '', caPem: '' }, deadlines: { fetchMs: 10_000, jobMs: 30_000 } });
    expect(answer.result.report.requestCount).toBe(1);
    // The thread that ran it was the one waiting: no second one was started beside it, and it ended with its job.
    await until(() => threads(job.pid!) < waiting, 20_000, () => `threads after the job: ${threads(job.pid!)}, while waiting: ${waiting}`);
  }, 60_000);
});
