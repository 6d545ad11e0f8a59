// Engine overhead vs a bare undici request, same server, same run (DESIGN.md budget: a send on
// loopback under 1 ms p50 over a bare undici request). Prints p50/p99 of each and their ratio.
// Usage: node bench/sender-engine.mjs [requests=5000]
import { build } from 'esbuild';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const count = Number(process.argv[2] ?? 5000);
const work = await mkdtemp(join(tmpdir(), 'parley-bench-sender-'));

// The engine is TypeScript: bundle it once into the temp folder, undici included (a bundle
// there cannot resolve the repo's node_modules). The bundled copy is the same undici version.
await build({
  absWorkingDir: root,
  entryPoints: { engine: 'processes/sender/engine/index.ts' },
  outdir: work,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  // undici's CommonJS code calls require() for Node built-ins.
  banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

const body = JSON.stringify({ ok: true, items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) });
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/items?x=1`;
const agent = new Agent();

async function bare() {
  const res = await request(url, { dispatcher: agent, headers: { accept: 'application/json' } });
  await res.body.arrayBuffer();
}
const spec = {
  method: 'GET', url, headers: [['accept', 'application/json']], body: { type: 'none' }, timeoutMs: 30_000, httpVersion: '1.1',
  followRedirects: true, maxRedirects: 10, proxy: '', caPem: '', inlineLimit: 1024 * 1024,
};
let send;
async function engine() {
  await send(spec, { spoolDir: work });
}

async function measure(fn) {
  for (let i = 0; i < 500; i++) await fn(); // warm-up
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await fn();
    times[i] = performance.now() - t;
  }
  times.sort();
  return { p50: times[Math.floor(count * 0.5)], p99: times[Math.floor(count * 0.99)] };
}

// The engine subscribes to undici's diagnostics channels, which makes every undici request do a
// little more; measure bare undici once before that too.
const clean = await measure(bare);
const engineModule = await import(pathToFileURL(join(work, 'engine.mjs')).href);
send = engineModule.send;

// Interleave the two, twice, so neither profits from running later.
const results = { bare: [], engine: [] };
for (let round = 0; round < 2; round++) {
  results.bare.push(await measure(bare));
  results.engine.push(await measure(engine));
}
const pick = (list) => ({ p50: Math.min(...list.map((r) => r.p50)), p99: Math.min(...list.map((r) => r.p99)) });
const b = pick(results.bare);
const e = pick(results.engine);
console.log(`requests per round: ${count} (sequential, keep-alive, loopback, ${Buffer.byteLength(body)} B JSON body)`);
console.log(`bare undici, no diagnostics subscribers: p50 ${clean.p50.toFixed(3)} ms  p99 ${clean.p99.toFixed(3)} ms`);
console.log(`bare undici request : p50 ${b.p50.toFixed(3)} ms  p99 ${b.p99.toFixed(3)} ms`);
console.log(`parley sender engine: p50 ${e.p50.toFixed(3)} ms  p99 ${e.p99.toFixed(3)} ms`);
console.log(`overhead p50: ${(e.p50 - b.p50).toFixed(3)} ms (budget < 1 ms); ratio engine/bare p50: ${(e.p50 / b.p50).toFixed(2)}`);
console.log(`overhead p50 vs the clean baseline: ${(e.p50 - clean.p50).toFixed(3)} ms; ratio ${(e.p50 / clean.p50).toFixed(2)}`);

await engineModule.closeDispatchers();
await agent.close();
server.close();
await rm(work, { recursive: true, force: true });
