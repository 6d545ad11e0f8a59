/** Paths read from project files must stay inside the project folder. */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ParleyError } from '../errors.js';
import { portableFileName } from './file-names.js';

export function resolveInside(root: string, relPath: string, what = 'path'): string {
  if (relPath.includes('\0')) throw new ParleyError('path-escape', `The ${what} ${JSON.stringify(relPath)} contains a NUL character.`);
  if (isAbsolute(relPath)) throw new ParleyError('path-escape', `The ${what} ${JSON.stringify(relPath)} is absolute; project files may only name paths inside the project folder.`);
  const full = resolve(root, relPath);
  const rel = relative(resolve(root), full);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new ParleyError('path-escape', `The ${what} ${JSON.stringify(relPath)} points outside the project folder and was refused.`);
  }
  return full;
}

/** A file or folder name made from a user-given name: portable to every OS, never `.` or `..` (file-names.ts). */
export function safeFileName(name: string, fallback = 'item'): string {
  return portableFileName(name, { fallback });
}
