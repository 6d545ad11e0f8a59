// Contract checker: round trip through the in-process worker pool for 1 KB, 10 KB, 100 KB and
// 1 MB bodies, against ajv (+ ajv-formats) validating the same parsed body in the same run; the
// engine alone (no pool); first-check time of a large definition; memory; and the keyword
// conformance of both engines on the table cases of test/fixtures/checker/schema-cases/.
// DESIGN.md target: contract check of a 10 KB JSON body, warm, p50 under 2 ms.
// Usage: node bench/checker.mjs [scale=1]   (scale multiplies the iteration counts)
import { build } from 'esbuild';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scale = Number(process.argv[2] ?? 1);
const work = await mkdtemp(join(tmpdir(), 'parley-bench-checker-'));

// The pool, worker and engine are TypeScript: bundle them into the temp folder. npm packages
// stay external, imported by absolute URL from the repo's node_modules.
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      return { path: import.meta.resolve(args.path), external: true };
    });
  },
};
await build({
  absWorkingDir: root,
  entryPoints: { pool: 'processes/checker/pool.ts', 'checker-worker': 'processes/checker/worker.ts', engine: 'processes/checker/engine/index.ts' },
  outdir: work,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [externalPackages],
  logLevel: 'warning',
});
const { CheckerPool } = await import(pathToFileURL(join(work, 'pool.js')).href);
const engine = await import(pathToFileURL(join(work, 'engine.js')).href);

const museum = parseYaml(await readFile(join(root, 'test/fixtures/checker/redocly-museum.yaml'), 'utf8'));
const documents = [{ uri: 'redocly-museum.yaml', document: museum }];

function event(i) {
  return {
    eventId: '3be6453c-03eb-4357-ae5a-984a0e574a54',
    name: `Pirate Coding Workshop ${i}`,
    location: 'Computer Room',
    eventDescription: 'Captain Blackbeard shares his love of the C...language. And possibly Arrrrr (R lang).',
    dates: ['2023-10-29', '2023-10-30', '2023-10-31'],
    price: 25 + (i % 10),
  };
}
/** A JSON array of events of about `bytes` bytes. */
function bodyOf(bytes) {
  const items = [];
  let size = 2;
  while (size < bytes) {
    const e = event(items.length);
    size += JSON.stringify(e).length + 1;
    if (size > bytes && items.length > 0) break;
    items.push(e);
  }
  return new TextEncoder().encode(JSON.stringify(items));
}

/** ajv for the same response schema: the document's components become $defs. */
function ajvFor(document, schemaRef, options = {}) {
  const text = JSON.stringify({ $ref: schemaRef, $defs: document.components.schemas }).replaceAll('#/components/schemas/', '#/$defs/');
  const ajv = new Ajv2020({ strict: false, allErrors: false, ...options });
  addFormats(ajv);
  return ajv.compile(JSON.parse(text));
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}
async function measure(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}
const ms = (x) => `${x.toFixed(3)} ms`;

const pool = new CheckerPool({ workerFile: join(work, 'checker-worker.js'), threads: 2 });
const ajvValidate = ajvFor(museum, '#/components/schemas/SpecialEventCollection');
const prepared = new engine.PreparedDefinition(documents, 'museum');
const job = (body) => ({
  definition: { fingerprint: 'museum', documents },
  request: { method: 'GET', url: 'http://127.0.0.1:4010/special-events' },
  response: { status: 200, contentType: 'application/json', body },
});
const input = (body) => ({ method: 'GET', url: 'http://127.0.0.1:4010/special-events', status: 200, contentType: 'application/json', body });
const decoder = new TextDecoder();

console.log(`checker bench (Node ${process.version}); pool of 2 worker threads; ajv ${(await import('ajv/package.json', { with: { type: 'json' } })).default.version}`);
console.log('size      | pool p50 / p99          | engine p50 / p99        | ajv p50 / p99           | pool/ajv p50 | engine/ajv p50 | verdict');
for (const [label, bytes, n] of [
  ['1 KB', 1_000, 3000],
  ['10 KB', 10_000, 3000],
  ['100 KB', 100_000, 400],
  ['1 MB', 1_000_000, 40],
]) {
  const body = bodyOf(bytes);
  const iterations = Math.max(10, Math.round(n * scale));
  const first = await pool.check(job(body));
  if (first.kind !== 'pass') throw new Error(`bench body does not pass: ${JSON.stringify(first).slice(0, 300)}`);
  if (!ajvValidate(JSON.parse(decoder.decode(body)))) throw new Error('ajv rejects the bench body');
  for (let i = 0; i < Math.min(200, iterations); i++) await pool.check(job(body));
  const viaPool = await measure(iterations, () => pool.check(job(body)));
  const viaEngine = await measure(iterations, () => engine.checkExchange(prepared, input(body)));
  const viaAjv = await measure(iterations, () => ajvValidate(JSON.parse(decoder.decode(body))));
  console.log(
    `${label.padEnd(9)} | ${ms(viaPool.p50)} / ${ms(viaPool.p99).padEnd(11)} | ${ms(viaEngine.p50)} / ${ms(viaEngine.p99).padEnd(11)} | ${ms(viaAjv.p50)} / ${ms(viaAjv.p99).padEnd(11)} | ${(viaPool.p50 / viaAjv.p50).toFixed(2).padStart(12)} | ${(viaEngine.p50 / viaAjv.p50).toFixed(2).padStart(14)} | ${first.kind}, ${first.steps} steps, ${body.length} bytes`,
  );
}
await pool.close();

