/** Where built process entries live, whether we run from dist/ or from source under vitest. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParleyError, quote } from '../../protocol/errors.js';

/**
 * No file system takes a longer path (Linux: 4096 bytes). A longer one from outside is refused
 * before any work: resolving and stat-ing a 60 MB "path" held the supervisor for 6 s.
 */
export const MAX_PATH_LENGTH = 4096;

/** Throws `bad-input` for a path no file system could take, quoting only its start. */
export function checkPathLength(path: string, what = 'path'): void {
  if (path.length > MAX_PATH_LENGTH) throw new ParleyError('bad-input', `The ${what} ${quote(path)} is longer than any path can be (${MAX_PATH_LENGTH} characters).`);
}

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
