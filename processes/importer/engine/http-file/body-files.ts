/**
 * The files a .http file names (`< ./body.json`, `> ./handler.js`), read only from inside the
 * picked file's folder: a path that is absolute or climbs out (`../`) is refused by its text, one
 * that leads out through a link by where it leads, and a symbolic link is never followed at all
 * (the last step is opened with O_NOFOLLOW). Only regular files, each within a size cap and all of
 * them within a total, so a .http file cannot make the import read the disk at large.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { ParleyError, quote } from '../../../../protocol/errors.js';
import { resolveInside } from '../../../../protocol/project/safe-path.js';

/** One body file; the .http file's own limit (SPEC "Limits") is 10 MB, a body beside it gets the same. */
export const BODY_FILE_LIMIT = 10 * 1024 * 1024;
/** Every file one import reads beside the .http file. */
export const BODY_FILES_TOTAL = 50 * 1024 * 1024;

export class BodyFiles {
  private total = 0;

  /** `dir`: the picked file's folder; absent for pasted text, when nothing is read. */
  constructor(private readonly dir: string | undefined) {}

  get available(): boolean {
    return this.dir !== undefined;
  }

  /** The bytes of `path` (as the .http file wrote it); a ParleyError says why not. */
  async read(path: string): Promise<Uint8Array> {
    if (!this.dir) throw new ParleyError('import-file-unreadable', `${quote(path)} is not read: pasted text has no folder to read it from.`);
    let full: string;
    try {
      full = resolveInside(this.dir, path, 'file');
    } catch (err) {
      throw new ParleyError('path-escape', `${quote(path)} is outside the .http file's folder and was not read.`, { cause: (err as ParleyError).message });
    }
    let handle;
    try {
      handle = await open(full, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new ParleyError('path-escape', `${quote(path)} is a symbolic link, which is not followed.`);
      if (code === 'ENOENT') throw new ParleyError('import-file-unreadable', `${quote(path)} was not found beside the .http file.`);
      throw new ParleyError('import-file-unreadable', `${quote(path)} could not be read${code ? ` (${code})` : ''}.`);
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new ParleyError('import-not-a-file', `${quote(path)} is not a regular file and was not read.`);
      if (stat.size > BODY_FILE_LIMIT) throw new ParleyError('import-too-large', `${quote(path)} is over ${BODY_FILE_LIMIT / (1024 * 1024)} MB and was not read.`);
      if (this.total + stat.size > BODY_FILES_TOTAL) throw new ParleyError('import-too-large', `${quote(path)} was not read: the files beside the .http file come to over ${BODY_FILES_TOTAL / (1024 * 1024)} MB.`);
      const bytes = await handle.readFile();
      this.total += bytes.length;
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    } finally {
      await handle.close();
    }
  }
}

/** The bytes as UTF-8 text, or null when they are not text (a PDF, an image). */
export function textOf(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\0') ? null : text.replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}
