/**
 * Process tests run the built children in dist/, so a `vitest run` (`npm run test:quick`) after
 * an edit would test the code before it. Once per run, before any test: when a source that goes
 * into dist/ is newer than the last build's start (or there is no build), build again.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../processes/supervisor/paths.js';

/** What scripts/build.mjs bundles from: tests are left out (they are never built). */
const SOURCE_DIRS = ['cli', 'protocol', 'processes'];
const SOURCE_FILES = ['scripts/build.mjs', 'scripts/compiled-checks.mjs', 'processes/ui/index.html'];

function builtAt(root: string): number {
  try {
    const stamp = JSON.parse(readFileSync(join(root, 'dist', 'built-at.json'), 'utf8')) as { startedAt?: unknown };
    return typeof stamp.startedAt === 'number' ? stamp.startedAt : 0;
  } catch {
    return 0;
  }
}

/** The first source file changed after `since`, or null. */
export function newerSource(root: string, since: number): string | null {
  const isSource = (name: string) => /\.(ts|tsx|css|json|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name);
  const walk = (dir: string): string | null => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(rel);
        if (found) return found;
      } else if (isSource(entry.name) && statSync(join(root, rel)).mtimeMs > since) {
        return rel;
      }
    }
    return null;
  };
  for (const file of SOURCE_FILES) if (statSync(join(root, file)).mtimeMs > since) return file;
  for (const dir of SOURCE_DIRS) {
    const found = walk(dir);
    if (found) return found;
  }
  return null;
}

export default function setup(): void {
  const root = repoRoot();
  const since = builtAt(root);
  const changed = since === 0 ? 'no build yet' : newerSource(root, since);
  if (!changed) return;
  console.log(`vitest: dist/ is older than ${changed}; building it first.`);
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`vitest: the build failed (exit ${result.status}); dist/ would be stale, so no test runs.`);
}
