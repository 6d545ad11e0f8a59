// A big import through the app, as the Import dialog runs it (issue 15's write budget, issue 12
// item 7): `parley ui`, `import.run` over the UI bus into a new project, the bus pinged every 5 ms
// throughout and for 3 s after the answer (the store's watcher reading the new files back, the
// tree's deltas going out). Sources: a generated Postman collection of N requests and a
// generated 10 MB HAR capture. Where the time goes, from what the page sees:
//   start     import.run to its first progress chunk: the importer child's start and first read
//   import    first chunk to the supervisor's "Saving N files": reading, converting, building files
//   commit    "Saving" to the answer: the atomic commit and the store's read-back
// and the UI ping's p99 and slowest during the import (the importer's answer decoded and checked
// at its end), during the commit and in the 3 s after, and the bytes of
// project.changed events the page received (the whole tree per save before; deltas now) for the
// import and for one request save after it. Builds named on the command line take turns, run
// after run (a "before" source tree needs `npm run build` there first).
// Usage: node bench/import-through-app.mjs [requests=5000] [runs=3] [name=source-root ...]
// (PARLEY_BENCH_ONLY=postman-collection or har: that source alone)
import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { bundleNode, cleanup, connectBus, importFile, machine, median, root, startParley, tempDir } from './fixtures/harness.mjs';
import { collection } from './fixtures/postman-collection.mjs';

