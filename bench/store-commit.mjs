// The commit of a big import through the real project store (issue 12 item 7, issue 15's write
// budget): a new API of N requests in N/50 folders written by `ProjectStore.commit` in one atomic
// save, as `import.run` writes it, then the store's watcher reading the new files back. Each run
// is a fresh Node process on a fresh folder; the builds named on the command line take turns, run
// after run, so they share the machine's load. Reported per build (medians):
//   commit     store.commit of every file (journal, temps, fsyncs, renames, the store's read-back)
//   loop       the longest and the 99th percentile wait of a 5 ms timer during the commit, and
//              during the 3 s after it (the watcher's read-back of the new files): what a UI
//              call waits on the supervisor's loop
//   save       bytes of the `project.changed` payload one request save broadcasts afterwards
//              (the tree, or a delta where the build sends deltas), msgpack as on the bus
// Usage: node bench/store-commit.mjs [requests=5000] [runs=3] [name=source-root ...]
//   e.g. node bench/store-commit.mjs 5000 3 before=/tmp/parley-before after=.
// With no builds named, the working tree alone is measured.
import { fork } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleNode, cleanup, importFile, machine, median, root, tempDir } from './fixtures/harness.mjs';

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], Number(process.argv[5]));
else await main();

async function main() {
  const requests = Number(process.argv[2] ?? 5000);
  const runs = Number(process.argv[3] ?? 3);
  const named = process.argv.slice(4).map((arg) => arg.split('='));
  const builds = named.length > 0 ? named.map(([name, dir]) => ({ name, dir: resolve(dir) })) : [{ name: 'this tree', dir: root }];
  const work = await tempDir('store-commit');
  try {
    for (const build of builds) {
      if (build.dir !== root) copyFileSync(join(root, 'bench/fixtures/store-kit.ts'), join(build.dir, 'bench/fixtures/store-kit.ts'));
      const out = join(work, `kit-${build.name}`);
      await mkdir(out);
      build.kit = (await bundleNode({ kit: join(build.dir, 'bench/fixtures/store-kit.ts') }, out)).kit;
      build.rows = [];
    }
    console.log(`# Store commit bench (${new Date().toISOString()}): ${requests} requests, ${runs} runs\n${machine()}\n`);
    for (let r = 0; r < runs; r++) {
      for (const build of builds) {
        const row = await runChild(build.kit, join(work, `p-${build.name}-${r}`), requests);
        console.log(`run ${r + 1} ${build.name}: ${JSON.stringify(row)}`);
        build.rows.push(row);
      }
    }
    console.log(`\n| build | commit | loop during commit: max / p99 | read-back after: max / p99 | one save's broadcast |`);
    console.log(`|---|---:|---:|---:|---:|`);
    const m = (rows, key) => median(rows.map((x) => x[key]));
    for (const b of builds) {
      console.log(`| ${b.name} | ${m(b.rows, 'commitMs').toFixed(0)} ms | ${m(b.rows, 'commitMax').toFixed(1)} / ${m(b.rows, 'commitP99').toFixed(1)} ms | ${m(b.rows, 'afterMax').toFixed(1)} / ${m(b.rows, 'afterP99').toFixed(1)} ms | ${m(b.rows, 'saveBytes').toLocaleString('en-US')} B |`);
    }
    console.log(`\n${machine()}`);
  } finally {
    await cleanup(work);
  }
}

function runChild(kit, dir, requests) {
  return new Promise((resolvePromise, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--child', kit, dir, String(requests)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    proc.on('message', (m) => resolvePromise(m));
    proc.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`the run exited with ${code}`))));
  });
}

/** Waits of a timer asking for 5 ms, from `start()` to `stop()`: what a call on this loop waits beyond its turn. */
function lagSampler() {
  const waits = [];
  let timer = null;
  let last = 0;
  const tick = () => {
    const now = performance.now();
    waits.push(now - last - 5);
    last = now;
    timer = setTimeout(tick, 5);
  };
  return {
    start() {
      last = performance.now();
      timer = setTimeout(tick, 5);
    },
    stop() {
      clearTimeout(timer);
      waits.sort((a, b) => a - b);
      return { max: waits.at(-1) ?? 0, p99: waits[Math.floor(waits.length * 0.99)] ?? 0 };
    },
  };
}

async function child(kitPath, dir, requests) {
  const kit = await importFile(kitPath);
  const store = await kit.ProjectStore.open(dir, { create: true, name: 'Bench' });
  const sizes = [];
  await store.watch(() => {});
  // A request saved first, as in an app that has opened a project: the schemas are compiled at
  // their first use, which is not the commit's to pay.
  const warm = await store.createApi({ name: 'Warm', baseUrl: '' });
  await store.createRequest({ parent: warm.id, name: 'Warm', method: 'GET', url: '/' });
  const api = { version: 1, id: 'a_bench', name: 'Bench API', baseUrl: 'https://api.example.com', auth: { type: 'none' } };
  const placed = [];
  for (let i = 0; i < requests; i++) {
    const request = kit.blankRequest({ id: `r_${i}`, name: `Request ${i}`, method: i % 2 ? 'POST' : 'GET', url: `/things/{id}/items?page=${i}&size=20` });
    placed.push({ folder: `Folder ${Math.floor(i / 50)}`, request });
  }
  const changes = store.newApiChanges({ api, requests: placed, documents: [] });
  const during = lagSampler();
  during.start();
  const t = performance.now();
  await store.commit(changes);
  const commitMs = performance.now() - t;
  const duringLag = during.stop();
  const after = lagSampler();
  after.start();
  await new Promise((r) => setTimeout(r, 3000));
  const afterLag = after.stop();
  // One request save afterwards and what the supervisor broadcasts for it.
  const saved = store.getRequest('r_7');
  const broadcast = await saveBroadcast(kit, store, { ...saved, url: '/things/{id}/items?page=7&size=50' });
  sizes.push(broadcast);
  await store.close();
  process.send({ commitMs, commitMax: duringLag.max, commitP99: duringLag.p99, afterMax: afterLag.max, afterP99: afterLag.p99, saveBytes: broadcast }, () => process.exit(0));
}

/** The bytes of the `project.changed` payload for one save: a delta where the store makes one, the tree before. */
async function saveBroadcast(kit, store, request) {
  if (typeof store.changedEvents === 'function') {
    store.changedEvents([]);
    await store.saveRequest(request);
    return store.changedEvents([request.id]).reduce((sum, event) => sum + kit.encode(event).length, 0);
  }
  await store.saveRequest(request);
  return kit.encode({ tree: store.tree(), changed: [request.id] }).length;
}
