/**
 * The body of `parley check --body <file>` (or `-` for standard input), sent as its bytes: a
 * file that is not JSON reaches the checker as text and is judged as the response it stands for.
 * Past 1 MiB the checker skips a body unparsed, so only its size is kept (and its start, for sniffing).
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { ParleyError } from '../../protocol/errors.js';
import { CHECK_LIMITS } from '../../processes/checker/engine/verdicts.js';

export interface BodyInput {
  body: Uint8Array;
  /** Set when the body was over the limit and `body` holds only its start. */
  size?: number;
}

export async function readBody(where: string, stdin: Readable, signal?: AbortSignal): Promise<BodyInput> {
  const stream = where === '-' ? stdin : createReadStream(where, signal ? { signal } : {});
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (keptBytes <= CHECK_LIMITS.maxBodyBytes) {
        kept.push(bytes);
        keptBytes += bytes.length;
      }
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const what = where === '-' ? 'standard input' : where;
    throw new ParleyError('bad-input', code === 'ENOENT' ? `--body ${what} was not found.` : `--body ${what} could not be read (${code ?? (err as Error).message}).`);
  }
  const all = Buffer.concat(kept, keptBytes);
  if (size > CHECK_LIMITS.maxBodyBytes) return { body: new Uint8Array(all.subarray(0, 64)), size };
  return { body: new Uint8Array(all.buffer, all.byteOffset, all.length) };
}
