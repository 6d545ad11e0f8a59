/**
 * The mock's log: entries with credentials masked, kept in a bounded ring and handed to a callback
 * (the host puts them on the bus).
 */
import type { BodyPreview, MockHeader, MockLogEntry } from '../../../protocol/model/mock.js';
import { MASK, isCredentialHeader, maskUrl } from '../../../protocol/credentials/index.js';

export { MASK };

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

/** The request target with credential-looking query values masked. */
export function maskTarget(target: string): string {
  return maskUrl(target).text;
}

export const PREVIEW_BYTES = 16 * 1024;

const EMPTY_PREVIEW: BodyPreview = Object.freeze({ text: '', size: 0, truncated: false }) as BodyPreview;

export function bodyPreview(body: Uint8Array | string, limit = PREVIEW_BYTES): BodyPreview {
  if (body.length === 0) return EMPTY_PREVIEW;
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const truncated = bytes.byteLength > limit;
  return { text: bytes.subarray(0, limit).toString('utf8'), size: bytes.byteLength, truncated };
}

/** The newest `capacity` items (log entries, or records whose entries are built when read). */
export class LogRing<T = MockLogEntry> {
  private readonly items: T[] = [];
  private next = 0;

  constructor(private readonly capacity: number) {}

  push(entry: T): void {
    if (this.items.length < this.capacity) this.items.push(entry);
    else this.items[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Oldest first. */
  entries(): T[] {
    return this.items.length < this.capacity ? [...this.items] : [...this.items.slice(this.next), ...this.items.slice(0, this.next)];
  }

  clear(): void {
    this.items.length = 0;
    this.next = 0;
  }
}
