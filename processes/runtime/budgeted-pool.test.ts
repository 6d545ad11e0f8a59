/**
 * BudgetedPool with real worker threads (a small worker built with esbuild): a task's budget
 * starts when a worker starts it; a runaway task is stopped with its worker and the tasks posted
 * behind it run elsewhere; a throwing handler, a dying worker and a worker file that does not load
 * all end as `failed` without taking the pool down.
 */
import { execFile } from 'node:child_process';
import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { until } from '../../test/support/until.js';
import { BudgetedPool } from './budgeted-pool.js';

type Task = { kind: 'echo'; n: number } | { kind: 'spin' } | { kind: 'throw' } | { kind: 'exit' } | { kind: 'deadline' } | { kind: 'slow-prepare'; ms: number };

let dir = '';
let workerFile = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-budgeted-'));
  workerFile = join(dir, 'worker.mjs');
  await build({ entryPoints: [join(import.meta.dirname, 'budgeted-pool.ts')], outfile: join(dir, 'pool.mjs'), bundle: true, platform: 'node', format: 'esm', logLevel: 'warning' });
  await build({
    stdin: {
      contents: `
        import { serveBudgetedTasks, budgetedWorkerData } from './budgeted-worker.ts';
        serveBudgetedTasks((task, deadline) => {
          if (task.kind === 'spin') for (;;) {}
          if (task.kind === 'throw') throw new Error('handler threw');
          if (task.kind === 'exit') process.exit(3);
          if (task.kind === 'deadline' || task.kind === 'slow-prepare') return deadline - Date.now();
          return { n: task.n, data: budgetedWorkerData() };
        }, (task) => {
          if (task.kind !== 'slow-prepare') return;
          const until = Date.now() + task.ms;
          while (Date.now() < until) {}
        });`,
      resolveDir: import.meta.dirname,
      loader: 'ts',
    },
    outfile: workerFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
});

/** Runs `script` (an ES module beside the built pool) in a process of its own. */
async function runAlone(script: string): Promise<{ code: number | null; stdout: string }> {
  const file = join(dir, `alone-${Date.now()}.mjs`);
  await writeFile(file, script);
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { timeout: 60_000 }, (err, stdout) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout }));
  });
}

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function pool(options: { threads?: number; budgetMs?: number; maxQueue?: number; postAhead?: number } = {}) {
  return new BudgetedPool<Task, unknown>({ filename: workerFile, threads: 1, budgetMs: 300, maxQueue: 16, workerData: 'hello', ...options });
}

test('answers tasks with the worker data, and hands each its own soft deadline', async () => {
  const p = new BudgetedPool<Task, unknown>({ filename: workerFile, threads: 2, budgetMs: 500, softMarginMs: 30, maxQueue: 16, workerData: 'hello' });
  try {
    const answers = await Promise.all([1, 2, 3].map((n) => p.run({ kind: 'echo', n })));
    expect(answers).toEqual([1, 2, 3].map((n) => ({ ok: true, value: { n, data: 'hello' } })));
    const left = await p.run({ kind: 'deadline' });
    expect(left.ok && (left.value as number)).toBeGreaterThan(400);
    expect(left.ok && (left.value as number)).toBeLessThanOrEqual(470);
  } finally {
    await p.close();
  }
});

test('a runaway task is stopped at its budget; the tasks posted behind it on the same worker keep theirs', async () => {
  // One worker, four posted ahead: the echo tasks sit behind the spinning ones in its own queue.
  const p = pool({ postAhead: 4 });
  try {
    const outcomes = await Promise.all([p.run({ kind: 'spin' }), p.run({ kind: 'echo', n: 1 }), p.run({ kind: 'spin' }), p.run({ kind: 'echo', n: 2 })]);
    expect(outcomes.map((o) => (o.ok ? o.value : o.reason))).toEqual(['budget', { n: 1, data: 'hello' }, 'budget', { n: 2, data: 'hello' }]);
    expect(p.stats.threads).toBe(1);
  } finally {
    await p.close();
  }
});

