// Mock hosting, side by side in one run (DESIGN.md budgets: a static GET at 50 connections reaches
// at least 50% of bare node's requests/s with p99 under 5 ms; with the request contract check on,
// at least 70% of the same mock with it off).
//
// Part 1, processes: `parley mock serve` (the real CLI and mock-host child; a project's mock with the
// contract check off, and on with `refuse`; and `parley mock serve <openapi.json>`, the mock made
// from the document with no project, check `log`), a bare node:http server answering the same fixed
// body (the limit), Prism and Mockoon CLI serving the same OpenAPI document. For each: start-up time
// to first answer, a GET with a static example, a POST whose JSON body is validated against the
// contract (Mockoon does not validate requests: its POST figure is without validation), requests/s,
// p50 and p99 latency, and the peak memory of its whole process tree (VmHWM summed over the tree,
// Linux). Bare node and the Parley servers stay up side by side and are measured in interleaved
// rounds (bare, parley off, parley on, document, bare, ...), the median of the rounds kept, so a
// change in the machine's load during the run moves all of them rather than one ratio.
// Part 2, the engine in this process (the first version of this bench): static and templated GETs
// through MockServer with the app's contract checker, check off and on.
//
// Prism and Mockoon are installed into bench/peers/ (their own package.json and lock), not into
// Parley's; the first run does `npm ci --prefix bench/peers` and says so.
// autocannon runs in its own process so it never shares an event loop with a server.
// Prints JSON lines, then the targets with "met" or "MISSED"; asserts nothing.
// Usage: node bench/mock-serve.mjs [seconds=5] [connections=50] [rounds=3]   (run `npm run build` first)
// Part 3, the listener's own work per request without sockets (static and templated GETs through
// MockServer's request handler), in ns of CPU per request.
// Same-run before/after: PARLEY_BEFORE_DIST=<a dist/ built from an earlier commit> adds that
// build's `mock serve`, check off and on, to the interleaved rounds, and prints after/before; and
// in part 3 the engine of the sources beside that dist/, alternately with this tree's.
// PARLEY_BENCH_PEERS=0 leaves out Prism and Mockoon (and their install). PARLEY_BENCH_PARTS=3 (or
// 1,3 ...) runs only those parts.
// A before build: git archive <commit> | tar -x -C /tmp/before; ln -s $PWD/node_modules
// /tmp/before/; (cd /tmp/before && node scripts/build.mjs); then PARLEY_BEFORE_DIST=/tmp/before/dist.
import { build } from 'esbuild';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 50);
const rounds = Number(process.argv[4] ?? 3);
const work = await mkdtemp(join(tmpdir(), 'parley-bench-mock-'));
const requireFromRoot = createRequire(join(root, 'package.json'));
const peersDir = join(root, 'bench', 'peers');
const beforeDist = process.env.PARLEY_BEFORE_DIST;
const withPeers = process.env.PARLEY_BENCH_PEERS !== '0';
if (beforeDist && !existsSync(join(beforeDist, 'cli.js'))) {
  console.error(`bench/mock-serve: PARLEY_BEFORE_DIST=${beforeDist} has no cli.js.`);
  process.exit(2);
}

