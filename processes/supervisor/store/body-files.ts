/**
 * Body files (a binary body, a multipart file part) live in the project folder, and a request
 * names one by its path there, so a project from elsewhere can never make Send upload another
 * file of the machine (send/resolve.ts refuses anything else). A file the user picks in the app
 * is copied into the project's files/ folder, or named where it is when it is inside already.
 * docs/project-files.md.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, extname, isAbsolute, join, relative, sep } from 'node:path';
import { ParleyError, quote } from '../../../protocol/errors.js';
import { FILES_DIR } from '../../../protocol/project/layout.js';
import { portableFileName } from '../../../protocol/project/file-names.js';
import { isInsideFolder, resolveInside } from '../../../protocol/project/safe-path.js';
import type { ProjectStore } from './project-store.js';

export interface BodyFile {
  /** The path a request stores: relative to the project folder, '/'-separated. */
  path: string;
  /** Whether the file was copied in (false: it was inside the project already, or the same copy was there). */
  copied: boolean;
  size: number;
}

/** Makes the file the user picked (`source`, a full path) a body file of the project. */
export async function addBodyFile(store: ProjectStore, source: string): Promise<BodyFile> {
  if (!isAbsolute(source)) throw new ParleyError('bad-input', `Choose a file by its full path, not ${JSON.stringify(source)}.`);
  const info = await stat(source).catch((err: NodeJS.ErrnoException) => {
    throw new ParleyError(err.code === 'ENOENT' ? 'not-found' : 'bad-input', `${source} cannot be read (${err.code === 'ENOENT' ? 'it does not exist' : err.code}).`);
  });
  if (!info.isFile()) throw new ParleyError('bad-input', `${source} is not a file.`);
  const [root, real] = [await realpath(store.root), await realpath(source)];
  if (isInsideFolder(root, real)) return { path: relative(root, real).split(sep).join('/'), copied: false, size: info.size };
  const dir = join(store.root, FILES_DIR);
  const name = portableFileName(basename(source), { fallback: 'file' });
  // Picking the same file again gives the same copy, not `photo 2.png`.
  const same = await stat(join(dir, name)).catch(() => null);
  if (same?.isFile() && same.size === info.size && (await sha256(join(dir, name))) === (await sha256(source))) {
    return { path: `${FILES_DIR}/${name}`, copied: false, size: info.size };
  }
  // A clash is numbered before the extension: `photo 2.png`.
  const ext = extname(name);
  const placed = store.nameClaims().claim(dir, name.slice(0, name.length - ext.length), ext, 'file') + ext;
  await store.commit([{ path: join(dir, placed), content: { copyFrom: source } }]);
  return { path: `${FILES_DIR}/${placed}`, copied: true, size: info.size };
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The size of a file a request names (`file`, relative to the project): what the composer shows beside its name. */
export async function bodyFileSize(store: ProjectStore, file: string): Promise<number> {
  const path = resolveInside(store.root, file, 'file');
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw new ParleyError('not-found', `The file ${quote(file)} is not in the project (${err.code === 'ENOENT' ? 'it does not exist' : err.code}).`);
  });
  if (!info.isFile()) throw new ParleyError('bad-input', `${quote(file)} in the project is not a file.`);
  return info.size;
}
