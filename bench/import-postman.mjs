// Postman collection import of a generated 5,000-request collection: time and peak memory of
// Parley's importer engine (read, detect, convert to requests) next to postman-collection's own
// load of the same file (what newman does before a run: JSON.parse + new Collection), in the same
// run, with a bare JSON.parse as the floor. Each measurement runs in its own fresh Node process
// so peak RSS (process.resourceUsage().maxRSS) belongs to that task alone.
// Usage: node bench/import-postman.mjs [requests=5000] [runs=5]
import { build } from 'esbuild';
import { fork } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { collection } from './fixtures/postman-collection.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], process.argv[5]);
} else {
  await main();
}

async function main() {
  const requests = Number(process.argv[2] ?? 5000);
  const runs = Number(process.argv[3] ?? 5);
  const work = await mkdtemp(join(tmpdir(), 'parley-bench-postman-'));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: { engine: 'processes/importer/engine/index.ts' },
      outdir: work,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outExtension: { '.js': '.mjs' },
      banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
      logLevel: 'warning',
    });
    const engine = pathToFileURL(join(work, 'engine.mjs')).href;
    const document = join(work, 'bench.postman_collection.json');
    writeFileSync(document, JSON.stringify(collection(requests)));
    const size = statSync(document).size;
    console.log(`collection: ${requests} requests (${(size / 1024 / 1024).toFixed(1)} MB), ${runs} runs each, median shown`);
    const results = {};
    for (const task of ['json-parse', 'parley-import', 'postman-collection-load']) {
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await runChild(task, document, engine));
      samples.sort((a, b) => a.ms - b.ms);
      results[task] = samples[Math.floor(samples.length / 2)];
    }
    const row = (name, r) => `${name.padEnd(26)} ${String(Math.round(r.ms)).padStart(7)} ms ${String(Math.round(r.maxRssMb)).padStart(6)} MB peak RSS  ${r.note ?? ''}`;
    for (const [name, r] of Object.entries(results)) console.log(row(name, r));
    const parley = results['parley-import'];
    const peer = results['postman-collection-load'];
    console.log(`parley / postman-collection load: time x${(parley.ms / peer.ms).toFixed(2)}, peak memory x${(parley.maxRssMb / peer.maxRssMb).toFixed(2)}`);
    console.log(JSON.stringify({ bench: 'import-postman', requests, bytes: size, node: process.version, results }));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function runChild(task, document, engine) {
  return new Promise((resolvePromise, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), ['--child', task, document, engine], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    proc.on('message', (m) => resolvePromise(m));
    proc.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`${task} exited with ${code}`))));
  });
}

async function child(task, document, engine) {
  const started = performance.now();
  let note = '';
  if (task === 'json-parse') {
    const value = JSON.parse(readFileSync(document, 'utf8'));
    note = `${value.item.length} folders`;
  } else if (task === 'parley-import') {
    const { runImportJob } = await import(engine);
    let n = 0;
    const { result } = await runImportJob({ source: { kind: 'file', path: document }, format: 'auto', options: {}, network: { proxy: '', caPem: '' } }, { newId: (p) => `${p}_${++n}`, now: () => new Date(0) });
    note = `${result.report.requestCount} requests, ${result.report.folderCount} folders, ${result.report.unimported.length} scripts reported`;
  } else {
    const { Collection } = (await import('postman-collection')).default;
    const c = new Collection(JSON.parse(readFileSync(document, 'utf8')));
    let count = 0;
    c.forEachItem(() => count++);
    note = `${count} items`;
  }
  const ms = performance.now() - started;
  process.send({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, note }, () => process.exit(0));
}
