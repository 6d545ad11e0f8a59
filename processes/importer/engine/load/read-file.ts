/**
 * Reads one local document. Only a regular file is read: a FIFO, a device or a folder is
 * refused before any byte is taken (opened non-blocking so a FIFO cannot hang the import).
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { ParleyError } from '../../../../protocol/errors.js';
import type { ReadBudget } from './limits.js';
import { tooLarge } from './limits.js';

export async function readRegularFile(path: string, budget: ReadBudget, shown: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw fileError(err, shown);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ParleyError('import-not-a-file', `${shown} is not a regular file and was not read.`, { file: shown });
    if (stat.size > budget.remainingBytes()) throw tooLarge(shown, budget.limits.totalBytes);
    const bytes = await handle.readFile();
    budget.addBytes(bytes.length, shown);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  } finally {
    await handle.close();
  }
}

function fileError(err: unknown, shown: string): ParleyError {
  const code = (err as { code?: string }).code;
  if (code === 'ENOENT') return new ParleyError('import-file-unreadable', `${shown} was not found.`, { file: shown, cause: code });
  if (code === 'EACCES' || code === 'EPERM') return new ParleyError('import-file-unreadable', `${shown} could not be read: permission denied.`, { file: shown, cause: code });
  if (code === 'EISDIR') return new ParleyError('import-not-a-file', `${shown} is a folder, not a file.`, { file: shown, cause: code });
  return new ParleyError('import-file-unreadable', `${shown} could not be read${code ? ` (${code})` : ''}.`, { file: shown, ...(code ? { cause: code } : {}) });
}
