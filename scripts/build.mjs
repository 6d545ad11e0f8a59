// Builds every process entry and the UI bundle into dist/ with esbuild.
// Node entries bundle their pure-JS packages (native addons load from node_modules, see
// EXTERNAL); the UI is a single browser bundle with Preact inlined.
import { build } from 'esbuild';
import { compiledChecksPlugin } from './compiled-checks.mjs';
import { chmod, cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const watch = process.argv.includes('--watch');

// Loaded from node_modules rather than bundled: native addons (and msgpackr's optional one),
// esbuild (it runs its own binary), the TypeScript compiler (large, and loaded only for
// dispatch.ts diagnostics), Electron, and tree-sitter with its bash grammar (native; curlconverter
// parses curl commands with them, loaded on first use).
const EXTERNAL = ['isolated-vm', '@napi-rs/keyring', 'msgpackr-extract', 'kerberos', 'esbuild', 'typescript', 'electron', 'tree-sitter', 'tree-sitter-bash'];

const nodeEntries = {
  cli: 'cli/main.ts',
  'electron-main': 'processes/electron/main.ts',
  sender: 'processes/sender/main.ts',
  checker: 'processes/checker/main.ts',
  'checker-worker': 'processes/checker/worker.ts',
  'checker-query-worker': 'processes/checker/query-worker.ts',
  importer: 'processes/importer/main.ts',
  'importer-worker': 'processes/importer/job-worker.ts',
  'mock-host': 'processes/mock-host/main.ts',
  'mock-check-worker': 'processes/mock-host/check-worker.ts',
  'definition-parse-worker': 'processes/supervisor/checks/definition-parse-worker.ts',
};

// TEMPORARY while the children are being written: skip entries that do not exist yet, loudly.
for (const [name, file] of Object.entries(nodeEntries)) {
  if (!existsSync(join(root, file))) {
    console.warn(`build: ${file} does not exist yet; dist/${name}.js not built`);
    delete nodeEntries[name];
  }
}

await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, 'ui'), { recursive: true });

const started = Date.now();
const checksPlugin = await compiledChecksPlugin();
await Promise.all([
  build({
    absWorkingDir: root,
    entryPoints: nodeEntries,
    outdir: dist,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // Shared code and what a process loads on demand (a CLI command, XPath) go to chunks beside
    // the entries: in dist/ itself, where code that finds files by import.meta.url expects to be.
    splitting: true,
    chunkNames: '[name]-[hash]',
    sourcemap: true,
    logLevel: 'warning',
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __parleyCreateRequire } from 'node:module';\nconst require = __parleyCreateRequire(import.meta.url);" },
  }),
  build({
    absWorkingDir: root,
    entryPoints: { 'electron-preload': 'processes/electron/preload.ts' },
    outdir: dist,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    external: ['electron'],
    logLevel: 'warning',
  }),
  build({
    absWorkingDir: root,
    entryPoints: { app: 'processes/ui/src/main.tsx' },
    outdir: join(dist, 'ui'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: !watch,
    sourcemap: true,
    logLevel: 'warning',
    loader: { '.css': 'css' },
    plugins: [checksPlugin],
  }),
]);
await cp(join(root, 'processes/ui/index.html'), join(dist, 'ui/index.html'));
// package.json's bin: `npm link` marks it executable once, but every build writes it anew, and a
// linked `parley` pointing at a file without the x bit fails with "Permission denied".
await chmod(join(dist, 'cli.js'), 0o755);
// When this build started: test/support/global-setup.ts rebuilds when a source is newer.
await writeFile(join(dist, 'built-at.json'), JSON.stringify({ startedAt: started }));
if (!process.env.PARLEY_QUIET_BUILD) console.log(`built dist/ in ${Date.now() - started} ms`);
