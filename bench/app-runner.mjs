// The app's Runner (issue 28 item 6) against `parley run`, on the same collection and server as
// bench/run-vs-newman.mjs (login -> create -> fetch -> delete, fixtures/crud-server.mjs in its
// own process on 127.0.0.1). The Runner runs in `parley ui` started once (not timed), driven over
// its UI bus as the page drives it: `run.start` of the four requests with N iterations, timed to
// its `run.finished` event, with the bus pinged every 50 ms meanwhile (how the supervisor answers
// a page during a run), the `run.progress` events counted and their encoded bytes summed (what a
// page receives), and the RSS of the app's processes sampled every 250 ms (peak during the run).
// `parley run --iterations N --reporter json:<file>` is timed from spawn to exit (start-up
// included, about 2-3 s) with its peak RSS. Both reports are read back: same outcome count.
// Asserts nothing. Usage: node bench/app-runner.mjs [iterations=1000,10000]
import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { bundleNode, cleanup, connectBus, importFile, machine, root, startParley, tempDir } from './fixtures/harness.mjs';
import { crudCollection } from './fixtures/crud-collection.mjs';

const COUNTS = (process.argv[2] ?? '1000,10000').split(',').map(Number).filter((n) => n > 0);
const PER_ITERATION = 4;

const work = await tempDir('app-runner');
const kits = await bundleNode({ 'bus-kit': 'bench/fixtures/bus-kit.ts', 'codec-kit': 'protocol/codec.ts' }, work);
const busKit = await importFile(kits['bus-kit']);
const codec = await importFile(kits['codec-kit']);

const server = spawn(process.execPath, [join(root, 'bench/fixtures/crud-server.mjs'), '0'], { stdio: ['pipe', 'pipe', 'inherit'] });
const port = await new Promise((resolve) => {
  let text = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (d) => {
    text += d;
    const match = /port (\d+)/.exec(text);
    if (match) resolve(Number(match[1]));
  });
});

const collection = crudCollection(port);

/** Every process under `pid` (itself first), from /proc. */
async function tree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    for (const task of await readdir(`/proc/${out[i]}/task`).catch(() => [])) {
      const children = await readFile(`/proc/${out[i]}/task/${task}/children`, 'utf8').catch(() => '');
      for (const c of children.split(' ').filter(Boolean)) out.push(Number(c));
    }
  }
  return out;
}

async function status(pid) {
  const [text, cmdline] = await Promise.all([readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''), readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')]);
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  const script = cmdline.split('\0').find((a) => a.endsWith('.js') || a.endsWith('.mjs'));
  return { name: script ? basename(script) : String(pid), rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** The highest RSS each process under `pid` reaches until `stop()` (sampled every 250 ms). */
function peakRss(pid, field) {
  const peaks = new Map();
  const look = async () => {
    for (const s of await Promise.all((await tree(pid)).map(status))) if (s[field] > 0) peaks.set(s.name, Math.max(peaks.get(s.name) ?? 0, s[field]));
  };
  const timer = setInterval(() => void look(), 250);
  return async () => {
    clearInterval(timer);
    await look();
    return peaks;
  };
}

const home = join(work, 'home');
const cli = join(root, 'dist', 'cli.js');
const file = join(work, 'crud.postman_collection.json');
const project = join(work, 'project');
await writeFile(file, JSON.stringify(collection));
await new Promise((resolve, reject) => spawn(process.execPath, [cli, 'import', file, '--new-project', project], { env: { ...process.env, PARLEY_HOME: home }, stdio: 'ignore' }).once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`import exited with ${code}`)))));

function parleyRun(n) {
  const report = join(work, `cli-${n}.json`);
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'run', project, '--iterations', String(n), '--reporter', `json:${report}`], { env: { ...process.env, PARLEY_HOME: home }, stdio: 'ignore' });
  const peaks = peakRss(child.pid, 'hwm');
  return new Promise((resolve) => child.once('exit', async () => resolve({ ms: performance.now() - started, peaks: await peaks(), report })));
}

const app = await startParley([], { home });
const page = await connectBus(app, busKit);
const opened = await page.call('project.open', { path: project });
const ids = busKit.withPages([], opened).items.filter((i) => i.kind === 'request').map((i) => i.id);
const ended = new Map();
const received = { events: 0, rows: 0, skipped: 0, bytes: 0 };
page.on('run.progress', (e) => {
  received.events++;
  received.rows += e.rows.length;
  received.skipped += e.skipped;
  received.bytes += codec.encode(e).length;
});
page.on('run.finished', (e) => ended.get(e.run)?.(e));

async function appRun(n) {
  Object.assign(received, { events: 0, rows: 0, skipped: 0, bytes: 0 });
  const peaks = peakRss(app.child.pid, 'rss');
  const pings = [];
  let running = true;
  const pinging = (async () => {
    while (running) {
      const t = performance.now();
      await page.call('app.ping', { t });
      pings.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const started = performance.now();
  const state = await page.call('run.start', { project, scope: '@project', requests: ids, iterations: n, delayMs: 0 });
  const finished = await new Promise((resolve) => ended.set(state.run, resolve));
  const ms = performance.now() - started;
  running = false;
  await pinging;
  const report = join(work, `app-${n}.json`);
  await page.call('run.export', { run: state.run, format: 'json', path: report });
  pings.sort((a, b) => a - b);
  return { ms, peaks: await peaks(), report, finished, pings, received: { ...received } };
}

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const peakText = (peaks) => `${[...peaks].map(([name, kb]) => `${name} ${mb(kb)}`).join(' + ')} = ${mb([...peaks.values()].reduce((s, kb) => s + kb, 0))}`;
const outcomes = async (path) => (JSON.parse(await readFile(path, 'utf8')).outcomes ?? []).length;

console.log(machine());
// Warm-up of each, not counted.
await appRun(10);
await parleyRun(10);
for (const n of COUNTS) {
  const requests = n * PER_ITERATION;
  const byApp = await appRun(n);
  const byCli = await parleyRun(n);
  const p = (q) => byApp.pings[Math.min(byApp.pings.length - 1, Math.floor(byApp.pings.length * q))];
  console.log(`\n${fmt(n)} iterations, ${fmt(requests)} requests`);
  console.log(`  Runner in the app: ${(byApp.ms / 1000).toFixed(1)} s, ${fmt(requests / (byApp.ms / 1000))} requests/s; peak RSS during the run ${peakText(byApp.peaks)}; report ${fmt(await outcomes(byApp.report))} outcomes, ${byApp.finished.summary.failed} failed`);
  console.log(`    to the page: ${fmt(byApp.received.events)} run.progress events (${(byApp.received.events / (byApp.ms / 1000)).toFixed(1)}/s), ${fmt(byApp.received.rows)} rows sent, ${fmt(byApp.received.skipped)} counted only, ${(byApp.received.bytes / 1024 / 1024).toFixed(2)} MB`);
  console.log(`    app.ping during the run (${byApp.pings.length}): p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms, slowest ${byApp.pings.at(-1).toFixed(1)} ms`);
  console.log(`  parley run:        ${(byCli.ms / 1000).toFixed(1)} s (start-up included), ${fmt(requests / (byCli.ms / 1000))} requests/s; peak RSS ${peakText(byCli.peaks)}; report ${fmt(await outcomes(byCli.report))} outcomes`);
}

page.close();
await app.stop();
server.stdin.end();
server.kill();
await cleanup(work);
