// .http import (issue 31, Benchmark: a 5,000-request .http file, target under 3x a bare read and
// parse of the same text in the same run). The file is generated (bench/fixtures/http-kit.ts:
// variables, `###` titles, names, comments, continued queries, JSON, form and text bodies; about
// 1 MB). Every measurement runs in a fresh process and the kinds take turns, run after run:
//   bare     readFileSync + split on `###` + each block's request line, headers and body (the floor)
//   httpyac  httpyac's own parser alone (HttpFileStore.parse, after a one-request parse that loads its plugins)
//   engine   Parley's importer engine alone (parse + convert into the ImportResult)
//   cli      `parley import <file> --new-project <dir>` end to end: the CLI, its supervisor, the
//            importer child, and the commit of 5,000 request files to a new project
// Usage: npm run build && node bench/http-import.mjs [runs=3] [requests=5000]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleNode, cleanup, importFile, machine, median, root, tempDir } from './fixtures/harness.mjs';

const runs = Number(process.argv[2] ?? 3);
const count = Number(process.argv[3] ?? 5000);
const MB = 1024 * 1024;
const work = await tempDir('http-import');
const built = await bundleNode({ 'http-kit': 'bench/fixtures/http-kit.ts' }, work);
const kit = await importFile(built['http-kit']);

/** Runs `code` (an ES module body) in a fresh node from the repository (its node_modules); it prints one JSON line. */
function fresh(code, args = []) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * MB });
  return JSON.parse(out.trim().split('\n').pop());
}

const BARE = `
const { readFileSync } = await import('node:fs');
const t = performance.now();
const text = readFileSync(process.argv[1], 'utf8');
let requests = 0, headers = 0, bodyChars = 0;
for (const block of text.split(/^###.*$/m)) {
  const lines = block.split('\\n');
  let i = 0;
  while (i < lines.length && !/^[A-Z]+ \\S/.test(lines[i])) i++;
  if (i === lines.length) continue;
  requests++;
  const [method, url] = lines[i].split(' ');
  i++;
  while (i < lines.length && /^\\s+[?&/]/.test(lines[i])) i++;
  for (; i < lines.length && lines[i].trim() !== ''; i++) if (lines[i].indexOf(':') > 0) headers++;
  bodyChars += lines.slice(i + 1).join('\\n').trim().length + method.length + url.length;
}
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, requests, headers, bodyChars }));`;

const HTTPYAC = `
const httpyac = (await import('httpyac')).default;
const { readFileSync } = await import('node:fs');
httpyac.cli.initFileProvider();
const store = new httpyac.store.HttpFileStore();
await store.parse('/tmp/warm.http', 'GET https://example.test/\\n', { workingDir: '/tmp', config: {} });
const t = performance.now();
const text = readFileSync(process.argv[1], 'utf8');
const file = await store.parse(process.argv[1], text, { workingDir: '/tmp', config: {} });
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, requests: file.httpRegions.filter((r) => r.request).length }));`;

const ENGINE = `
const kit = await import(${JSON.stringify(`file://${built['http-kit']}`)});
// The converter's modules are loaded by the import above; a one-request file warms them as httpyac's is.
const t = performance.now();
const result = await kit.importHttpFile(process.argv[1]);
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, requests: result.report.requestCount }));`;

function cli(file, n) {
  const t = performance.now();
  execFileSync(process.execPath, [join(root, 'dist', 'cli.js'), 'import', file, '--new-project', join(work, `project-${n}`)], { env: { ...process.env, PARLEY_HOME: join(work, `home-${n}`) }, stdio: ['ignore', 'ignore', 'inherit'] });
  return { ms: performance.now() - t };
}

const fmt = (x, d = 0) => x.toFixed(d);
try {
  console.log(`# .http import bench (${new Date().toISOString()})\n${machine()}\n`);
  const file = join(work, 'generated.http');
  const text = kit.generateHttpFile(count);
  writeFileSync(file, text);
  const fileMb = Buffer.byteLength(text) / MB;
  const rows = { bare: [], httpyac: [], engine: [], cli: [] };
  for (let r = 0; r < runs; r++) {
    rows.bare.push(fresh(BARE, [file]));
    rows.httpyac.push(fresh(HTTPYAC, [file]));
    rows.engine.push(fresh(ENGINE, [file]));
    rows.cli.push(cli(file, r));
  }
  for (const [kind, list] of Object.entries(rows)) {
    const seen = list.map((x) => x.requests).filter((x) => x !== undefined);
    if (seen.some((x) => x !== count)) throw new Error(`${kind} read ${seen.join(', ')} requests, not ${count}`);
  }
  const m = (list) => median(list.map((x) => x.ms));
  const bare = m(rows.bare);
  const yac = m(rows.httpyac);
  console.log(`## ${count.toLocaleString('en-US')} requests, ${fmt(fileMb, 2)} MB (median of ${runs})`);
  console.log('| what | time | x bare split-and-parse | x httpyac parse |');
  console.log('|---|---:|---:|---:|');
  const line = (what, ms) => console.log(`| ${what} | ${fmt(ms, ms < 100 ? 1 : 0)} ms | ${fmt(ms / bare, 2)} | ${fmt(ms / yac, 2)} |`);
  line('bare readFileSync + split on ### + request line, headers, body', bare);
  line("httpyac's parser alone (HttpFileStore.parse)", yac);
  line('importer engine alone (parse + convert)', m(rows.engine));
  line('`parley import --new-project` end to end (process start, importer child, commit)', m(rows.cli));
  console.log(`\nRuns (ms): bare ${rows.bare.map((x) => fmt(x.ms, 1)).join(', ')}; httpyac ${rows.httpyac.map((x) => fmt(x.ms)).join(', ')}; engine ${rows.engine.map((x) => fmt(x.ms)).join(', ')}; cli ${rows.cli.map((x) => fmt(x.ms)).join(', ')}`);
} finally {
  await cleanup(work);
}