test('a handler that throws fails its task only; a worker that dies fails the task it was running', async () => {
  const p = pool({ threads: 2 });
  try {
    expect(await p.run({ kind: 'throw' })).toEqual({ ok: false, reason: 'failed', error: 'handler threw' });
    const [died, after] = await Promise.all([p.run({ kind: 'exit' }), p.run({ kind: 'echo', n: 5 })]);
    expect(died).toMatchObject({ ok: false, reason: 'failed', error: 'the worker exited with code 3' });
    expect(after).toEqual({ ok: true, value: { n: 5, data: 'hello' } });
    expect(await p.run({ kind: 'echo', n: 6 })).toMatchObject({ ok: true });
  } finally {
    await p.close();
  }
});

test('a full queue answers at once; a cancelled task answers at once, waiting or running', async () => {
  const p = pool({ maxQueue: 2, budgetMs: 400, postAhead: 1 });
  try {
    const running = p.run({ kind: 'spin' });
    // Once the worker has started and taken the task, nothing waits.
    await until(() => p.stats.busy === 1, 30_000);
    const controller = new AbortController();
    const queued = [p.run({ kind: 'echo', n: 1 }, controller.signal), p.run({ kind: 'echo', n: 2 })];
    expect(await p.run({ kind: 'echo', n: 3 })).toEqual({ ok: false, reason: 'queue-full' });
    controller.abort();
    expect(await queued[0]).toEqual({ ok: false, reason: 'cancelled' });
    const room = p.run({ kind: 'echo', n: 4 });
    expect(await running).toEqual({ ok: false, reason: 'budget' });
    expect(await queued[1]).toEqual({ ok: true, value: { n: 2, data: 'hello' } });
    expect(await room).toEqual({ ok: true, value: { n: 4, data: 'hello' } });
    const later = new AbortController();
    const spinning = p.run({ kind: 'spin' }, later.signal);
    setTimeout(() => later.abort(), 20);
    expect(await spinning).toEqual({ ok: false, reason: 'cancelled' });
  } finally {
    await p.close();
  }
});

test('a task waiting for a worker keeps the process alive until it is answered (a lone script)', async () => {
  // Before: the workers were unref'd until a task was handed to one, so a script whose only
  // work was a task waiting for a worker to start ended at once (exit 13, an unsettled await).
  const run = await runAlone(
    `import { BudgetedPool } from './pool.mjs';\n` +
      `const pool = new BudgetedPool({ filename: ${JSON.stringify(workerFile)}, threads: 1, budgetMs: 1000, maxQueue: 4 });\n` +
      `console.log(JSON.stringify(await pool.run({ kind: 'echo', n: 7 })));\n` +
      `await pool.close();\n`,
  );
  expect(run).toEqual({ code: 0, stdout: `${JSON.stringify({ ok: true, value: { n: 7 } })}\n` });
});

test('a worker file that does not load fails the task instead of starting workers for ever', async () => {
  const broken = join(dir, 'broken.mjs');
  await writeFile(broken, "throw new Error('cannot load');\n");
  const p = new BudgetedPool<Task, unknown>({ filename: broken, threads: 1, budgetMs: 300, maxQueue: 4 });
  try {
    expect(await p.run({ kind: 'echo', n: 1 })).toMatchObject({ ok: false, reason: 'failed', error: 'cannot load' });
  } finally {
    await p.close();
  }
});

test("a worker's preparation runs before the task's budget starts, and is not stopped at it", async () => {
  const p = pool({ budgetMs: 300 });
  try {
    const outcome = await p.run({ kind: 'slow-prepare', ms: 900 });
    expect(outcome.ok).toBe(true);
    // The handler still had its whole soft budget when it started.
    expect((outcome as { value: number }).value).toBeGreaterThan(150);
  } finally {
    await p.close();
  }
});
