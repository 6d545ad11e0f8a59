// HAR import and `parley check --har` against a bare JSON.parse of the same file, in the same run
// (issue 15; DESIGN.md: under 3x the time, importer peak memory under 3x the file, UI bus ping
// p99 under 50 ms meanwhile). Captures are generated (test/support/har-generator.ts) at 10 MB and
// 99 MB. Every measurement runs in a fresh process and the kinds take turns, run after run:
//   bare      node: readFileSync(file, 'utf8') + JSON.parse, time and peak RSS
//   engine    the importer engine alone (streaming reader + conversion) in a fresh process
//   app       `parley ui`, import.run over the UI bus (WebSocket) as the dialog calls it (import.detect
//             when the file is picked, which starts the importer child; Import 1 s later), the bus
//             pinged every 5 ms meanwhile; the importer child's peak RSS (VmHWM) from /proc
//   alone     the same import.run with no import.detect before it: the child starts with the job
//   check     `parley check --har` of the 99 MB capture (no operation matches: the budget case)
// and, as the floor of any peak memory here, Node's own: an empty `node -e ''` and an importer
// child idle after its bus handshake (dist/importer.js, no job).
// Usage: npm run build && node bench/har-import.mjs [runs=3]
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bundleNode, cleanup, connectBus, importFile, machine, median, root, startParley, tempDir } from './fixtures/harness.mjs';

const runs = Number(process.argv[2] ?? 3);
const MB = 1024 * 1024;
const work = await tempDir('har');
const built = await bundleNode({ 'har-kit': 'bench/fixtures/har-kit.ts', 'bus-kit': 'bench/fixtures/bus-kit.ts' }, work);
const kit = await importFile(built['har-kit']);
const busKit = await importFile(built['bus-kit']);

/** Runs `code` (an ES module body) in a fresh node; it prints one JSON line. */
function fresh(code, args = []) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code, ...args], { encoding: 'utf8', maxBuffer: 64 * MB });
  return JSON.parse(out.trim().split('\n').pop());
}

const BARE = `
const { readFileSync } = await import('node:fs');
const t = performance.now();
const v = JSON.parse(readFileSync(process.argv[1], 'utf8'));
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, rssMb: process.resourceUsage().maxRSS / 1024, entries: v.log.entries.length }));`;

