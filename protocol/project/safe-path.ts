/**
 * Paths read from project files must stay inside the project folder: by their text (no `../`
 * out, not absolute) and by where they really lead (no symbolic link out of the folder).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ParleyError } from '../errors.js';
import { portableFileName } from './file-names.js';

/**
 * The full path of `relPath` inside `root`, refused (`path-escape`) when it is absolute, climbs
 * out, or leads out through a symbolic link: the real path of as much of it as exists must be
 * inside the real path of `root`, and a link pointing nowhere is refused too. (A path checked
 * here can still be swapped for a link afterwards by someone who can write the folder; a project
 * folder from elsewhere, such as a git clone, cannot do that.)
 */
export function resolveInside(root: string, relPath: string, what = 'path'): string {
  assertInsideByText(relPath, what);
  const full = resolve(root, relPath);
  if (!isInside(resolve(root), full)) {
    throw new ParleyError('path-escape', `The ${what} ${JSON.stringify(relPath)} points outside the project folder and was refused.`);
  }
  const reason = linkOut(resolve(root), full);
  if (reason) throw new ParleyError('path-escape', `The ${what} ${JSON.stringify(relPath)} ${reason} and was refused.`);
  return full;
}

/**
 * The part of `resolveInside` that needs no disk, for paths that are not on disk (yet), such as a
 * mock folder's file list before a save: refused (`path-escape`) when `relPath` holds NUL, is
 * absolute (on any OS) or climbs out of its folder.
 */
export function assertInsideByText(relPath: string, what = 'path'): void {
  if (relPath.includes('\0')) throw new ParleyError('path-escape', `The ${what} ${JSON.stringify(relPath)} contains a NUL character.`);
  if (isAbsolute(relPath) || /^[A-Za-z]:[\\/]/.test(relPath) || relPath.startsWith('\\\\')) {
    throw new ParleyError('path-escape', `The ${what} ${JSON.stringify(relPath)} is absolute; project files may only name paths inside the project folder.`);
  }
  // Any absolute folder serves: only whether the path climbs above it matters.
  if (!isInside(TEXT_ROOT, resolve(TEXT_ROOT, relPath.replaceAll('\\', '/')))) {
    throw new ParleyError('path-escape', `The ${what} ${JSON.stringify(relPath)} points outside the project folder and was refused.`);
  }
}

const TEXT_ROOT = resolve('/parley-root');

/** Why `full` (lexically inside `root`) really leads elsewhere, or null when it does not. */
function linkOut(root: string, full: string): string | null {
  const realRoot = realOrMissing(root);
  // A folder not made yet holds no links.
  if (realRoot === null) return null;
  if (typeof realRoot !== 'string') return `cannot be checked (${realRoot.code})`;
  for (let at = full; ; at = dirname(at)) {
    const real = realOrMissing(at);
    if (typeof real === 'string') return isInside(realRoot, real) ? null : 'leads out of the project folder through a symbolic link';
    if (real !== null) return real.code === 'ELOOP' ? 'is a loop of symbolic links' : `cannot be checked (${real.code})`;
    // Missing: a link pointing nowhere is there (lstat sees it) but has no real path.
    if (exists(at)) return 'is a symbolic link that points nowhere';
    if (at === root || dirname(at) === at) return null;
  }
}

/** The real path; null when nothing is there; the error when it cannot be read. */
function realOrMissing(path: string): string | null | NodeJS.ErrnoException {
  try {
    return realpathSync.native(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : (err as NodeJS.ErrnoException);
  }
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Whether the absolute `path` is `root` or inside it, by its text (the one test of every "is it inside" question). */
export function isInsideFolder(root: string, path: string): boolean {
  return isInside(resolve(root), resolve(path));
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A file or folder name made from a user-given name: portable to every OS, never `.` or `..` (file-names.ts). */
export function safeFileName(name: string, fallback = 'item'): string {
  return portableFileName(name, { fallback });
}
