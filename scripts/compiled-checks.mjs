// The page's message checks, compiled at build time because its CSP forbids compiling at run
// time (protocol/compiled-checks.ts): that module is bundled for Node, run once, and its output
// becomes the module `virtual:parley-checks` for any browser bundle of UI code (the app's, and
// the benchmarks' page scripts).
import { build } from 'esbuild';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const NAME = 'virtual:parley-checks';

/** An esbuild plugin providing `virtual:parley-checks`. */
export async function compiledChecksPlugin() {
  const contents = await compiledChecksSource();
  return {
    name: NAME,
    setup(b) {
      b.onResolve({ filter: /^virtual:parley-checks$/ }, () => ({ path: NAME, namespace: 'parley-virtual' }));
      b.onLoad({ filter: /.*/, namespace: 'parley-virtual' }, () => ({ contents, loader: 'js', resolveDir: root }));
    },
  };
}

async function compiledChecksSource() {
  // Bundled next to node_modules' parent (the repo), so the generator finds TypeBox's compiler.
  const dir = await mkdtemp(join(root, '.build-checks-'));
  const out = join(dir, 'compiled-checks.mjs');
  try {
    await build({ absWorkingDir: root, entryPoints: ['protocol/compiled-checks.ts'], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
    const { compiledChecksSource: generate } = await import(pathToFileURL(out).href);
    return generate();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

