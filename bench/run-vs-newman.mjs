// `parley run` against newman on the same collection, in the same run, against the same server
// (bench/fixtures/crud-server.mjs, its own process on 127.0.0.1): a Postman collection of four
// requests, login -> create -> fetch -> delete (JSON bodies, a Bearer token from a collection
// variable), run by newman's CLI and, after `parley import` into a project, by `parley run`'s CLI,
// each writing its JSON report to a file (newman -r json, parley --reporter json:<file>; parley's
// console report goes to /dev/null). Every command is a fresh process from spawn to exit.
//   - start-up: one iteration, median of 3 interleaved rounds (DESIGN.md: faster than newman);
//   - requests/s and peak RSS at each of the given iteration counts (default 1,000 and 10,000),
//     newman then parley (issue 28 item 7: at least 5x newman's requests/s); requests/s counts
//     the whole command, start-up included;
//   - Parley alone at a larger count (default 100,000 iterations): the RSS of every process of
//     the command (the CLI, with its supervisor, and its sender child) sampled each time the
//     server has answered another 1,000 iterations (issue 28 item 7 and issue 26 item 7: RSS at
//     the last sample within 10% of the one at 1,000).
// RSS is read from /proc: VmRSS at each sample, and each process's VmHWM (its peak) every 250 ms.
// Asserts nothing.
// Usage: node bench/run-vs-newman.mjs [iterations=1000,10000] [alone=100000]
// (iterations 0: no comparison, Parley alone only; alone 0: no long run.)
import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { cleanup, machine, median, root, tempDir } from './fixtures/harness.mjs';
import { crudCollection } from './fixtures/crud-collection.mjs';

const COUNTS = (process.argv[2] ?? '1000,10000').split(',').map(Number).filter((n) => n > 0);
const ALONE = Number(process.argv[3] ?? 100_000);
const PER_ITERATION = 4;
const SAMPLE_EVERY = 1_000; // iterations

const work = await tempDir('run-vs-newman');
const server = spawn(process.execPath, [join(root, 'bench/fixtures/crud-server.mjs'), String(SAMPLE_EVERY * PER_ITERATION)], { stdio: ['pipe', 'pipe', 'inherit'] });
const serverLines = [];
let onServerLine = () => {};
{
  let pending = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (d) => {
    pending += d;
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      serverLines.push(line);
      onServerLine(line);
    }
  });
}
const nextLine = (test) =>
  new Promise((resolve, reject) => {
    const found = serverLines.find(test);
    if (found) return resolve(found);
    onServerLine = (line) => test(line) && resolve(line);
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
const port = Number((await nextLine((l) => l.startsWith('port '))).slice(5));

const collection = crudCollection(port);

/** Every process under `pid` (itself first), from /proc. */
async function tree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const tasks = await readdir(`/proc/${out[i]}/task`).catch(() => []);
    for (const task of tasks) {
      const children = await readFile(`/proc/${out[i]}/task/${task}/children`, 'utf8').catch(() => '');
      for (const c of children.split(' ').filter(Boolean)) out.push(Number(c));
    }
  }
  return out;
}

