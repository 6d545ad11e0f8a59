/**
 * A picked entry file before it is read whole: its size and its first bytes (enough for
 * auto-detect), and a stream of all of it for importers that never hold a source in memory
 * (HAR). Only a regular file is opened (non-blocking, so a FIFO cannot hang the job), the same
 * policy as `read-file.ts`. The supervisor's badge reads the head through here too.
 */
import { constants, createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { ParleyError } from '../../../../protocol/errors.js';
import { decodeText } from './decode-text.js';

/** Auto-detect looks at most at this much of a file; the import itself reads it all. */
export const DETECT_HEAD_BYTES = 1024 * 1024;

export interface EntryFile {
  size: number;
  /** The first DETECT_HEAD_BYTES, decoded (a character cut at the end is dropped). */
  head: string;
  /** The whole file from its first byte, in chunks. */
  stream(signal?: AbortSignal): AsyncIterable<Uint8Array>;
}

export async function openEntryFile(path: string, shown: string, headBytes = DETECT_HEAD_BYTES): Promise<EntryFile> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT') throw new ParleyError('import-file-unreadable', `${shown} was not found.`, { file: shown, cause: code });
    if (code === 'EISDIR') throw new ParleyError('import-not-a-file', `${shown} is a folder, not a file.`, { file: shown, cause: code });
    throw new ParleyError('import-file-unreadable', `${shown} could not be read${code ? ` (${code})` : ''}.`, { file: shown, ...(code ? { cause: code } : {}) });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ParleyError('import-not-a-file', `${shown} is not a regular file and was not read.`, { file: shown });
    const buffer = Buffer.alloc(Math.min(headBytes, stat.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = decodeText(buffer.subarray(0, bytesRead)).replace(/\uFFFD$/, '');
    return {
      size: stat.size,
      head,
      stream: (signal) => createReadStream(path, { highWaterMark: 256 * 1024, ...(signal ? { signal } : {}) }),
    };
  } finally {
    await handle.close();
  }
}

/** Passes `chunks` through, telling `onBytes` the running total at most every `everyBytes`. */
export async function* countingBytes(chunks: AsyncIterable<Uint8Array>, onBytes: (bytes: number) => void, everyBytes = 1024 * 1024): AsyncIterable<Uint8Array> {
  let total = 0;
  let told = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total - told >= everyBytes) {
      told = total;
      onBytes(total);
    }
    yield chunk;
  }
  if (told !== total) onBytes(total);
}
