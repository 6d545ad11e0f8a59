// Watching a project for edits made outside Parley (bench/README.md, bottleneck 2): the
// supervisor starts a watcher on every project it opens, so its start-up cost lands right after
// the open. Parley's FolderWatcher (processes/supervisor/store/folder-watcher.ts) against the
// peers it replaced or passed over, each in a fresh process, interleaved, on the same tree as
// bench/big-project.mjs (4 APIs x 50 folders x 25 request files, 5,000 files in 205 folders):
// time until ready; the event loop's longest wait from the start until 200 ms after ready;
// memory it added; CPU while idle for 5 s; how soon an edit is seen; and, 10 times each, whether
// a file made inside folders made at once (mkdir -p) is seen, and a file made there later.
// chokidar and @parcel/watcher come from bench/peers (npm ci --prefix bench/peers on first run).
// Usage: node bench/watch.mjs [rounds=3]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleNode, cleanup, machine, median, root, tempDir } from './fixtures/harness.mjs';

const ROUNDS = Number(process.argv[2] ?? 3);
const WATCHERS = ['parley', 'chokidar', 'parcel', 'node-recursive'];
const peersDir = join(root, 'bench', 'peers');
if (!existsSync(join(peersDir, 'node_modules', 'chokidar')) || !existsSync(join(peersDir, 'node_modules', '@parcel', 'watcher'))) {
  console.error('bench/watch: installing the peers into bench/peers (first run): npm ci --prefix bench/peers');
  execFileSync('npm', ['ci', '--prefix', peersDir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
}

const work = await tempDir('watch');
const built = await bundleNode({ 'folder-watcher': 'processes/supervisor/store/folder-watcher.ts' }, join(work, 'build'));
const project = join(work, 'project');
const text = `version: 1\nmethod: GET\nurl: /area/items/{id}\n${'headers:\n  - name: Accept\n    value: application/json\n'.repeat(12)}`;
for (let a = 1; a <= 4; a++) {
  for (let f = 0; f < 50; f++) {
    const dir = join(project, 'apis', `Service ${a}`, 'requests', `area-${String(f).padStart(2, '0')}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: 25 }, (_, i) => writeFile(join(dir, `GET item ${i}.request.yaml`), text)));
  }
}
const edited = join(project, 'apis', 'Service 3', 'requests', 'area-33', 'GET item 5.request.yaml');
console.log(`watch bench, ${machine()}; 5,000 files in 205 folders; ${ROUNDS} rounds, watchers interleaved`);

const results = Object.fromEntries(WATCHERS.map((w) => [w, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const which of WATCHERS) {
    const scratch = join(work, `scratch-${which}-${round}`);
    await mkdir(scratch);
    const out = execFileSync(process.execPath, [join(root, 'bench', 'fixtures', 'watch-one.mjs'), which, project, edited, scratch, built['folder-watcher'], peersDir]);
    results[which].push(JSON.parse(out.toString().trim().split('\n').pop()));
  }
}

const fmt = (x, digits = 0) => (x === null || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits));
console.log('\n| watcher | ready | loop longest wait | memory added | CPU idle 5 s | edit seen after | mkdir -p: first file missed | later file missed |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const which of WATCHERS) {
  const rows = results[which];
  const med = (key) => median(rows.map((r) => r[key]).filter((x) => x !== null));
  const sum = (key) => rows.reduce((n, r) => n + r[key], 0);
  const tries = rows.reduce((n, r) => n + r.tries, 0);
  console.log(
    `| ${which} | ${fmt(med('readyMs'))} ms | ${fmt(med('loopWorstMs'))} ms | ${fmt(med('rssMb'))} MB | ${fmt(med('idleCpuMs'))} ms | ${fmt(med('editMs'))} ms | ${sum('firstMissed')} of ${tries} | ${sum('laterMissed')} of ${tries} |`,
  );
}
const p = median(results.parley.map((r) => r.readyMs));
const c = median(results.chokidar.map((r) => r.readyMs));
console.log(`\nready: chokidar / Parley ${(c / p).toFixed(1)}x (medians)`);
await cleanup(work);