const requests = Number(process.argv[2] ?? 5000);
const runs = Number(process.argv[3] ?? 3);
const named = process.argv.slice(4).map((arg) => arg.split('='));
const builds = named.length > 0 ? named.map(([name, dir]) => ({ name, dir: resolve(dir) })) : [{ name: 'this tree', dir: root }];
const MB = 1024 * 1024;
const work = await tempDir('import-app');
const built = await bundleNode({ 'har-kit': 'bench/fixtures/har-kit.ts' }, work);
const kit = await importFile(built['har-kit']);
// Each build's page speaks its own protocol version: its bus pieces come from its own tree.
for (const b of builds) {
  const out = join(work, `kit-${b.name}`);
  await mkdir(out);
  const kits = await bundleNode({ 'bus-kit': join(b.dir, 'bench/fixtures/bus-kit.ts'), 'codec-kit': join(b.dir, 'protocol/codec.ts') }, out);
  b.busKit = await importFile(kits['bus-kit']);
  b.codec = await importFile(kits['codec-kit']);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tail = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

async function throughApp(build, source, format, n) {
  const { busKit, codec } = build;
  const app = await startParley([], { source: build.dir });
  try {
    const page = await connectBus(app, busKit);
    let treeBytes = 0;
    let treeEvents = 0;
    page.on('project.changed', (payload) => {
      treeBytes += codec.encode(payload).length;
      treeEvents++;
    });
    const marks = { start: performance.now() };
    let finished = false;
    const job = page
      .call('import.run', { source: { kind: 'file', path: source }, format, options: {}, into: { kind: 'new', path: join(work, `project-${build.name}-${n}`) } }, {
        onChunk: (chunk) => {
          marks.firstChunk ??= performance.now();
          if (chunk.phase === 'done' && chunk.message.startsWith('Saving')) marks.saving = performance.now();
        },
      })
      .finally(() => (finished = true));
    job.catch(() => {}); // awaited below; a failure must not end the bench while the pings run
    const importing = [];
    const during = [];
    while (!finished) {
      const t = performance.now();
      const inImport = marks.firstChunk !== undefined && marks.saving === undefined;
      await page.call('app.ping', { t });
      if (inImport) importing.push(performance.now() - t);
      else if (marks.saving !== undefined && !finished) during.push(performance.now() - t);
      await sleep(5);
    }
    const result = await job;
    marks.answer = performance.now();
    const after = [];
    while (performance.now() - marks.answer < 3000) {
      const t = performance.now();
      await page.call('app.ping', { t });
      after.push(performance.now() - t);
      await sleep(5);
    }
    const importBytes = treeBytes;
    const importEvents = treeEvents;
    // One save of one request afterwards: what every window receives for it.
    const tree = busKit.withPages([], await page.call('project.tree', { project: result.project }));
    const one = tree.items.find((i) => i.kind === 'request');
    const request = await page.call('request.get', { project: result.project, id: one.id });
    treeBytes = 0;
    treeEvents = 0;
    await page.call('request.save', { project: result.project, request: { ...request, url: `${request.url}?saved=1` } });
    for (const until = performance.now() + 2000; treeEvents === 0 && performance.now() < until; ) await sleep(10);
    page.close();
    importing.sort((a, b) => a - b);
    during.sort((a, b) => a - b);
    after.sort((a, b) => a - b);
    return {
      ms: marks.answer - marks.start,
      startMs: marks.firstChunk - marks.start,
      importMs: marks.saving - marks.firstChunk,
      commitMs: marks.answer - marks.saving,
      importP99: tail(importing, 0.99),
      importMax: importing.at(-1) ?? NaN,
      commitP99: tail(during, 0.99),
      commitMax: during.at(-1) ?? NaN,
      afterP99: tail(after, 0.99),
      afterMax: after.at(-1) ?? NaN,
      importTreeBytes: importBytes,
      importTreeEvents: importEvents,
      saveTreeBytes: treeBytes,
      requests: result.report.requestCount,
    };
  } finally {
    await app.stop();
  }
}

const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
try {
  console.log(`# Import through the app (${new Date().toISOString()})\n${machine()}\n`);
  const postman = join(work, 'bench.postman_collection.json');
  writeFileSync(postman, JSON.stringify(collection(requests)));
  const har = join(work, 'capture-10.har');
  await kit.writeHar(har, { bytes: 10 * MB, paths: 300 });
  const sources = [
    [`Postman collection, ${requests} requests`, postman, 'postman-collection'],
    ['HAR capture, 10 MB', har, 'har'],
  ];
  // PARLEY_BENCH_ONLY=postman-collection (or har) runs one source.
  for (const [label, source, format] of sources.filter(([, , f]) => !process.env.PARLEY_BENCH_ONLY || f === process.env.PARLEY_BENCH_ONLY)) {
    for (const b of builds) b.rows = [];
    for (let r = 0; r < runs; r++) {
      for (const b of builds) {
        // A run that fails (an importer killed on a loaded machine) is reported and left out.
        const row = await throughApp(b, source, format, `${format}-${r}`).catch((err) => ({ failed: `${err.code ?? ''} ${err.message}` }));
        console.log(`${label}, run ${r + 1}, ${b.name}: ${JSON.stringify(row)}`);
        if (!row.failed) b.rows.push(row);
      }
    }
    const m = (rows, key) => median(rows.map((x) => x[key]));
    console.log(`\n## ${label} (median of ${runs})`);
    console.log('| build | whole | importer start | import | commit | ping during import p99 / max | ping during commit p99 / max | ping 3 s after p99 / max | tree events of the import | of one save after |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const b of builds) {
      console.log(
        `| ${b.name} | ${fmt(m(b.rows, 'ms'))} ms | ${fmt(m(b.rows, 'startMs'))} ms | ${fmt(m(b.rows, 'importMs'))} ms | ${fmt(m(b.rows, 'commitMs'))} ms | ${fmt(m(b.rows, 'importP99'), 1)} / ${fmt(m(b.rows, 'importMax'), 1)} ms | ${fmt(m(b.rows, 'commitP99'), 1)} / ${fmt(m(b.rows, 'commitMax'), 1)} ms | ${fmt(m(b.rows, 'afterP99'), 1)} / ${fmt(m(b.rows, 'afterMax'), 1)} ms | ${fmt(m(b.rows, 'importTreeBytes'))} B in ${fmt(m(b.rows, 'importTreeEvents'))} | ${fmt(m(b.rows, 'saveTreeBytes'))} B |`,
      );
    }
    console.log('');
  }
  console.log(machine());
} finally {
  await cleanup(work);
}
