/** Where built process entries live, whether we run from dist/ or from source under vitest. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | null = null;

export function repoRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'parley-workbench') {
      return (cachedRoot = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the parley-workbench package root.');
    dir = parent;
  }
}

/** A built entry such as `sender.js`; children always run from the esbuild output. */
export function distEntry(file: string): string {
  return join(repoRoot(), 'dist', file);
}

let version: string | null = null;

/** The version in package.json. */
export function appVersion(): string {
  version ??= (JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
