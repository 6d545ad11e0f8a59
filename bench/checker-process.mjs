// Contract checks through the checker PROCESS, as the app and `parley check` make them: a real
// child (dist/checker.js) started with ChildProcessHandle, each check a `checker.check` round trip
// on the msgpack bus. Against it, in the same run, ajv (ajv/dist/2020, the museum definition is
// OpenAPI 3.1) parsing and validating the same body in this process: the limit.
// Measures: sequential round-trip p50/p99 for 1 KB, 10 KB, 100 KB and 1 MB bodies, warm; checks/s
// with 32 in flight (what a batch keeps); the first check of a large generated definition
// (transfer, parse, compile) in a fresh checker; the checker's memory (VmRSS, VmHWM); and
// `parley check --batch` over 5,000 lines end to end. Asserts nothing.
// DESIGN.md target: contract check of a 10 KB JSON body, warm, p50 under 2 ms round trip.
// Usage: node scripts/build.mjs && node bench/checker-process.mjs [scale=1]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { bundleNode, cleanup, importFile, machine, ms, root, summarize, tempDir } from './fixtures/harness.mjs';

const scale = Number(process.argv[2] ?? 1);
const checkerEntry = join(root, 'dist', 'checker.js');
const cliEntry = join(root, 'dist', 'cli.js');
if (!existsSync(checkerEntry) || !existsSync(join(root, 'dist', 'checker-worker.js'))) {
  console.error('dist/checker.js is missing: run node scripts/build.mjs first.');
  process.exit(1);
}

const work = await tempDir('checker-process');
const built = await bundleNode({ 'child-process': 'processes/supervisor/children/child-process.ts' }, work);
const { ChildProcessHandle } = await importFile(built['child-process']);

const museumFile = join(root, 'test/fixtures/cli-check/museum/openapi.yaml');
const museum = parseYaml(await readFile(museumFile, 'utf8'));
const museumDocs = [{ uri: pathToFileURL(museumFile).href, document: museum }];

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
/** A JSON array of events of about `bytes` bytes (SpecialEventCollection). */
function bodyOf(bytes) {
  const items = [];
  let size = 2;
  for (;;) {
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

async function measure(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return summarize(times);
}

/** VmRSS and VmHWM of a process, in MB. */
async function memoryOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}
const mb = (x) => `${x.toFixed(1)} MB`;

function newChecker() {
  return new ChildProcessHandle({ name: 'checker process', entry: checkerEntry, restart: false, log: (line) => console.error(line) });
}
function jobOf(definition, url, body) {
  return { definition, request: { method: 'GET', url }, response: { status: 200, contentType: 'application/json', body } };
}

console.log(`# checker process bench\n\n${machine()}; ajv ${(await import('ajv/package.json', { with: { type: 'json' } })).default.version}\n`);
console.log(`command: node bench/checker-process.mjs ${scale}\n`);

// --- round trips through the process, warm, against ajv in process ------------------------
const checker = newChecker();
let t = performance.now();
await checker.start();
const startMs = performance.now() - t;
const idle = await memoryOf(checker.pid);
const url = 'http://127.0.0.1:4010/special-events';
const museumRef = { fingerprint: 'bench-museum', documents: museumDocs };
const byName = { fingerprint: 'bench-museum' };
const validate = ajvFor(museum, '#/components/schemas/SpecialEventCollection');
const decoder = new TextDecoder();

const rows = [];
for (const [label, bytes, n] of [
  ['1 KB', 1_000, 3000],
  ['10 KB', 10_000, 3000],
  ['100 KB', 100_000, 400],
  ['1 MB', 1_000_000, 40],
]) {
  const body = bodyOf(bytes);
  const iterations = Math.max(10, Math.round(n * scale));
  const first = await checker.call('checker.check', jobOf(museumRef, url, body));
  if (first.kind !== 'pass') throw new Error(`bench body does not pass: ${JSON.stringify(first).slice(0, 300)}`);
  if (!validate(JSON.parse(decoder.decode(body)))) throw new Error('ajv rejects the bench body');
  for (let i = 0; i < Math.min(200, iterations); i++) await checker.call('checker.check', jobOf(byName, url, body));
  const viaProcess = await measure(iterations, () => checker.call('checker.check', jobOf(byName, url, body)));
  const viaAjv = await measure(iterations, () => validate(JSON.parse(decoder.decode(body))));
  rows.push({ label, bytes: body.length, iterations, viaProcess, viaAjv, steps: first.steps });
}

// Throughput with a batch's window: 32 checks in flight, 10 KB bodies.
const body10k = bodyOf(10_000);
const total = Math.max(100, Math.round(5000 * scale));
t = performance.now();
{
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next++ < total) await checker.call('checker.check', jobOf(byName, url, body10k));
    }),
  );
}
const concurrentPerSecond = total / ((performance.now() - t) / 1000);
const afterMuseum = await memoryOf(checker.pid);
await checker.stop();

console.log('## Round trip through the checker process (warm) vs ajv in process, same body, same run\n');
console.log('| body | n | process p50 | process p99 | ajv p50 | ajv p99 | process/ajv p50 | verdict |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(
    `| ${r.label} (${r.bytes.toLocaleString('en-US')} B) | ${r.iterations} | ${ms(r.viaProcess.p50)} | ${ms(r.viaProcess.p99)} | ${ms(r.viaAjv.p50)} | ${ms(r.viaAjv.p99)} | ${(r.viaProcess.p50 / r.viaAjv.p50).toFixed(2)} | pass, ${r.steps} steps |`,
  );
}
console.log(`\n10 KB bodies, 32 checks in flight: ${Math.round(concurrentPerSecond).toLocaleString('en-US')} checks/s (${total} checks)`);