async function status(pid) {
  const [text, cmdline] = await Promise.all([readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''), readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')]);
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  const args = cmdline.split('\0').filter(Boolean);
  const script = args.find((a) => a.endsWith('.js') || a.endsWith('.mjs'));
  return { pid, name: script ? basename(script) : basename(args[0] ?? '?'), rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Runs one command; returns its wall time, each process's peak RSS, and the RSS of each at every SAMPLE_EVERY iterations. */
function measured(args, env = {}, live = false) {
  return new Promise((resolve, reject) => {
    server.stdin.write('reset\n');
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const peaks = new Map();
    const samples = [];
    const look = async () => {
      for (const s of await Promise.all((await tree(child.pid)).map(status))) if (s.hwm > 0) peaks.set(`${s.name} ${s.pid}`, Math.max(peaks.get(`${s.name} ${s.pid}`) ?? 0, s.hwm));
    };
    const timer = setInterval(() => void look(), 250);
    onServerLine = (line) => {
      if (!line.startsWith('count ')) return;
      const iterations = Number(line.slice(6)) / PER_ITERATION;
      void tree(child.pid)
        .then((pids) => Promise.all(pids.map(status)))
        .then((all) => {
          const processes = all.filter((s) => s.rss > 0).map(({ name, rss }) => ({ name, rss }));
          samples.push({ iterations, processes });
          // A long run prints each sample as it is taken, so a run cut short still has them.
          if (live) console.log(`  sample ${iterations} iterations, ${((Number(process.hrtime.bigint() - started) / 1e9)).toFixed(0)} s: ${processes.map((p) => `${p.name} ${(p.rss / 1024).toFixed(1)} MB`).join(', ')}`);
        });
    };
    child.once('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      clearInterval(timer);
      onServerLine = () => {};
      if (code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}: ${err.slice(-2000)}`));
      else resolve({ ms, peaks: [...peaks].map(([key, kb]) => ({ name: key.split(' ')[0], kb })), samples });
    });
  });
}

const home = join(work, 'home');
const newmanBin = join(root, 'node_modules', 'newman', 'bin', 'newman.js');
const cli = join(root, 'dist', 'cli.js');
const file = join(work, 'crud.postman_collection.json');
const project = join(work, 'project');
await writeFile(file, JSON.stringify(collection));
await measured([cli, 'import', file, '--new-project', project], { PARLEY_HOME: home });

const newman = (n) => measured([newmanBin, 'run', file, '-n', String(n), '-r', 'json', '--reporter-json-export', join(work, 'newman.json')]);
const parley = (n, live = false) => measured([cli, 'run', project, '--iterations', String(n), '--reporter', `json:${join(work, 'parley.json')}`], { PARLEY_HOME: home }, live);

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const peakText = (r) => `${r.peaks.map((p) => `${p.name} ${mb(p.kb)}`).join(' + ')}${r.peaks.length > 1 ? ` = ${mb(r.peaks.reduce((s, p) => s + p.kb, 0))}` : ''}`;

console.log(machine());
if (COUNTS.length > 0) {
  // One warm-up of each (disk caches), not counted.
  await newman(1);
  await parley(1);
  const startup = { newman: [], parley: [] };
  for (let round = 0; round < 3; round++) {
    startup.newman.push((await newman(1)).ms);
    startup.parley.push((await parley(1)).ms);
  }
  console.log(`\nstart-up (one iteration, ${PER_ITERATION} requests), median of 3: newman ${fmt(median(startup.newman))} ms, parley ${fmt(median(startup.parley))} ms (${(median(startup.parley) / median(startup.newman)).toFixed(2)}x; target: faster)`);
  console.log(`\niterations  requests   tool     time        requests/s   peak RSS (each process; sum)`);
}

const ratios = [];
for (const n of COUNTS) {
  const byNewman = await newman(n);
  const byParley = await parley(n);
  const requests = n * PER_ITERATION;
  for (const [tool, r] of [
    ['newman', byNewman],
    ['parley', byParley],
  ]) {
    console.log(`${fmt(n).padStart(10)}  ${fmt(requests).padStart(8)}   ${tool.padEnd(7)}  ${`${(r.ms / 1000).toFixed(1)} s`.padStart(9)}   ${fmt(requests / (r.ms / 1000)).padStart(10)}   ${peakText(r)}`);
  }
  const ratio = byNewman.ms / byParley.ms;
  ratios.push(ratio);
  console.log(`${''.padStart(22)}parley / newman: ${ratio.toFixed(2)}x requests/s (target: at least 5x): ${ratio >= 5 ? 'met' : 'MISSED'}`);
}

if (ALONE > 0) {
  console.log(`\nparley alone, ${fmt(ALONE)} iterations:`);
  const alone = await parley(ALONE, true);
  console.log(`\nparley alone, ${fmt(ALONE)} iterations (${fmt(ALONE * PER_ITERATION)} requests): ${(alone.ms / 1000).toFixed(1)} s, ${fmt((ALONE * PER_ITERATION) / (alone.ms / 1000))} requests/s; peak ${peakText(alone)}`);
  const rows = alone.samples.sort((a, b) => a.iterations - b.iterations);
  const names = [...new Set(rows.flatMap((s) => s.processes.map((p) => p.name)))];
  const shown = rows.filter((s, i) => i === 0 || i === rows.length - 1 || s.iterations % (ALONE / 10 >= SAMPLE_EVERY ? ALONE / 10 : SAMPLE_EVERY) === 0);
  console.log(`RSS at each ${fmt(SAMPLE_EVERY)} iterations (every ${rows.length > shown.length ? 'tenth of the run shown; all in the samples line' : 'sample'}):`);
  console.log(`iteration   ${names.map((n) => n.padStart(12)).join('')}${''.padStart(12)}`);
  const sum = (s) => s.processes.reduce((t, p) => t + p.rss, 0);
  for (const s of shown) console.log(`${fmt(s.iterations).padStart(9)}   ${names.map((n) => mb(s.processes.filter((p) => p.name === n).reduce((t, p) => t + p.rss, 0)).padStart(12)).join('')}${`= ${mb(sum(s))}`.padStart(12)}`);
  const first = rows[0];
  const last = rows.at(-1);
  if (first && last && first !== last) {
    for (const n of [...names, 'all']) {
      const at = (s) => (n === 'all' ? sum(s) : s.processes.filter((p) => p.name === n).reduce((t, p) => t + p.rss, 0));
      const drift = at(last) / at(first) - 1;
      const max = Math.max(...rows.map(at));
      console.log(`${n}: ${mb(at(first))} at ${fmt(first.iterations)}, ${mb(at(last))} at ${fmt(last.iterations)} (${drift >= 0 ? '+' : ''}${(drift * 100).toFixed(1)}%; highest sample ${mb(max)}; target within 10%): ${Math.abs(drift) <= 0.1 ? 'met' : 'MISSED'}`);
    }
  }
  console.log(`samples (iterations: total RSS kB): ${JSON.stringify(rows.map((s) => [s.iterations, sum(s)]))}`);
}
server.stdin.end();
await cleanup(work);