if (!existsSync(join(root, 'dist', 'cli.js')) || !existsSync(join(root, 'dist', 'mock-host.js'))) {
  console.error('bench/mock-serve: build first (npm run build): dist/cli.js and dist/mock-host.js are needed.');
  process.exit(2);
}
if (withPeers && (!existsSync(join(peersDir, 'node_modules', '.bin', 'prism')) || !existsSync(join(peersDir, 'node_modules', '.bin', 'mockoon-cli')))) {
  console.error('bench/mock-serve: installing Prism and Mockoon CLI into bench/peers (first run): npm ci --prefix bench/peers');
  execFileSync('npm', ['ci', '--prefix', peersDir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
}
const peerVersion = (name) => !withPeers ? 'not run' : JSON.parse(execFileSync(process.execPath, ['-p', `JSON.stringify(require('${name}/package.json').version)`], { cwd: peersDir }).toString());

// --- one OpenAPI document for everyone --------------------------------------------------------
// The test fixture's two files, bundled into one JSON document so every peer reads the same thing.
const { $RefParser } = requireFromRoot('@apidevtools/json-schema-ref-parser');
const fixtures = join(root, 'test/fixtures/mocks/contracts');
const openapi = await new $RefParser().dereference(join(fixtures, 'pets.openapi.yaml'));
const petsList = openapi.paths['/pets'].get.responses['200'].content['application/json'].example;
const staticBody = JSON.stringify(petsList);
const created = { id: 1, name: 'Tom', kind: 'cat' };
openapi.paths['/pets'].post.responses['201'].content['application/json'].example = created;
const openapiFile = join(work, 'openapi.json');
await writeFile(openapiFile, JSON.stringify(openapi, null, 2));
const postBody = JSON.stringify({ name: 'Rex', kind: 'dog' });

// --- a Parley project holding the same document and two mocks ----------------------------------
const project = join(work, 'project');
async function files(base, entries) {
  for (const [rel, text] of Object.entries(entries)) {
    await mkdir(dirname(join(base, rel)), { recursive: true });
    await writeFile(join(base, rel), text);
  }
}
const mockFiles = (id, contractCheck) => ({
  'mock.yaml': `version: 1\nid: ${id}\nkind: rest\napi: api-pets\nport: 0\npath: /\ncontractCheck: ${contractCheck}\n`,
  'operations/listPets/operation.yaml': 'version: 1\nid: op-list\nmethod: GET\npath: /pets\ndispatch: in-order\nresponses: [Default]\n',
  'operations/listPets/Default.response.yaml': 'version: 1\nid: r-list\nname: Default\nstatus: 200\nbody: json\nheaders:\n  - name: Content-Type\n    value: application/json\n',
  'operations/listPets/Default.body.json': staticBody,
  'operations/createPet/operation.yaml': 'version: 1\nid: op-create\nmethod: POST\npath: /pets\ndispatch: in-order\nresponses: [Default]\n',
  'operations/createPet/Default.response.yaml': 'version: 1\nid: r-create\nname: Default\nstatus: 201\nbody: json\nheaders:\n  - name: Content-Type\n    value: application/json\n',
  'operations/createPet/Default.body.json': JSON.stringify(created),
});
await files(project, {
  'parley.yaml': 'version: 1\nname: Bench\nproperties: []\n',
  'apis/pets/api.yaml': 'version: 1\nid: api-pets\nname: Pets\nbaseUrl: http://127.0.0.1:1\nauth:\n  type: none\ndefinition:\n  format: openapi-3.0\n  cached:\n    - definition/openapi.json\n  fingerprint: bench\n',
  'apis/pets/definition/openapi.json': JSON.stringify(openapi),
});
await files(join(project, 'mocks', 'check-off'), mockFiles('bench-off', 'off'));
await files(join(project, 'mocks', 'check-on'), mockFiles('bench-on', 'refuse'));

// --- measuring --------------------------------------------------------------------------------
function autocannon(url, extra = [], duration = seconds) {
  const cli = requireFromRoot.resolve('autocannon/autocannon.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, '--json', '-c', String(connections), '-d', String(duration), ...extra, url], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout));
    });
  });
}

const figures = (r) => ({ 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, 'non-2xx+errors': r.errors + r.non2xx });

/**
 * CPU time (ms) a server has used: its whole process tree, and the thread that answers requests
 * (the mock host's main thread; the server's own for bare node). On a shared machine whose load
 * moves requests/s by a factor of ten between rounds, CPU per request still says what a request
 * costs: the tree's figure is the whole cost, the listener thread's is what limits requests/s.
 */
