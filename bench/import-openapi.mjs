// OpenAPI import of a large real document: time and peak memory of Parley's importer engine
// next to @apidevtools/swagger-parser's dereference() of the same document, in the same run,
// with a bare JSON.parse as the floor. Each measurement runs in its own fresh Node process so
// peak RSS (process.resourceUsage().maxRSS) belongs to that task alone.
//
// Document: GitHub's REST API description (api.github.com.json, ~13 MB, MIT) from the npm
// package @octokit/openapi, fetched once with `npm pack` into a cache folder; or any file given.
// Usage: node bench/import-openapi.mjs [document.json|yaml] [runs=3]
import { build } from 'esbuild';
import { execFileSync, fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OCTOKIT = '@octokit/openapi@23.0.2';

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], process.argv[5]);
} else {
  await main();
}

async function main() {
  const document = process.argv[2] && !/^\d+$/.test(process.argv[2]) ? resolve(process.argv[2]) : githubDocument();
  const runs = Number(process.argv.find((a, i) => i >= 2 && /^\d+$/.test(a)) ?? 3);
  const work = await mkdtemp(join(tmpdir(), 'parley-bench-import-'));
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
    const size = statSync(document).size;
    console.log(`document: ${document} (${(size / 1024 / 1024).toFixed(1)} MB), ${runs} runs each, median shown`);
    const results = {};
    for (const task of ['json-parse', 'parley-import', 'swagger-parser-dereference']) {
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await runChild(task, document, engine));
      samples.sort((a, b) => a.ms - b.ms);
      const median = samples[Math.floor(samples.length / 2)];
      results[task] = median;
    }
    const row = (name, r) => `${name.padEnd(28)} ${String(Math.round(r.ms)).padStart(7)} ms ${String(Math.round(r.maxRssMb)).padStart(6)} MB peak RSS  ${r.note ?? ''}`;
    for (const [name, r] of Object.entries(results)) console.log(row(name, r));
    const parley = results['parley-import'];
    const peer = results['swagger-parser-dereference'];
    console.log(`parley / swagger-parser: time x${(parley.ms / peer.ms).toFixed(2)}, peak memory x${(parley.maxRssMb / peer.maxRssMb).toFixed(2)}`);
    console.log(JSON.stringify({ bench: 'import-openapi', document, bytes: size, node: process.version, results }));
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
    note = `${Object.keys(value.paths ?? {}).length} paths`;
  } else if (task === 'parley-import') {
    const { createDocumentLoader, readImportInput, createImporterRegistry } = await import(engine);
    const loader = createDocumentLoader({ offline: true });
    const input = await readImportInput({ kind: 'file', path: document }, loader);
    const { importer } = createImporterRegistry().pick('auto', input);
    let n = 0;
    const result = await importer.convert(input, { newId: (p) => `${p}_${++n}`, now: () => new Date(0), loader, options: {} });
    note = `${result.report.requestCount} requests, ${result.report.folderCount} folders, ${result.report.webhookCount} webhooks, ${result.report.warnings.length} warnings`;
  } else {
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    const api = await SwaggerParser.dereference(document);
    note = `${Object.keys(api.paths ?? {}).length} paths`;
  }
  const ms = performance.now() - started;
  process.send({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, note }, () => process.exit(0));
}

/** GitHub's REST API description from the npm registry, cached between runs. */
function githubDocument() {
  const cache = join(tmpdir(), 'parley-bench-cache', 'octokit-openapi-23.0.2');
  const file = join(cache, 'package', 'generated', 'api.github.com.json');
  if (existsSync(file)) return file;
  mkdirSync(cache, { recursive: true });
  const tarball = execFileSync('npm', ['pack', OCTOKIT, '--silent'], { cwd: cache, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', tarball, 'package/generated/api.github.com.json', 'package/LICENSE'], { cwd: cache });
  return file;
}
