import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Header, OutgoingBody } from '../../../protocol/model/exchange.js';
import { bodyFileName, fileChunks, openBodyFile, type OpenBodyFile } from './body-file.js';

/** A body with its files open: what every hop of one send sends (body-file.ts). */
export type OpenedBody =
  | { type: 'none' }
  | { type: 'bytes'; data: Uint8Array }
  | { type: 'file'; file: OpenBodyFile }
  | { type: 'multipart'; parts: OpenedPart[] };

type OpenedPart = { kind: 'text'; name: string; value: string } | { kind: 'file'; name: string; file: OpenBodyFile; contentType: string };

/** A body ready for undici, plus the headers it needs (a streamed body's length, multipart's boundary). */
export interface WireBody {
  body: Buffer | Readable | undefined;
  headers: Header[];
}

/**
 * Opens every file the body reads, once, before anything is sent (so a refusal names the file and
 * nothing went out). The caller closes it with `closeBody` when the send ends, however it ends.
 */
export async function openBody(body: OutgoingBody): Promise<OpenedBody> {
  switch (body.type) {
    case 'none':
    case 'bytes':
      return body;
    case 'file':
      return { type: 'file', file: await openBodyFile(body.root, body.path) };
    case 'multipart': {
      const parts: OpenedPart[] = [];
      try {
        for (const part of body.parts) {
          parts.push(part.kind === 'text' ? part : { kind: 'file', name: part.name, file: await openBodyFile(body.root, part.path), contentType: part.contentType });
        }
      } catch (err) {
        await closeBody({ type: 'multipart', parts });
        throw err;
      }
      return { type: 'multipart', parts };
    }
  }
}

/** Closes the body's files; a hop still reading one gets an error, never another file's bytes. */
export async function closeBody(body: OpenedBody | undefined): Promise<void> {
  const files = body?.type === 'file' ? [body.file] : body?.type === 'multipart' ? body.parts.flatMap((p) => (p.kind === 'file' ? [p.file] : [])) : [];
  await Promise.all(files.map((f) => f.handle.close().catch(() => undefined)));
}

/**
 * The body for one hop: a 307/308 redirect sends it again, so each hop reads the open files from
 * their start (by position, never by name). Files are streamed, never read whole.
 */
export function wireBody(body: OpenedBody): WireBody {
  switch (body.type) {
    case 'none':
      return { body: undefined, headers: [] };
    case 'bytes':
      return { body: Buffer.from(body.data.buffer, body.data.byteOffset, body.data.byteLength), headers: [] };
    case 'file':
      // A known length lets undici send content-length instead of chunked encoding.
      return { body: body.file.size === 0 ? Buffer.alloc(0) : Readable.from(fileChunks(body.file), { objectMode: false }), headers: [['content-length', String(body.file.size)]] };
    case 'multipart':
      return multipartBody(body.parts);
  }
}

/**
 * multipart/form-data as undici's FormData encoder writes it (RFC 7578; names' line breaks made
 * CRLF, then `"`, CR and LF escaped as %22, %0D, %0A; a closing CRLF after the last boundary),
 * with the file parts streamed from their open files and the length known in advance.
 */
function multipartBody(parts: OpenedPart[]): WireBody {
  const boundary = `----parley-formdata-${randomBytes(12).toString('hex')}`;
  const pieces: (Buffer | OpenBodyFile)[] = [];
  for (const part of parts) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(crlf(part.name))}"`;
    if (part.kind === 'text') {
      pieces.push(Buffer.from(`${head}\r\n\r\n${crlf(part.value)}\r\n`));
    } else {
      pieces.push(Buffer.from(`${head}; filename="${escapeName(bodyFileName(part.file))}"\r\nContent-Type: ${partType(part.contentType)}\r\n\r\n`), part.file, Buffer.from('\r\n'));
    }
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  const length = pieces.reduce((sum, piece) => sum + (Buffer.isBuffer(piece) ? piece.length : piece.size), 0);
  async function* chunks(): AsyncGenerator<Buffer> {
    for (const piece of pieces) {
      if (Buffer.isBuffer(piece)) yield piece;
      else yield* fileChunks(piece);
    }
  }
  return {
    body: Readable.from(chunks(), { objectMode: false }),
    headers: [
      ['content-type', `multipart/form-data; boundary=${boundary}`],
      ['content-length', String(length)],
    ],
  };
}

function crlf(text: string): string {
  return text.replace(/\r?\n|\r/g, '\r\n');
}

function escapeName(text: string): string {
  return text.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
}

/** A part's Content-Type as a Blob's type is kept: lower-cased, and none (octet-stream) when it holds a character outside printable ASCII. */
function partType(type: string): string {
  return type === '' || /[^\x20-\x7e]/.test(type) ? 'application/octet-stream' : type.toLowerCase();
}