const TICK_MS = 10; // USER_HZ is 100 on Linux
async function cpuMs(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    const children = await readFile(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').catch(() => '');
    pids.push(...children.split(' ').filter(Boolean).map(Number));
  }
  const ticks = (stat) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  };
  let tree = 0;
  let listener = 0;
  for (const p of pids) {
    const stat = await readFile(`/proc/${p}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    tree += ticks(stat);
    const cmdline = await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '');
    // The thread that answers: the mock host's main thread, or the lone process of a bare server.
    if (cmdline.includes('mock-host.js') || pids.length === 1) listener = ticks(await readFile(`/proc/${p}/task/${p}/stat`, 'utf8').catch(() => stat));
  }
  return { tree: tree * TICK_MS, listener: listener * TICK_MS };
}

/** One autocannon run against a server, with the CPU it cost per request. */
async function measured(pid, url, extra = []) {
  const before = await cpuMs(pid);
  const result = await autocannon(url, extra);
  const after = await cpuMs(pid);
  const served = result.requests.total || 1;
  return {
    ...figures(result),
    'tree CPU µs/req': Math.round(((after.tree - before.tree) * 1000) / served),
    'listener CPU µs/req': Math.round(((after.listener - before.listener) * 1000) / served),
  };
}

/** Peak resident memory of a process and its descendants, in MB (VmHWM of each, summed), and of each. */
async function peakMemoryMb(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    const children = await readFile(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').catch(() => '');
    pids.push(...children.split(' ').filter(Boolean).map(Number));
  }
  const each = [];
  for (const p of pids) {
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
    each.push(Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024));
  }
  return { 'peak MB': each.reduce((a, b) => a + b, 0), 'peak MB per process': each };
}

function freePort() {
  return new Promise((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function firstAnswer(url, started, child) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before answering`);
    const ok = await new Promise((resolve) => {
      const req = http.get(url, { agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
    });
    if (ok) return Math.round(performance.now() - started);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function stopTree(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

/** Starts a server, waits for its first answer to GET /pets (the start-up time), warms it up. */
async function startProcess(label, start) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = start(port);
  let out = '';
  child.stdout?.on('data', (d) => (out = (out + d).slice(-4000)));
  child.stderr?.on('data', (d) => (out = (out + d).slice(-4000)));
  try {
    const startup = await firstAnswer(`${base}/pets`, started, child);
    // A warm-up so the JIT has compiled the hot paths before anything is measured: with one second,
    // the first round of each Parley server came out some 30% low (bare node's did not), and the
    // rounds after it did not; three seconds of GETs and two of POSTs settle every server here.
    await autocannon(`${base}/pets`, [], WARM_GET_SECONDS);
    await autocannon(`${base}/pets`, postArgs, WARM_POST_SECONDS);
    return { label, base, child, startup, runs: { GET: [], POST: [] }, output: () => out };
  } catch (err) {
    console.log(JSON.stringify({ label, error: err.message, output: out }));
    await stopTree(child);
    return null;
  }
}

const WARM_GET_SECONDS = 3;
const WARM_POST_SECONDS = 2;
const postArgs = ['-m', 'POST', '-H', 'Content-Type=application/json', '-b', postBody];
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The median round of each figure (each figure's own median, so one slow round moves nothing). */
function summary(runs) {
  if (runs.length === 0) return null;
  return {
    'req/s': median(runs.map((r) => r['req/s'])),
    'p50 ms': median(runs.map((r) => r['p50 ms'])),
    'p99 ms': median(runs.map((r) => r['p99 ms'])),
    'non-2xx+errors': runs.reduce((n, r) => n + r['non-2xx+errors'], 0),
    rounds: runs.map((r) => r['req/s']),
    ...(runs[0]['tree CPU µs/req'] === undefined
      ? {}
      : { 'tree CPU µs/req': median(runs.map((r) => r['tree CPU µs/req'])), 'listener CPU µs/req': median(runs.map((r) => r['listener CPU µs/req'])) }),
  };
}

/** Interleaved rounds over servers that stay up: every round measures each of them once, in turn. */
async function measureTogether(servers) {
  for (let round = 0; round < rounds; round++) {
    for (const method of ['GET', 'POST']) {
      for (const s of servers) {
        s.runs[method].push(await measured(s.child.pid, `${s.base}/pets`, method === 'POST' ? postArgs : []));
      }
    }
  }
  const lines = [];
  for (const s of servers) {
    const line = { label: s.label, 'start-up ms': s.startup, GET: summary(s.runs.GET), POST: summary(s.runs.POST), ...(await peakMemoryMb(s.child.pid)) };
    console.log(JSON.stringify(line));
    lines.push(line);
  }
  return lines;
}

/** One server alone, one round (the peers, an order of magnitude slower: precision matters less). */
async function measureAlone(label, start) {
  const server = await startProcess(label, start);
  if (!server) return null;
  try {
    server.runs.GET.push(figures(await autocannon(`${server.base}/pets`)));
    server.runs.POST.push(figures(await autocannon(`${server.base}/pets`, postArgs)));
    const line = { label, 'start-up ms': server.startup, GET: summary(server.runs.GET), POST: summary(server.runs.POST), ...(await peakMemoryMb(server.child.pid)) };
    console.log(JSON.stringify(line));
    return line;
  } finally {
    await stopTree(server.child);
  }
}

const quiet = { stdio: ['ignore', 'pipe', 'pipe'] };
const bareSource = `
const body = ${JSON.stringify(staticBody)};
const created = ${JSON.stringify(JSON.stringify(created))};
require('node:http').createServer((req, res) => {
  const out = req.method === 'POST' ? created : body;
  req.resume();
  req.on('end', () => {
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) });
    res.end(out);
  });
}).listen(Number(process.argv[1]), '127.0.0.1');`;

const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const parts = new Set((process.env.PARLEY_BENCH_PARTS ?? '1,2,3').split(','));
const results = {};
console.log(
  JSON.stringify({
    seconds,
    connections,
    rounds,
    node: process.version,
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim(),
    'load average at start': load(),
    prism: peerVersion('@stoplight/prism-cli'),
    mockoon: peerVersion('@mockoon/cli'),
  }),
);
try {
  if (parts.has('1')) await processes();
  if (parts.has('2')) {
    await engineInProcess();
    console.log(JSON.stringify({ 'load average at the end of part 2': load() }));
  }
  if (parts.has('3')) await listenerWork();
  console.log(JSON.stringify({ 'load average at the end': load() }));
} finally {
  await rm(work, { recursive: true, force: true });
}

// --- part 1: processes, side by side ------------------------------------------------------------
async function processes() {
  const labels = {
    bare: 'bare node:http (same fixed body)',
    'parley-off': 'parley mock serve <project> --mock, request check off',
    'parley-on': 'parley mock serve <project> --mock, request check on (refuse)',
    'parley-doc': 'parley mock serve <openapi.json> (no project), request check log',
    'before-off': `before (${beforeDist}): mock serve <project> --mock, request check off`,
    'before-on': `before (${beforeDist}): mock serve <project> --mock, request check on (refuse)`,
  };
  const cliArgs = (port, ...args) => [join(root, 'dist', 'cli.js'), 'mock', 'serve', ...args, '--port', String(port)];
  const beforeArgs = (port, ...args) => [join(beforeDist ?? '', 'cli.js'), 'mock', 'serve', ...args, '--port', String(port)];
  const starters = {
    bare: (port) => spawn(process.execPath, ['-e', bareSource, String(port)], quiet),
    'parley-off': (port) => spawn(process.execPath, cliArgs(port, project, '--mock', 'check-off'), quiet),
    'parley-on': (port) => spawn(process.execPath, cliArgs(port, project, '--mock', 'check-on'), quiet),
    'parley-doc': (port) => spawn(process.execPath, cliArgs(port, openapiFile), quiet),
    ...(beforeDist
      ? {
          'before-off': (port) => spawn(process.execPath, beforeArgs(port, project, '--mock', 'check-off'), quiet),
          'before-on': (port) => spawn(process.execPath, beforeArgs(port, project, '--mock', 'check-on'), quiet),
        }
      : {}),
  };
  const servers = [];
  try {
    for (const [key, start] of Object.entries(starters)) {
      const server = await startProcess(labels[key], start);
      if (server) servers.push(Object.assign(server, { key }));
    }
    for (const line of await measureTogether(servers)) results[servers.find((s) => s.label === line.label).key] = line;
  } finally {
    await Promise.all(servers.map((s) => stopTree(s.child)));
  }
  if (withPeers) results.prism = await measureAlone('Prism mock (validates requests)', (port) =>
    spawn(process.execPath, [join(peersDir, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'), 'mock', '-p', String(port), '-h', '127.0.0.1', openapiFile], quiet),
  );
  if (withPeers) results.mockoon = await measureAlone('Mockoon CLI (no request validation)', (port) =>
    spawn(process.execPath, [join(peersDir, 'node_modules', '@mockoon', 'cli', 'bin', 'run.js'), 'start', '--data', openapiFile, '--port', String(port), '--hostname', '127.0.0.1', '--disable-log-to-file'], quiet),
  );
  const ratio = (a, b, method = 'GET') => (a?.[method] && b?.[method] ? a[method]['req/s'] / b[method]['req/s'] : undefined);
  const pct = (r) => (r === undefined ? 'n/a' : `${Math.round(100 * r)}%`);
  console.log(
    JSON.stringify({
      'parley GET / bare GET': pct(ratio(results['parley-off'], results.bare)),
      'parley (document) GET / bare GET': pct(ratio(results['parley-doc'], results.bare)),
      'parley GET check on / check off': pct(ratio(results['parley-on'], results['parley-off'])),
      'parley POST check on / check off': pct(ratio(results['parley-on'], results['parley-off'], 'POST')),
      'parley GET / prism GET': pct(ratio(results['parley-off'], results.prism)),
      'parley GET / mockoon GET': pct(ratio(results['parley-off'], results.mockoon)),
      ...(beforeDist
        ? {
            'before: GET check on / check off': pct(ratio(results['before-on'], results['before-off'])),
            'before: POST check on / check off': pct(ratio(results['before-on'], results['before-off'], 'POST')),
            'check on, after / before: GET': pct(ratio(results['parley-on'], results['before-on'])),
            'check on, after / before: POST': pct(ratio(results['parley-on'], results['before-on'], 'POST')),
            'check off, after / before: GET': pct(ratio(results['parley-off'], results['before-off'])),
          }
        : {}),
    }),
  );
  // What a request costs in CPU, check on against off and after against before (lower is cheaper).
  const cpu = (key, method, which) => results[key]?.[method]?.[`${which} CPU µs/req`];
  const cpuLine = {};
  for (const key of ['bare', 'parley-off', 'parley-on', ...(beforeDist ? ['before-off', 'before-on'] : [])]) {
    for (const method of ['GET', 'POST']) cpuLine[`${key} ${method} µs/req (tree, listener)`] = `${cpu(key, method, 'tree')}, ${cpu(key, method, 'listener')}`;
  }
  console.log(JSON.stringify(cpuLine));
  const verdict = (ok) => (ok === undefined ? 'n/a' : ok ? 'met' : 'MISSED');
  const getRatio = ratio(results['parley-off'], results.bare);
  const p99 = results['parley-off']?.GET?.['p99 ms'];
  const onGet = ratio(results['parley-on'], results['parley-off']);
  const onPost = ratio(results['parley-on'], results['parley-off'], 'POST');
  console.log(
    `target: static GET >= 50% of bare node req/s with p99 < 5 ms: ${pct(getRatio)}, p99 ${p99 ?? 'n/a'} ms: ` +
      verdict(getRatio === undefined || p99 === undefined ? undefined : getRatio >= 0.5 && p99 < 5),
  );
  console.log(`target: request check on >= 70% of check off: GET ${pct(onGet)} ${verdict(onGet === undefined ? undefined : onGet >= 0.7)}, POST (body validated) ${pct(onPost)} ${verdict(onPost === undefined ? undefined : onPost >= 0.7)}`);
  console.log(JSON.stringify({ 'load average at the end of part 1': load() }));
}

// --- part 2: the engine alone, in this process ------------------------------------------------
async function engineInProcess() {
  // The engine is TypeScript: bundle it into the temp folder. Native and binary-backed packages stay
  // external, imported by absolute path so the bundle finds them outside the repo.
  await build({
    absWorkingDir: root,
    stdin: {
      contents: [
        "export { MockServer } from './processes/mock-host/engine/mock-server.ts';",
        "export { readContract } from './processes/mock-host/engine/contract.ts';",
        "export { cachedDocumentUri } from './protocol/cached-definition-uri.ts';",
        "export { contractChecker } from './processes/mock-host/engine/contract-checker.ts';",
        "export { MockCheckPool } from './processes/mock-host/check-pool.ts';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    outfile: join(work, 'engine.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-by-path',
        setup(b) {
          b.onResolve({ filter: /^(isolated-vm|esbuild|typescript)$/ }, (args) => ({ path: requireFromRoot.resolve(args.path), external: true }));
        },
      },
    ],
  });
  // The worker the host's check pool runs, fully bundled (a worker cannot load .ts).
  await build({ absWorkingDir: root, entryPoints: ['processes/mock-host/check-worker.ts'], outfile: join(work, 'mock-check-worker.mjs'), bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
  const engine = await import(pathToFileURL(join(work, 'engine.mjs')).href);
  // A definition of cached documents, entry first, as the supervisor hands the mock host one.
  const definition = [];
  for (const name of ['pets.openapi.yaml', 'pets.schemas.yaml']) definition.push({ uri: engine.cachedDocumentUri(name), document: parseYaml(await readFile(join(fixtures, name), 'utf8')) });
  const contract = await engine.readContract(definition);

  const body = JSON.stringify([{ id: 1, name: 'Tom', kind: 'cat' }]);
  const json = [{ name: 'Content-Type', value: 'application/json' }];
  const mockFor = (contractCheck) => ({
    version: 2,
    id: 'bench',
    name: 'bench',
    kind: 'rest',
    api: 'pets',
    port: 0,
    path: '/',
    contractCheck,
    operations: [
      {
        id: 'list', name: 'listPets', method: 'GET', path: '/pets', dispatch: 'in-order', defaultResponse: 'Default',
        responses: [{ id: 'r1', name: 'Default', status: 200, delayMs: 0, headers: json, body: { kind: 'json', text: body }, values: {}, match: [] }],
      },
      {
        id: 'get', name: 'getPet', method: 'GET', path: '/pets/{petId}', dispatch: 'in-order', defaultResponse: 'Default',
        responses: [{ id: 'r2', name: 'Default', status: 200, delayMs: 0, headers: json, body: { kind: 'json', text: '{"id":1,"name":"Pet {{petId}}","kind":"cat"}' }, values: { petId: { from: 'path', name: 'petId' } }, match: [] }],
      },
    ],
  });
  const run = async (label, url) => {
    const line = { label, ...figures(await autocannon(url)) };
    console.log(JSON.stringify(line));
    return line;
  };
  const bare = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const inProcess = {};
  try {
    inProcess.bare = await run('in-process: bare node:http', `http://127.0.0.1:${bare.address().port}/pets`);
    // `log` checks on this thread, as the host did before issue 11; `log-pool` in the host's check
    // pool of worker threads, as it does now (each check on its own 1000 ms, the listener free).
    for (const mode of ['off', 'log', 'log-pool']) {
      const pool = mode === 'log-pool' ? new engine.MockCheckPool({ workerFile: join(work, 'mock-check-worker.mjs') }) : undefined;
      const checker = pool ? pool.checker(contract) : engine.contractChecker(contract);
      pool?.warm();
      const server = new engine.MockServer({ mock: mockFor(mode === 'off' ? 'off' : 'log'), checker, logCapacity: 500 });
      const { port } = await server.start();
      inProcess[`static-${mode}`] = await run(`in-process: mock static GET, contract check ${mode}`, `http://127.0.0.1:${port}/pets?kind=cat&limit=5`);
      inProcess[`template-${mode}`] = await run(`in-process: mock templated GET, contract check ${mode}`, `http://127.0.0.1:${port}/pets/42`);
      await server.stop();
      await pool?.close();
    }
  } finally {
    bare.close();
  }
  const pct = (a, b) => `${Math.round((100 * a['req/s']) / b['req/s'])}%`;
  console.log(
    JSON.stringify({
      'in-process static off / bare': pct(inProcess['static-off'], inProcess.bare),
      'in-process static log / static off': pct(inProcess['static-log'], inProcess['static-off']),
      'in-process static log-pool / static off': pct(inProcess['static-log-pool'], inProcess['static-off']),
      'in-process static log-pool / static log (after / before)': pct(inProcess['static-log-pool'], inProcess['static-log']),
      'in-process template log-pool / template log (after / before)': pct(inProcess['template-log-pool'], inProcess['template-log']),
      'in-process template off / bare': pct(inProcess['template-off'], inProcess.bare),
    }),
  );
}

// --- part 3: the listener's own work per request, without sockets -----------------------------
// What a request costs MockServer from arrival to its log record (the Host and framing checks,
// routing, the reply written, the record made and kept), through its request handler with a
// request and a response that only take what is written: no sockets, no client, so the machine's
// load moves every build alike. With PARLEY_BEFORE_DIST the before tree's engine (the sources
// beside that dist/) runs too, in the same process, round after round alternately; the median
// ns per request of each is kept. A static GET (a prepared reply) and a templated one (a reply
// made per request, whose record is copied out of it).
async function listenerWork() {
  const rounds = Number(process.env.PARLEY_BENCH_LISTENER_ROUNDS ?? 15);
  const perRound = 100_000;
  const trees = [['after', root], ...(beforeDist ? [['before', dirname(beforeDist)]] : [])];
  const servers = {};
  for (const [name, tree] of trees) {
    const out = join(work, `listener-${name}.mjs`);
    await build({
      absWorkingDir: tree,
      stdin: { contents: "export { MockServer } from './processes/mock-host/engine/mock-server.ts';", resolveDir: tree, loader: 'ts' },
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
      logLevel: 'warning',
      plugins: [{ name: 'external-by-path', setup: (b) => b.onResolve({ filter: /^(isolated-vm|esbuild|typescript)$/ }, (args) => ({ path: requireFromRoot.resolve(args.path), external: true })) }],
    });
    const { MockServer } = await import(pathToFileURL(out).href);
    const body = JSON.stringify([{ id: 1, name: 'Tom', kind: 'cat' }]);
    const json = [{ name: 'Content-Type', value: 'application/json' }];
    const mock = {
      version: 2, id: 'bench', name: 'bench', kind: 'rest', api: 'pets', port: 0, path: '/', contractCheck: 'off',
      operations: [
        { id: 'list', name: 'listPets', method: 'GET', path: '/pets', dispatch: 'in-order', defaultResponse: 'Default', responses: [{ id: 'r1', name: 'Default', status: 200, delayMs: 0, headers: json, body: { kind: 'json', text: body }, values: {}, match: [] }] },
        { id: 'get', name: 'getPet', method: 'GET', path: '/pets/{petId}', dispatch: 'in-order', defaultResponse: 'Default', responses: [{ id: 'r2', name: 'Default', status: 200, delayMs: 0, headers: json, body: { kind: 'json', text: '{"id":1,"name":"Pet {{petId}}","kind":"cat"}' }, values: { petId: { from: 'path', name: 'petId' } }, match: [] }] },
      ],
    };
    // As the mock host runs it: every record passed on (the host batches them) and kept in the ring.
    let passed = 0;
    const server = new MockServer({ mock, logCapacity: 500, onRecord: () => passed++ });
    const { port } = await server.start();
    // The Host a client of this port sends: any other is refused (421), a different path.
    const host = `127.0.0.1:${port}`;
    const rawHeaders = ['Host', host, 'User-Agent', 'autocannon', 'Accept', '*/*', 'Connection', 'keep-alive'];
    const request = (url) => ({ method: 'GET', url, headers: { host, 'user-agent': 'autocannon', accept: '*/*' }, rawHeaders });
    servers[name] = { server, kinds: { 'static GET': request('/pets?kind=cat&limit=5'), 'templated GET': request('/pets/42') }, passed: () => passed };
  }
  let status = 0;
  const response = { headersSent: false, writableEnded: false, writeHead(code) { status = code; return this; }, end() {} };
  for (const [name, { server, kinds }] of Object.entries(servers)) {
    for (const [kind, req] of Object.entries(kinds)) {
      server.serve(req, response);
      if (status !== 200) throw new Error(`part 3: ${name} answered the ${kind} ${status}, not 200: it would time another path`);
    }
  }
  const samples = {};
  for (let round = 0; round < rounds; round++) {
    // Alternate which build goes first, so neither always runs on a warmer or colder machine.
    const order = round % 2 === 0 ? trees : [...trees].reverse();
    for (const [name] of order) {
      const { server, kinds } = servers[name];
      for (const [kind, req] of Object.entries(kinds)) {
        const t0 = process.cpuUsage();
        for (let i = 0; i < perRound; i++) server.serve(req, response);
        const t = process.cpuUsage(t0);
        ((samples[kind] ??= {})[name] ??= []).push(((t.user + t.system) * 1000) / perRound);
      }
    }
  }
  const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [kind, byBuild] of Object.entries(samples)) {
    const line = { 'listener work': kind, rounds, 'requests per round': perRound };
    for (const [name, xs] of Object.entries(byBuild)) line[`${name} ns/req (median; min-max)`] = `${Math.round(medianOf(xs))}; ${Math.round(Math.min(...xs))}-${Math.round(Math.max(...xs))}`;
    if (byBuild.before) line['after / before'] = `${Math.round((100 * medianOf(byBuild.after)) / medianOf(byBuild.before))}%`;
    console.log(JSON.stringify(line));
  }
  for (const { server } of Object.values(servers)) await server.stop();
}