const ENGINE = `
const kit = await import(${JSON.stringify(`file://${built['har-kit']}`)});
const t = performance.now();
const result = await kit.importHarFile(process.argv[1]);
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, rssMb: process.resourceUsage().maxRSS / 1024, requests: result.report.requestCount }));`;

function importerPids(parent) {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1]) !== parent) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('importer.js')) pids.push(Number(name));
    } catch {
      // gone
    }
  }
  return pids;
}

async function throughApp(file, n, { dialog }) {
  const app = await startParley([]);
  try {
    const page = await connectBus(app, busKit);
    if (dialog) {
      // As the Import dialog: the badge is asked for when the file is picked (which starts the
      // importer child), and Import is pressed a moment later.
      await page.call('import.detect', { source: { kind: 'file', path: file } });
      await new Promise((r) => setTimeout(r, 1000));
    }
    // The reference: the same pings to the idle app for 2 s first (on a shared machine, contention alone delays some).
    const idle = [];
    for (const until = performance.now() + 2000; performance.now() < until; ) {
      const t = performance.now();
      await page.call('app.ping', { t });
      idle.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
    idle.sort((a, b) => a - b);
    let peak = 0;
    let finished = false;
    const pings = [];
    const started = performance.now();
    // The first progress (1 MB read) says when the child was up, its job thread started and the HAR engine loaded.
    let firstMs = NaN;
    const onChunk = () => {
      if (Number.isNaN(firstMs)) firstMs = performance.now() - started;
    };
    const job = page.call('import.run', { source: { kind: 'file', path: file }, format: 'har', options: {}, into: { kind: 'new', path: join(work, `project-${n}`) } }, { onChunk }).finally(() => (finished = true));
    const sampler = setInterval(() => {
      for (const pid of importerPids(app.child.pid)) {
        try {
          peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
        } catch {
          // gone
        }
      }
    }, 50);
    while (!finished) {
      const t = performance.now();
      await page.call('app.ping', { t });
      if (!finished) pings.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
    const result = await job;
    const ms = performance.now() - started;
    clearInterval(sampler);
    page.close();
    pings.sort((a, b) => a - b);
    return { ms, firstMs, peakMb: peak, pingP99: pings[Math.floor(pings.length * 0.99)] ?? NaN, idleP99: idle[Math.floor(idle.length * 0.99)] ?? NaN, pings: pings.length, requests: result.report.requestCount };
  } finally {
    await app.stop();
  }
}

function check(file) {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'dist', 'cli.js'), 'check', '--definition', join(root, 'test/fixtures/cli-check/har/pets-api.yaml'), '--har', file, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`parley check exited ${code}`));
      resolve({ ms: performance.now() - t, noOperation: JSON.parse(out).noOperation.count });
    });
  });
}

/** Node's own memory: peak RSS of an empty `node -e ''`, and of an importer child idle after its handshake. */
async function baselines() {
  const empty = median(Array.from({ length: 3 }, () => fresh(`console.log(JSON.stringify({ rssMb: process.resourceUsage().maxRSS / 1024 }))`).rssMb));
  const idle = [];
  for (let r = 0; r < 3; r++) {
    const child = new busKit.ChildProcessHandle({ name: 'importer process', entry: join(root, 'dist', 'importer.js'), execArgv: ['--max-old-space-size=768'], restart: false, log: () => {} });
    await child.start();
    await child.call('sys.ping', { t: Date.now() });
    idle.push(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024);
    await child.stop();
  }
  return { empty, idle: median(idle) };
}

const fmt = (x, d = 0) => x.toFixed(d);
try {
  console.log(`# HAR import bench (${new Date().toISOString()})\n${machine()}\n`);
  const floor = await baselines();
  console.log(`Node's own peak memory: empty \`node -e ''\` ${fmt(floor.empty, 1)} MB; importer child idle after its handshake ${fmt(floor.idle, 1)} MB (median of 3)\n`);
  for (const size of [10, 99]) {
    const file = join(work, `capture-${size}.har`);
    const { bytes, entries } = await kit.writeHar(file, { bytes: size * MB, paths: 300 });
    const fileMb = bytes / MB;
    const rows = { bare: [], engine: [], app: [], cold: [], check: [] };
    for (let r = 0; r < runs; r++) {
      rows.bare.push(fresh(BARE, [file]));
      rows.engine.push(fresh(ENGINE, [file]));
      rows.app.push(await throughApp(file, `${size}-${r}`, { dialog: true }));
      rows.cold.push(await throughApp(file, `${size}-${r}-cold`, { dialog: false }));
      if (size === 99) rows.check.push(await check(file));
    }
    const m = (list, key) => median(list.map((x) => x[key]));
    const bare = m(rows.bare, 'ms');
    console.log(`## ${fmt(fileMb, 1)} MB capture, ${entries.toLocaleString('en-US')} entries (median of ${runs})`);
    console.log(`| what | time | MB/s | x bare JSON.parse | peak memory | x file | UI ping p99 |`);
    console.log(`|---|---:|---:|---:|---:|---:|---:|`);
    console.log(`| bare readFileSync + JSON.parse | ${fmt(bare)} ms | ${fmt(fileMb / (bare / 1000), 1)} | 1.00 | ${fmt(m(rows.bare, 'rssMb'))} MB | ${fmt(m(rows.bare, 'rssMb') / fileMb, 2)} | |`);
    const engine = m(rows.engine, 'ms');
    console.log(`| importer engine (fresh process) | ${fmt(engine)} ms | ${fmt(fileMb / (engine / 1000), 1)} | ${fmt(engine / bare, 2)} | ${fmt(m(rows.engine, 'rssMb'))} MB | ${fmt(m(rows.engine, 'rssMb') / fileMb, 2)} | |`);
    const app = m(rows.app, 'ms');
    console.log(`| import.run through parley ui, as the dialog (auto-detect when the file is picked, Import 1 s later) | ${fmt(app)} ms | ${fmt(fileMb / (app / 1000), 1)} | ${fmt(app / bare, 2)} | ${fmt(m(rows.app, 'peakMb'))} MB | ${fmt(m(rows.app, 'peakMb') / fileMb, 2)} | ${fmt(m(rows.app, 'pingP99'), 1)} ms (${Math.round(m(rows.app, 'pings'))} pings; idle app ${fmt(m(rows.app, 'idleP99'), 1)} ms) |`);
    const cold = m(rows.cold, 'ms');
    console.log(`| import.run alone, no auto-detect first (the importer child starts with the job) | ${fmt(cold)} ms | ${fmt(fileMb / (cold / 1000), 1)} | ${fmt(cold / bare, 2)} | ${fmt(m(rows.cold, 'peakMb'))} MB | ${fmt(m(rows.cold, 'peakMb') / fileMb, 2)} | ${fmt(m(rows.cold, 'pingP99'), 1)} ms |`);
    if (rows.check.length > 0) {
      const c = m(rows.check, 'ms');
      console.log(`| parley check --har (${rows.check[0].noOperation.toLocaleString('en-US')} exchanges, no operation matches) | ${fmt(c)} ms | ${fmt(fileMb / (c / 1000), 1)} | ${fmt(c / bare, 2)} | | | |`);
    }
    console.log(`\nRuns: bare ${rows.bare.map((x) => fmt(x.ms)).join(', ')}; engine ${rows.engine.map((x) => fmt(x.ms)).join(', ')}; app ${rows.app.map((x) => fmt(x.ms)).join(', ')} (first progress at ${rows.app.map((x) => fmt(x.firstMs)).join(', ')}); alone ${rows.cold.map((x) => fmt(x.ms)).join(', ')} (first progress at ${rows.cold.map((x) => fmt(x.firstMs)).join(', ')})${rows.check.length ? `; check ${rows.check.map((x) => fmt(x.ms)).join(', ')}` : ''} ms\n`);
  }
} finally {
  await cleanup(work);
}
