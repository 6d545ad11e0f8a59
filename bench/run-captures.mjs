// What captures cost `parley run` (issue 28 item 5): the login -> create -> fetch -> delete
// collection of bench/run-vs-newman.mjs against fixtures/crud-server.mjs, imported twice: as it
// is (the Bearer token from a collection variable), and with "1 login" capturing that variable
// from its JSON body (`$.token`, a body JSONPath: on the checker's query thread, and the three
// requests after it resolved only once it is set, where they otherwise overlap its checks).
// Each `parley run --iterations N --reporter json:<file>` is a fresh process from spawn to exit;
// rounds interleave the two projects; the median of the rounds is shown. Asserts nothing.
// Usage: node bench/run-captures.mjs [iterations=1000] [rounds=3]
import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanup, machine, median, root, tempDir } from './fixtures/harness.mjs';
import { crudCollection } from './fixtures/crud-collection.mjs';

const ITERATIONS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 3);
const PER_ITERATION = 4;

const work = await tempDir('run-captures');
const server = spawn(process.execPath, [join(root, 'bench/fixtures/crud-server.mjs'), '0'], { stdio: ['pipe', 'pipe', 'inherit'] });
const port = await new Promise((resolve) => {
  let text = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (d) => {
    text += d;
    const m = /port (\d+)/.exec(text);
    if (m) resolve(Number(m[1]));
  });
});

const cli = join(root, 'dist', 'cli.js');
const home = join(work, 'home');

function run(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PARLEY_HOME: home } });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`parley ${args.join(' ')} exited with ${code}: ${err.slice(-2000)}`))));
  });
}

const file = join(work, 'crud.postman_collection.json');
await writeFile(file, JSON.stringify(crudCollection(port)));
const plain = join(work, 'plain');
const captured = join(work, 'captured');
await run(['import', file, '--new-project', plain]);
await run(['import', file, '--new-project', captured]);
// "1 login" captures the collection's `grant` (its Bearer token) from the body, for the requests after it.
const requests = join(captured, 'apis', (await readdir(join(captured, 'apis')))[0], 'requests');
const login = join(requests, (await readdir(requests)).find((f) => f.startsWith('1 login')));
const text = await readFile(login, 'utf8');
await writeFile(login, `${text.replace(/^version: \d+$/m, 'version: 3').trimEnd()}\ncaptures:\n  - enabled: true\n    name: grant\n    source: jsonpath\n    expression: $.token\n    scope: session\n`);

const report = join(work, 'report.json');
const parley = (project) => run(['run', project, '--iterations', String(ITERATIONS), '--reporter', `json:${report}`]);
const checked = async (project, captures) => {
  const { summary } = JSON.parse(await readFile(report, 'utf8'));
  if (summary.failed > 0 || (captures ? summary.captures?.total !== ITERATIONS : summary.captures !== undefined)) throw new Error(`${project}: ${JSON.stringify(summary)}`);
};

console.log(machine());
await parley(plain);
await parley(captured);
const times = { plain: [], captured: [] };
for (let round = 0; round < ROUNDS; round++) {
  times.plain.push(await parley(plain));
  await checked(plain, false);
  times.captured.push(await parley(captured));
  await checked(captured, true);
}
const requestsPerSecond = (ms) => Math.round((ITERATIONS * PER_ITERATION) / (ms / 1000)).toLocaleString('en-US');
const [p, c] = [median(times.plain), median(times.captured)];
console.log(`\n${ITERATIONS.toLocaleString('en-US')} iterations (${(ITERATIONS * PER_ITERATION).toLocaleString('en-US')} requests), median of ${ROUNDS}:`);
console.log(`  no captures:          ${(p / 1000).toFixed(1)} s, ${requestsPerSecond(p)} requests/s`);
console.log(`  login captures token: ${(c / 1000).toFixed(1)} s, ${requestsPerSecond(c)} requests/s (${(c / p).toFixed(2)}x the time)`);
console.log(`  rounds (ms): no captures ${times.plain.map(Math.round).join(', ')}; captures ${times.captured.map(Math.round).join(', ')}`);
server.stdin.end();
await cleanup(work);
