/**
 * A body file opened once, by a descriptor checked after opening, so what goes on the wire is the
 * file that was inside the project when it was opened, on every hop, even if its path is swapped
 * for a symbolic link later (issue 26). Checking a path and then opening it again by name would
 * upload whatever the path leads to by then.
 *
 * The check, the same on Linux and macOS (no /proc, no F_GETPATH):
 * 1. the path's text must stay inside the project (`assertInsideByText`);
 * 2. its real path (links resolved) must be inside the project's real path;
 * 3. that real path is opened with O_NOFOLLOW (a last component swapped for a link since step 2
 *    fails with ELOOP) and O_NONBLOCK (a FIFO never holds the open);
 * 4. the open file must be a regular file, and the path, resolved again, must still lead to the
 *    same real path and the same file (device and inode) as the descriptor. A folder on the way
 *    swapped for a link between steps 2 and 3 (and back) makes the open reach another file, which
 *    this refuses. What the descriptor then reads is a file that was inside the project after it
 *    was opened; a hard link can make a file outside the project be inside it, as it always could.
 */
import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { posix, resolve } from 'node:path';
import { ParleyError, quote } from '../../../protocol/errors.js';
import { assertInsideByText, isInsideFolder } from '../../../protocol/project/safe-path.js';

/** O_NOFOLLOW and O_NONBLOCK where the platform has them (Windows has neither, nor FIFOs to fear). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CHUNK = 64 * 1024;

export interface OpenBodyFile {
  /** The path as the request names it, relative to the project folder: what messages quote. */
  path: string;
  handle: FileHandle;
  /** Bytes sent: the size when opened (a file that grows is sent as it was; one that shrinks fails the send). */
  size: number;
}

/** Opens `path` (relative to the project folder `root`) for sending, refusing anything that leads out of `root`. */
export async function openBodyFile(root: string, path: string): Promise<OpenBodyFile> {
  try {
    assertInsideByText(path, 'body file');
  } catch (err) {
    throw refused(path, (err as Error).message);
  }
  const full = resolve(root, path);
  const realRoot = await realpath(root).catch((err: NodeJS.ErrnoException) => {
    throw new ParleyError('body-file-missing', `The project folder of the body file ${quote(path)} cannot be read (${err.code ?? 'error'}).`, { path });
  });
  const real = await realpath(full).catch((err: NodeJS.ErrnoException) => {
    throw unreadable(path, err);
  });
  if (!isInsideFolder(realRoot, real)) throw refused(path, `The body file ${quote(path)} leads out of the project folder through a symbolic link and was refused.`);
  const handle = await open(real, OPEN_FLAGS).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ELOOP' ? swapped(path) : unreadable(path, err);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new ParleyError('body-file-missing', `The body file ${quote(path)} is not a regular file.`, { path });
    const again = await realpath(full).catch(() => null);
    const named = again === real ? await stat(again).catch(() => null) : null;
    if (named === null || !sameFile(named, info)) throw swapped(path);
    return { path, handle, size: info.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/**
 * The file's first `size` bytes, read by position from the descriptor, so each hop of a 307/308
 * chain reads them again from the start without reopening anything.
 */
export async function* fileChunks(file: OpenBodyFile): AsyncGenerator<Buffer> {
  for (let at = 0; at < file.size; ) {
    const want = Math.min(CHUNK, file.size - at);
    const { bytesRead, buffer } = await file.handle.read(Buffer.allocUnsafe(want), 0, want, at);
    if (bytesRead === 0) {
      throw new ParleyError('body-file-changed', `The body file ${quote(file.path)} got shorter while it was being sent (${at} of ${file.size} bytes read).`, { path: file.path });
    }
    at += bytesRead;
    yield bytesRead === want ? buffer : buffer.subarray(0, bytesRead);
  }
}

/** The name a multipart part gives the file: its own, as the request names it. */
export function bodyFileName(file: OpenBodyFile): string {
  return posix.basename(file.path.replaceAll('\\', '/'));
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function refused(path: string, message: string): ParleyError {
  return new ParleyError('path-escape', `Not sent: ${message} Body files live in the project folder.`, { path });
}

function swapped(path: string): ParleyError {
  return refused(path, `The body file ${quote(path)} changed into a symbolic link or moved while it was being opened, and was refused.`);
}

function unreadable(path: string, err: NodeJS.ErrnoException): ParleyError {
  const code = err.code;
  const what = code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : code === 'EACCES' ? 'cannot be read (permission denied)' : code === 'ELOOP' ? 'is a loop of symbolic links' : `cannot be read (${code ?? 'error'})`;
  return new ParleyError('body-file-missing', `The body file ${quote(path)} ${what}.`, { path });
}
