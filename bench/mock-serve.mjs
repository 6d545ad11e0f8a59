// Mock hosting throughput against a bare node:http server in the same run (DESIGN.md budgets:
// a static GET at 50 connections reaches at least 50% of bare node's requests/s with p99 under
// 5 ms; with the request contract check on, at least 70% of the same mock with it off).
// The servers run in this process; autocannon runs in its own process so it does not share
// their event loop. Prints requests/s and p99 of each; asserts nothing.
// Usage: node bench/mock-serve.mjs [seconds=5] [connections=50]
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 50);
const work = await mkdtemp(join(tmpdir(), 'parley-bench-mock-'));
const requireFromRoot = createRequire(join(root, 'package.json'));

// The engine is TypeScript: bundle it into the temp folder. Native and binary-backed packages stay
// external, imported by absolute path so the bundle finds them outside the repo.
await build({
  absWorkingDir: root,
  stdin: {
    contents: [
      "export { MockServer } from './processes/mock-host/engine/mock-server.ts';",
      "export { loadContract } from './processes/mock-host/engine/contract.ts';",
      "export { ajvContractChecker } from './processes/mock-host/engine/test-support/ajv-contract-checker.ts';",
    ].join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  outfile: join(work, 'engine.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-by-path',
      setup(b) {
        b.onResolve({ filter: /^(isolated-vm|esbuild|typescript)$/ }, (args) => ({ path: requireFromRoot.resolve(args.path), external: true }));
      },
    },
  ],
}).catch(async (err) => {
  await rm(work, { recursive: true, force: true });
  throw err;
});
const engine = await import(pathToFileURL(join(work, 'engine.mjs')).href);

const fixtures = join(root, 'test/fixtures/mocks/contracts');
const documents = {};
for (const name of ['pets.openapi.yaml', 'pets.schemas.yaml']) documents[name] = parseYaml(await readFile(join(fixtures, name), 'utf8'));
const contract = await engine.loadContract({ entry: 'pets.openapi.yaml', documents });

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

function autocannon(url) {
  const cli = requireFromRoot.resolve('autocannon/autocannon.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, '--json', '-c', String(connections), '-d', String(seconds), url], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout));
    });
  });
}

async function run(label, url) {
  const r = await autocannon(url);
  const line = { label, 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, errors: r.errors + r.non2xx };
  console.log(JSON.stringify(line));
  return line;
}

const bare = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});
await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));

const results = {};
try {
  results.bare = await run('bare node:http', `http://127.0.0.1:${bare.address().port}/pets`);
  for (const mode of ['off', 'log']) {
    const server = new engine.MockServer({ mock: mockFor(mode), checker: engine.ajvContractChecker(contract), logCapacity: 500 });
    const { port } = await server.start();
    results[`static-${mode}`] = await run(`mock static GET, contract check ${mode}`, `http://127.0.0.1:${port}/pets?kind=cat&limit=5`);
    results[`template-${mode}`] = await run(`mock templated GET, contract check ${mode}`, `http://127.0.0.1:${port}/pets/42`);
    await server.stop();
  }
  const pct = (a, b) => `${Math.round((100 * a['req/s']) / b['req/s'])}%`;
  console.log(JSON.stringify({
    'static off / bare': pct(results['static-off'], results.bare),
    'static log / static off': pct(results['static-log'], results['static-off']),
    'template off / bare': pct(results['template-off'], results.bare),
  }));
} finally {
  bare.close();
  await rm(work, { recursive: true, force: true });
}