// --- first check of a large definition, in a fresh checker ----------------------------------
/** `schemas` object schemas referring to each other, one GET operation per two schemas. */
function largeDefinition(schemas) {
  const components = {};
  for (let i = 0; i < schemas; i++) {
    const properties = {};
    for (let p = 0; p < 12; p++) {
      properties[`field${p}`] =
        p % 4 === 0
          ? { $ref: `#/components/schemas/S${(i + p + 1) % schemas}` }
          : p % 4 === 1
            ? { type: 'array', items: { type: 'string', format: 'date' } }
            : { type: 'string', maxLength: 200, description: `Field ${p} of schema ${i}.` };
    }
    components[`S${i}`] = { type: 'object', description: `Schema ${i}, generated for the benchmark.`, required: ['field1'], properties };
  }
  const paths = {};
  for (let i = 0; i < schemas / 2; i++) {
    paths[`/things${i}/{id}`] = {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/S${i}` } } } }, default: { description: 'error' } },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: 'large', version: '1' }, paths, components: { schemas: components } };
}

/** ajv's compile time for the same schema; with default options it inlines references and may overflow the stack. */
function ajvCompile(large, target) {
  const attempt = (options) => {
    const start = performance.now();
    try {
      ajvFor(large, `#/components/schemas/S${target}`, options);
      return ms(performance.now() - start, 1);
    } catch (err) {
      return `${err.name} after ${ms(performance.now() - start, 1)}`;
    }
  };
  return `${attempt({})}; inlineRefs false ${attempt({ inlineRefs: false })}`;
}

console.log('\n## First check of a large definition (fresh checker process: documents sent, parsed, schemas compiled)\n');
console.log('| definition | JSON size | process start | first check | second check | ajv compile (same schema) | checker VmRSS after |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
const largeMemory = [];
for (const schemas of [500, 3000]) {
  const large = largeDefinition(schemas);
  const size = JSON.stringify(large).length;
  const docs = [{ uri: 'https://bench.test/large.json', document: large }];
  const target = Math.floor(schemas / 4);
  const largeBody = new TextEncoder().encode(JSON.stringify({ field1: ['2024-01-01'], field2: 'x', field0: { field1: [] } }));
  const fresh = newChecker();
  t = performance.now();
  await fresh.start();
  const freshStart = performance.now() - t;
  t = performance.now();
  const firstVerdict = await fresh.call('checker.check', jobOf({ fingerprint: `large-${schemas}`, documents: docs }, `http://h/things${target}/1`, largeBody));
  const firstMs = performance.now() - t;
  t = performance.now();
  await fresh.call('checker.check', jobOf({ fingerprint: `large-${schemas}` }, `http://h/things${target}/1`, largeBody));
  const secondMs = performance.now() - t;
  const memory = await memoryOf(fresh.pid);
  largeMemory.push(memory);
  await fresh.stop();
  console.log(
    `| ${schemas} schemas, ${schemas / 2} operations | ${(size / 1e6).toFixed(2)} MB | ${ms(freshStart, 1)} | ${ms(firstMs, 1)} (${firstVerdict.kind}) | ${ms(secondMs)} | ${ajvCompile(large, target)} | ${mb(memory.rss)} |`,
  );
}

console.log('\n## Memory of the checker process (VmRSS now / VmHWM peak, main thread + worker threads)\n');
console.log('| when | VmRSS | VmHWM |');
console.log('|---|---:|---:|');
console.log(`| started (handshake ${ms(startMs, 1)}), idle | ${mb(idle.rss)} | ${mb(idle.hwm)} |`);
console.log(`| after the museum runs (1 KB to 1 MB bodies, 32 in flight) | ${mb(afterMuseum.rss)} | ${mb(afterMuseum.hwm)} |`);
console.log(`| after the first check of the 3,000-schema definition | ${mb(largeMemory[1].rss)} | ${mb(largeMemory[1].hwm)} |`);

// --- `parley check --batch` end to end ------------------------------------------------------
if (existsSync(cliEntry)) {
  const lines = [];
  const lineCount = Math.max(500, Math.round(5000 * scale));
  for (let i = 0; i < lineCount; i++) {
    lines.push(JSON.stringify({ method: 'GET', path: '/special-events', status: 200, contentType: 'application/json', body: JSON.parse(decoder.decode(bodyOf(1_000))) }));
  }
  const batchFile = join(work, 'batch.jsonl');
  await writeFile(batchFile, lines.join('\n') + '\n');
  t = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [cliEntry, 'check', '--definition', museumFile, '--batch', batchFile], { stdio: ['ignore', 'ignore', 'ignore'] });
    child.once('exit', resolve);
  });
  const batchMs = performance.now() - t;
  console.log(`\n## parley check --batch\n\n${lineCount.toLocaleString('en-US')} lines of ~1 KB bodies: ${(batchMs / 1000).toFixed(2)} s wall clock, process start and definition load included (${Math.round(lineCount / (batchMs / 1000)).toLocaleString('en-US')} lines/s), exit ${code}`);
  console.log(`command: node dist/cli.js check --definition test/fixtures/cli-check/museum/openapi.yaml --batch <${lineCount} lines>`);
}

await cleanup(work);
