// New Mock of a big definition through the app (issue 12 item 6): `parley ui`, a project whose API
// caches a generated OpenAPI definition of N operations (each a wide schema with no example, so
// every Default response is a sample), `mocks.create` over the UI bus, the bus pinged every 5 ms
// throughout. Two phases, from what the page sees:
//   sample  mocks.create to the mock's folder appearing: bundling, sampling and serialising
//           (on the supervisor's loop before issue 12; sampling in an importer child after)
//   write   the folder appearing to the answer: the atomic commit, the folder read back, findings
// with the ping's p99 and slowest in each. Builds named on the command line take turns, run after
// run (a "before" source tree needs `npm run build` there first).
// Usage: node bench/new-mock-loop.mjs [operations=1000] [runs=2] [name=source-root ...]
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { bundleNode, cleanup, connectBus, importFile, machine, median, root, startParley, tempDir } from './fixtures/harness.mjs';

const operations = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 2);
const named = process.argv.slice(4).map((arg) => arg.split('='));
const builds = named.length > 0 ? named.map(([name, dir]) => ({ name, dir: resolve(dir) })) : [{ name: 'this tree', dir: root }];
const work = await tempDir('new-mock-loop');
const made = await bundleNode({ 'big-openapi': 'test/support/big-openapi.ts', 'big-api-project': 'test/support/big-api-project.ts' }, work);
const { bigOpenApi } = await importFile(made['big-openapi']);
const { projectWithDefinition } = await importFile(made['big-api-project']);
// Each build's page speaks its own protocol version: its bus pieces come from its own tree.
for (const b of builds) {
  const out = join(work, `kit-${b.name}`);
  await mkdir(out);
  b.busKit = await importFile((await bundleNode({ 'bus-kit': join(b.dir, 'bench/fixtures/bus-kit.ts') }, out))['bus-kit']);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tail = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

async function newMockThroughApp(build, project, apiId, name) {
  const { busKit } = build;
  const app = await startParley([], { source: build.dir });
  try {
    const page = await connectBus(app, busKit);
    await page.call('project.open', { path: project });
    const folder = join(project, 'mocks', name);
    const marks = { start: performance.now() };
    let finished = false;
    const job = page.call('mocks.create', { project, api: apiId, name }).finally(() => (finished = true));
    job.catch(() => {}); // awaited below; a failure must not end the bench while the pings run
    const sample = [];
    const write = [];
    while (!finished) {
      const t = performance.now();
      await page.call('app.ping', { t });
      const took = performance.now() - t;
      if (marks.written === undefined && existsSync(folder)) marks.written = performance.now();
      if (!finished) (marks.written === undefined ? sample : write).push(took);
      await sleep(5);
    }
    const view = await job;
    marks.answer = performance.now();
    page.close();
    sample.sort((a, b) => a - b);
    write.sort((a, b) => a - b);
    return {
      ms: marks.answer - marks.start,
      sampleMs: (marks.written ?? marks.answer) - marks.start,
      writeMs: marks.answer - (marks.written ?? marks.answer),
      sampleP99: tail(sample, 0.99),
      sampleMax: sample.at(-1) ?? NaN,
      writeP99: tail(write, 0.99),
      writeMax: write.at(-1) ?? NaN,
      operations: view.mock.operations.length,
    };
  } finally {
    await app.stop();
  }
}

const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
try {
  console.log(`# New Mock through the app (${new Date().toISOString()})\n${machine()}\n`);
  const project = join(work, 'project');
  const { apiId } = await projectWithDefinition(project, 'Big', bigOpenApi(operations));
  for (const b of builds) b.rows = [];
  for (let r = 0; r < runs; r++) {
    for (const b of builds) {
      const row = await newMockThroughApp(b, project, apiId, `${b.name}-${r}`.replace(/[^A-Za-z0-9-]/g, '-')).catch((err) => ({ failed: `${err.code ?? ''} ${err.message}` }));
      console.log(`run ${r + 1}, ${b.name}: ${JSON.stringify(row)}`);
      if (!row.failed) b.rows.push(row);
    }
  }
  const m = (rows, key) => median(rows.map((x) => x[key]));
  console.log(`\n## New Mock of ${operations} operations (median of ${runs})`);
  console.log('| build | whole | sample | write | ping while sampling p99 / max | ping while writing p99 / max |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const b of builds) {
    const r = b.rows;
    if (r.length === 0) continue;
    console.log(`| ${b.name} | ${fmt(m(r, 'ms'))} ms | ${fmt(m(r, 'sampleMs'))} ms | ${fmt(m(r, 'writeMs'))} ms | ${fmt(m(r, 'sampleP99'))} / ${fmt(m(r, 'sampleMax'))} ms | ${fmt(m(r, 'writeP99'))} / ${fmt(m(r, 'writeMax'))} ms |`);
  }
} finally {
  await cleanup(work);
}
