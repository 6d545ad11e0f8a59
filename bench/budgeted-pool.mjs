// The worker pool under the checker and the mock host's request checks (processes/checker/
// budgeted-pool.ts) against piscina, the pool DESIGN.md names, in the same run and on the same
// worker code. For each: tasks/s and CPU per task (this process and its worker threads together)
// with 1 and 50 tasks in flight, for a trivial task and for a real contract check of a 1 KB body.
// Piscina runs one task per worker (concurrentTasksPerWorker 1), as it must for an abort to stop
// only the task over budget; it learns when a worker starts a task from a message the worker posts,
// as the pool did while it was built on piscina. Asserts nothing.
// Usage: node bench/budgeted-pool.mjs [tasks=20000]
import { build } from 'esbuild';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { parse as parseYaml } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tasks = Number(process.argv[2] ?? 20000);
const work = await mkdtemp(join(tmpdir(), 'parley-bench-pool-'));

// One handler module; two thin workers around it, one per pool.
await writeFile(
  join(work, 'handler.ts'),
  `import { runCheck } from ${JSON.stringify(join(root, 'processes/checker/check-task.ts'))};
export function handle(task, deadline) {
  return task.kind === 'trivial' ? { problems: [], n: task.n } : runCheck(task.check, deadline);
}`,
);
await writeFile(
  join(work, 'budgeted.ts'),
  `import { serveBudgetedTasks } from ${JSON.stringify(join(root, 'processes/runtime/budgeted-worker.ts'))};
import { handle } from './handler.ts';
serveBudgetedTasks(handle);`,
);
await writeFile(
  join(work, 'piscina.ts'),
  `import { parentPort } from 'node:worker_threads';
import { handle } from './handler.ts';
export default function (envelope) {
  parentPort.postMessage({ started: envelope.id });
  return handle(envelope.task, Date.now() + 970);
}`,
);
await writeFile(join(work, 'pool.ts'), `export { BudgetedPool } from ${JSON.stringify(join(root, 'processes/runtime/budgeted-pool.ts'))};`);
await build({
  absWorkingDir: root,
  entryPoints: { budgeted: join(work, 'budgeted.ts'), piscina: join(work, 'piscina.ts'), pool: join(work, 'pool.ts') },
  outdir: work,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
const { BudgetedPool } = await import(pathToFileURL(join(work, 'pool.js')).href);

/** piscina with the start message the budget needs, and the budget's timer. */
function piscinaPool(threads) {
  const piscina = new Piscina({ filename: pathToFileURL(join(work, 'piscina.js')).href, minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
  const waiting = new Map();
  piscina.on('message', (m) => waiting.get(m?.started)?.());
  let id = 0;
  return {
    async run(task) {
      const n = ++id;
      const controller = new AbortController();
      let timer;
      waiting.set(n, () => {
        waiting.delete(n);
        timer = setTimeout(() => controller.abort(), 1000);
      });
      try {
        return { ok: true, value: await piscina.run({ id: n, task }, { signal: controller.signal }) };
      } finally {
        clearTimeout(timer);
        waiting.delete(n);
      }
    },
    close: () => piscina.destroy(),
  };
}

const museum = parseYaml(await readFile(join(root, 'test/fixtures/checker/redocly-museum.yaml'), 'utf8'));
const documentsJson = new TextEncoder().encode(JSON.stringify([{ uri: 'redocly-museum.yaml', document: museum }]));
const definition = new SharedArrayBuffer(documentsJson.byteLength);
new Uint8Array(definition).set(documentsJson);
const body = new TextEncoder().encode(
  JSON.stringify([
    { eventId: '3be6453c-03eb-4357-ae5a-984a0e574a54', name: 'Pirate Coding Workshop', location: 'Computer Room', eventDescription: 'Captain Blackbeard shares his love of the C...language.', dates: ['2023-10-29', '2023-10-30'], price: 25 },
    { eventId: '3be6453c-03eb-4357-ae5a-984a0e574a55', name: 'Llama Parade', location: 'Courtyard', eventDescription: 'Llamas, and their friends.', dates: ['2023-11-01'], price: 10 },
  ]),
);
const taskOf = (kind, n) =>
  kind === 'trivial'
    ? { kind, n }
    : { kind, check: { fingerprint: 'museum', definition, input: { method: 'GET', url: 'http://127.0.0.1:4010/special-events', status: 200, contentType: 'application/json', body } } };

async function measure(pool, kind, inFlight) {
  let next = 0;
  let done = 0;
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((resolve) => {
    const go = () => {
      if (next >= tasks) return;
      next++;
      pool.run(taskOf(kind, next)).then((o) => {
        if (!o.ok) failed++;
        if (++done === tasks) resolve();
        else go();
      });
    };
    for (let i = 0; i < inFlight; i++) go();
  });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { 'tasks/s': Math.round((tasks / ms) * 1000), 'CPU µs per task': Math.round((cpu.user + cpu.system) / tasks), failed };
}

console.log(JSON.stringify({ tasks, node: process.version, cores: cpus().length, cpu: cpus()[0]?.model.trim(), 'load average at start': loadavg().map((x) => x.toFixed(2)).join(' ') }));
const pools = {
  'BudgetedPool (2 threads)': () => new BudgetedPool({ filename: join(work, 'budgeted.js'), threads: 2, maxQueue: 100_000, budgetMs: 1000, softMarginMs: 30 }),
  'piscina 5 (2 threads)': () => piscinaPool(2),
};
const results = {};
try {
  // Interleaved: each pool once per round, so a change in the machine's load moves both; the
  // better of the two rounds is kept.
  for (let round = 0; round < 2; round++) {
    for (const [label, make] of Object.entries(pools)) {
      const pool = make();
      try {
        await pool.run(taskOf('check', 0)); // start-up and the definition's first parse, not measured
        for (const kind of ['trivial', 'check']) {
          for (const inFlight of [1, 50]) {
            const line = { label, kind, inFlight, round, ...(await measure(pool, kind, inFlight)) };
            console.log(JSON.stringify(line));
            (results[`${label} ${kind} ${inFlight}`] ??= []).push(line);
          }
        }
      } finally {
        await pool.close();
      }
    }
  }
  const best = (key) => Math.max(...results[key].map((l) => l['tasks/s']));
  const summary = {};
  for (const kind of ['trivial', 'check']) {
    for (const inFlight of [1, 50]) {
      const ours = best(`BudgetedPool (2 threads) ${kind} ${inFlight}`);
      const theirs = best(`piscina 5 (2 threads) ${kind} ${inFlight}`);
      summary[`${kind}, ${inFlight} in flight: BudgetedPool / piscina tasks/s`] = `${Math.round((100 * ours) / theirs)}%`;
    }
  }
  console.log(JSON.stringify(summary));
  console.log(JSON.stringify({ 'load average at the end': loadavg().map((x) => x.toFixed(2)).join(' ') }));
} finally {
  await rm(work, { recursive: true, force: true });
}
