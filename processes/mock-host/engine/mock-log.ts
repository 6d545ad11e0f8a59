/**
 * The mock's log: entries with credentials masked, kept in a ring bounded in entries and bytes
 * (protocol/mock-log-bounds.ts) and handed to a callback (the host puts them on the bus).
 */
import type { BodyPreview, MockHeader } from '../../../protocol/model/mock.js';
import { MASK, isCredentialHeader, maskUrl } from '../../../protocol/credentials/index.js';
import { LOG_PREVIEW_BYTES } from '../../../protocol/mock-log-bounds.js';

export { MASK };
export { LogRing } from '../../../protocol/mock-log-bounds.js';

/** node:http's flat `rawHeaders` list (name, value, name, value...) as pairs, names as the client spelled them. */
export function headerPairs(raw: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
  return pairs;
}

/** A client's credential headers (SPEC's name rule, Cookie, Set-Cookie) masked whole: a log shows no part of them. */
export function maskHeaders(headers: Iterable<readonly [string, string]>): MockHeader[] {
  const out: MockHeader[] = [];
  for (const [name, value] of headers) out.push({ name, value: isCredentialHeader(name) ? MASK : value });
  return out;
}

/**
 * The request target with credential-looking query values masked, and the password of a full
 * URL (an absolute-form target, which the mock refuses and logs), as History masks a URL.
 */
export function maskTarget(target: string): string {
  return maskUrl(target).text;
}

export const PREVIEW_BYTES = LOG_PREVIEW_BYTES;

const EMPTY_PREVIEW: BodyPreview = Object.freeze({ text: '', size: 0, truncated: false }) as BodyPreview;

export function bodyPreview(body: Uint8Array | string, limit = PREVIEW_BYTES): BodyPreview {
  if (body.length === 0) return EMPTY_PREVIEW;
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const truncated = bytes.byteLength > limit;
  return { text: bytes.subarray(0, limit).toString('utf8'), size: bytes.byteLength, truncated };
}
