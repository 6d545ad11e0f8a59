// `parley run` against newman on the same collection (DESIGN.md budget: at least 2x newman's
// requests/s; issue 17 also asks for a faster start-up on a one-request project). A Postman
// collection of 10 GET requests against a loopback server (its own process) is run by newman's
// CLI and, after `parley import` into a project, by `parley run`'s CLI, in the same run:
//   - 1,000 requests: 100 iterations of the 10 (-n 100 / --iterations 100), each tool writing its
//     JSON report to a file (newman -r json, parley --reporter json:<file>);
//   - start-up: a one-request collection, once (wall time from spawn to exit).
// Rounds are interleaved (newman, parley, newman, ...), and the median of each is reported with
// the ratio. Requests/s counts the whole command, start-up included; "steady" subtracts each
// tool's one-request time. Asserts nothing.
// Usage: node bench/run-vs-newman.mjs [iterations=100] [rounds=3]
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanup, machine, median, root, tempDir } from './fixtures/harness.mjs';

const ITERATIONS = Number(process.argv[2] ?? 100);
const ROUNDS = Number(process.argv[3] ?? 3);
const PER_ITERATION = 10;

const work = await tempDir('run-vs-newman');
const server = spawn(process.execPath, [join(root, 'bench/fixtures/loopback-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const match = /port (\d+)/.exec(out);
    if (match) resolve(Number(match[1]));
  });
  server.once('exit', (code) => reject(new Error(`the loopback server exited with ${code}`)));
});

const collection = (count, name) => ({
  info: { name, schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  variable: [{ key: 'baseUrl', value: `http://127.0.0.1:${port}` }],
  item: Array.from({ length: count }, (_, i) => ({
    name: `${String(i).padStart(2, '0')} item`,
    request: { method: 'GET', header: [{ key: 'Accept', value: 'application/json' }], url: { raw: `{{baseUrl}}/items/${i}?page=1`, host: ['{{baseUrl}}'], path: ['items', String(i)], query: [{ key: 'page', value: '1' }] } },
  })),
});

function timed(args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}: ${err.slice(-2000)}`));
      else resolve(ms);
    });
  });
}

const home = join(work, 'home');
const newmanBin = join(root, 'node_modules', 'newman', 'bin', 'newman.js');
const cli = join(root, 'dist', 'cli.js');
const projects = {};
for (const [key, count] of [
  ['many', PER_ITERATION],
  ['one', 1],
]) {
  const file = join(work, `${key}.postman_collection.json`);
  await writeFile(file, JSON.stringify(collection(count, `bench ${key}`)));
  projects[key] = { file, dir: join(work, `project-${key}`) };
  await timed([cli, 'import', file, '--new-project', projects[key].dir], { PARLEY_HOME: home });
}

const newman = (key, n) => timed([newmanBin, 'run', projects[key].file, '-n', String(n), '-r', 'json', '--reporter-json-export', join(work, 'newman.json')]);
const parley = (key, n) => timed([cli, 'run', projects[key].dir, '--iterations', String(n), '--reporter', `json:${join(work, 'parley.json')}`], { PARLEY_HOME: home });

console.log(machine());
const results = { newman: { many: [], one: [] }, parley: { many: [], one: [] } };
// One warm-up of each (disk caches), not counted.
await newman('one', 1);
await parley('one', 1);
for (let round = 0; round < ROUNDS; round++) {
  results.newman.one.push(await newman('one', 1));
  results.parley.one.push(await parley('one', 1));
  results.newman.many.push(await newman('many', ITERATIONS));
  results.parley.many.push(await parley('many', ITERATIONS));
}
server.stdin.end();
await cleanup(work);

const total = PER_ITERATION * ITERATIONS;
const row = (tool) => {
  const one = median(results[tool].one);
  const many = median(results[tool].many);
  return { tool, one, many, rate: total / (many / 1000), steady: (total - 1) / ((many - one) / 1000) };
};
const n = row('newman');
const p = row('parley');
const fmt = (x) => Math.round(x).toLocaleString('en-US');
console.log(`\n${total} requests (${PER_ITERATION} x ${ITERATIONS} iterations), median of ${ROUNDS} rounds:`);
console.log('tool     one-request run   1,000-request run   requests/s (whole)   requests/s (steady)');
for (const r of [n, p]) console.log(`${r.tool.padEnd(8)} ${`${fmt(r.one)} ms`.padStart(15)}   ${`${fmt(r.many)} ms`.padStart(17)}   ${fmt(r.rate).padStart(18)}   ${fmt(r.steady).padStart(19)}`);
console.log(`parley / newman: requests/s ${(p.rate / n.rate).toFixed(2)}x whole, ${(p.steady / n.steady).toFixed(2)}x steady (target: at least 2x): ${p.rate / n.rate >= 2 ? 'met' : 'MISSED'}`);
console.log(`start-up (one request): parley ${fmt(p.one)} ms, newman ${fmt(n.one)} ms, ${(p.one / n.one).toFixed(2)}x (target: faster): ${p.one < n.one ? 'met' : 'MISSED'}`);
console.log(`samples: ${JSON.stringify(results)}`);