// First check of a large definition: 1,500 operations over 3,000 schemas that refer to each other.
function largeDefinition() {
  const schemas = {};
  for (let i = 0; i < 3000; i++) {
    const properties = {};
    for (let p = 0; p < 10; p++) properties[`field${p}`] = p % 3 === 0 ? { $ref: `#/components/schemas/S${(i + p + 1) % 3000}` } : { type: 'string', maxLength: 200, description: `Field ${p} of schema ${i}.` };
    schemas[`S${i}`] = { type: 'object', description: `Schema ${i}, generated for the benchmark.`, required: ['field1'], properties };
  }
  const paths = {};
  for (let i = 0; i < 1500; i++) {
    paths[`/things${i}/{id}`] = {
      get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/S${i}` } } } }, default: { description: 'error' } } },
    };
  }
  return { openapi: '3.1.0', info: { title: 'large', version: '1' }, paths, components: { schemas } };
}
const large = largeDefinition();
const largeDocs = [{ uri: 'large.json', document: large }];
const largeBody = new TextEncoder().encode(JSON.stringify({ field1: 'x', field2: 'y' }));
const largeJob = {
  definition: { fingerprint: 'large', documents: largeDocs },
  request: { method: 'GET', url: 'http://h/things700/1' },
  response: { status: 200, contentType: 'application/json', body: largeBody },
};
const fresh = new CheckerPool({ workerFile: join(work, 'checker-worker.js'), threads: 1 });
await fresh.check({ ...largeJob, definition: { fingerprint: 'warm-up', documents } });
let t = performance.now();
const firstVerdict = await fresh.check(largeJob);
const firstMs = performance.now() - t;
t = performance.now();
await fresh.check(largeJob);
const secondMs = performance.now() - t;
await fresh.close();
t = performance.now();
const enginePrepared = new engine.PreparedDefinition(largeDocs, 'large');
engine.checkExchange(enginePrepared, { method: 'GET', url: 'http://h/things700/1', status: 200, contentType: 'application/json', body: largeBody });
const engineFirstMs = performance.now() - t;
function timeAjvCompile(options) {
  const start = performance.now();
  try {
    ajvFor(large, '#/components/schemas/S700', options);
    return ms(performance.now() - start);
  } catch (err) {
    return `failed after ${ms(performance.now() - start)} (${err.name}: ${err.message})`;
  }
}
console.log(
  `\nlarge definition (${(JSON.stringify(large).length / 1e6).toFixed(1)} MB JSON, 1,500 operations, 3,000 schemas): first check through the pool ${ms(firstMs)} (${firstVerdict.kind}), second ${ms(secondMs)}; engine alone first check ${ms(engineFirstMs)}`,
);
console.log(`  ajv compile of the same response schema: default options ${timeAjvCompile({})}; inlineRefs false ${timeAjvCompile({ inlineRefs: false })}`);

// Conformance on the table cases: each case wrapped as the engine sees it; for ajv the
// components become $defs (draft-07 Ajv for 3.0 and Swagger 2.0, Ajv2020 for 3.1).
const casesDir = join(root, 'test/fixtures/checker/schema-cases');
console.log('\nconformance on test/fixtures/checker/schema-cases (tests agreeing with the expected result)');
for (const file of (await readdir(casesDir)).filter((f) => f.endsWith('.json')).sort()) {
  const { dialect, cases } = JSON.parse(await readFile(join(casesDir, file), 'utf8'));
  let total = 0;
  let ours = 0;
  let theirs = 0;
  const ajvMisses = [];
  for (const c of cases) {
    const schemas = { ...c.components, Root: c.schema };
    const document =
      dialect === 'swagger2'
        ? { swagger: '2.0', info: { title: 'c', version: '1' }, paths: {}, definitions: schemas }
        : { openapi: dialect === 'oas30' ? '3.0.3' : '3.1.0', info: { title: 'c', version: '1' }, paths: {}, components: { schemas } };
    const def = new engine.PreparedDefinition([{ uri: 'https://cases.test/openapi.json', document }], c.description);
    const loc = { docUri: 'https://cases.test/openapi.json', pointer: dialect === 'swagger2' ? '/definitions/Root' : '/components/schemas/Root' };
    let ajvValidateCase;
    try {
      const container = dialect === 'swagger2' ? '#/definitions/' : '#/components/schemas/';
      const text = JSON.stringify({ ...c.schema, $defs: { ...c.schema?.$defs, ...c.components } }).replaceAll(container, '#/$defs/');
      const Ctor = dialect === 'oas31' ? Ajv2020 : Ajv;
      const ajv = new Ctor({ strict: false, discriminator: true, logger: false });
      addFormats(ajv);
      ajvValidateCase = ajv.compile(JSON.parse(text));
    } catch {
      ajvValidateCase = undefined;
    }
    for (const test of c.tests) {
      total++;
      const { verdict } = engine.validateValue(def, loc, test.data, c.direction ?? 'response');
      if ((verdict.kind === 'pass') === test.valid && !verdict.reason) ours++;
      let ajvOk = false;
      try {
        ajvOk = ajvValidateCase !== undefined && ajvValidateCase(test.data) === test.valid;
      } catch {
        ajvOk = false;
      }
      if (ajvOk) theirs++;
      else ajvMisses.push(`${c.description}: ${test.description}${ajvValidateCase ? '' : ' (schema does not compile)'}`);
    }
  }
  console.log(`  ${file.padEnd(14)} engine ${ours}/${total}, ajv ${theirs}/${total}`);
  for (const miss of ajvMisses) console.log(`    ajv wrong: ${miss}`);
}

const mem = process.memoryUsage();
console.log(`\nmemory at the end: rss ${(mem.rss / 1e6).toFixed(0)} MB, heap used ${(mem.heapUsed / 1e6).toFixed(0)} MB (workers are threads of this process: rss includes them)`);
await rm(work, { recursive: true, force: true });
