/**
 * The exchanges of a HAR capture for `parley check --har`, read with the importer's streaming
 * HAR reader (processes/importer/engine/har/read-har.ts): one entry at a time is held, never
 * the whole file, and each entry is read by V8's own JSON.parse (bench/README.md, issue 15).
 * Entries come out as the consumer asks for them.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { ParleyError } from '../../protocol/errors.js';
import { CHECK_LIMITS } from '../../processes/checker/engine/verdicts.js';
import { readHarEntries as readCapture } from '../../processes/importer/engine/har/read-har.js';
import { contentBytes, harExchange, headerValue, type HarResponse } from '../../processes/importer/engine/har/entry.js';
import type { Exchange } from './checker-session.js';

/** SPEC Limits: a picked HAR over 100 MB is refused; `parley check` keeps the same rule. */
export const MAX_HAR_BYTES = 100 * 1024 * 1024;

export type HarEntry =
  | { index: number; exchange: Exchange }
  /** A response with a body the capture did not record (only its size). */
  | { index: number; exchange: Exchange; bodyMissing: true }
  /** A request that got no response (failed, blocked, cancelled: status 0). */
  | { index: number; noResponse: true }
  | { index: number; error: string };

export async function* readHarEntries(file: string, signal?: AbortSignal): AsyncGenerator<HarEntry> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new ParleyError('bad-input', `${file} is not a file.`);
    size = info.size;
  } catch (err) {
    if (err instanceof ParleyError) throw err;
    throw new ParleyError('bad-input', `${file} could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  if (size > MAX_HAR_BYTES) throw new ParleyError('bad-input', `${file} is ${(size / 1024 / 1024).toFixed(1)} MB; a HAR over 100 MB is refused.`);
  const chunks = createReadStream(file, { highWaterMark: 256 * 1024, ...(signal ? { signal } : {}) }) as AsyncIterable<Buffer>;
  for await (const raw of readCapture(chunks, basename(file))) yield entryOf(raw.value, raw.index);
}

/** One HAR entry as an exchange to check; what is wrong with it otherwise. */
export function entryOf(value: Record<string, unknown>, index: number): HarEntry {
  const read = harExchange({ index, value });
  if ('error' in read) return read;
  const { request, response } = read;
  if (!response) return { index, noResponse: true };
  const contentType = contentTypeOf(response);
  const base = { method: request.method, url: request.url, status: response.status, ...(contentType !== undefined ? { contentType } : {}) };
  const { content } = response;
  if (content.text === undefined) {
    const recorded = content.size ?? 0;
    if (recorded > 0) return { index, exchange: { ...base, body: new Uint8Array(0), size: recorded }, bodyMissing: true };
    return { index, exchange: { ...base, body: new Uint8Array(0) } };
  }
  const base64 = content.encoding === 'base64';
  const bytes = Buffer.byteLength(content.text, base64 ? 'base64' : 'utf8');
  // Over the limit the body is skipped unparsed: its size, and its start for sniffing, is all a check needs.
  if (bytes > CHECK_LIMITS.maxBodyBytes) {
    const start = Buffer.from(content.text.slice(0, 64), base64 ? 'base64' : 'utf8');
    return { index, exchange: { ...base, body: new Uint8Array(start), size: bytes } };
  }
  return { index, exchange: { ...base, body: contentBytes(content)! } };
}

/** The response Content-Type header, else the capture's `content.mimeType`. */
function contentTypeOf(response: HarResponse): string | undefined {
  const header = headerValue(response.headers, 'content-type');
  if (header !== undefined) return header;
  const mime = response.content.mimeType;
  return mime !== undefined && mime.trim() !== '' ? mime : undefined;
}
