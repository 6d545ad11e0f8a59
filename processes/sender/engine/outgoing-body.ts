import { createReadStream, openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { FormData } from 'undici';
import { ParleyError } from '../../../protocol/errors.js';
import type { Header, OutgoingBody } from '../../../protocol/model/exchange.js';

/** A body ready for undici, plus any header it needs (a streamed file's length). */
export interface WireBody {
  body: Buffer | Readable | FormData | undefined;
  headers: Header[];
}

/** Every file the body reads, checked before anything is sent so the error names the file. */
export async function checkBodyFiles(body: OutgoingBody): Promise<void> {
  const paths = body.type === 'file' ? [body.path] : body.type === 'multipart' ? body.parts.flatMap((p) => (p.kind === 'file' ? [p.path] : [])) : [];
  for (const path of paths) await fileSize(path);
}

/**
 * Builds the body afresh for each hop: a 307/308 redirect sends it again, so files are reopened
 * rather than a consumed stream reused. Files are streamed from disk, never read whole.
 */
export async function wireBody(body: OutgoingBody): Promise<WireBody> {
  switch (body.type) {
    case 'none':
      return { body: undefined, headers: [] };
    case 'bytes':
      return { body: Buffer.from(body.data.buffer, body.data.byteOffset, body.data.byteLength), headers: [] };
    case 'file': {
      const size = await fileSize(body.path);
      // A known length lets undici send content-length instead of chunked encoding.
      return { body: createReadStream(body.path), headers: [['content-length', String(size)]] };
    }
    case 'multipart': {
      const form = new FormData();
      for (const part of body.parts) {
        if (part.kind === 'text') {
          form.append(part.name, part.value);
        } else {
          await fileSize(part.path);
          // A file-backed Blob: undici's multipart encoder streams it and knows its size.
          const blob = await openAsBlob(part.path, { type: part.contentType === '' ? 'application/octet-stream' : part.contentType });
          form.append(part.name, blob, basename(part.path));
        }
      }
      return { body: form, headers: [] };
    }
  }
}

async function fileSize(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read (permission denied)' : `cannot be read (${code ?? 'error'})`;
    throw new ParleyError('body-file-missing', `The body file ${path} ${what}.`, { path });
  }
  if (!info.isFile()) throw new ParleyError('body-file-missing', `The body file ${path} is not a regular file.`, { path });
  return info.size;
}
