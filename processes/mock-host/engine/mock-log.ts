/**
 * The mock's log: entries with credentials masked, kept in a bounded ring and handed to a callback
 * (the host puts them on the bus).
 */
import type { BodyPreview, MockHeader, MockLogEntry } from '../../../protocol/model/mock.js';

export const MASK = '••••••';

const ALWAYS_MASKED = new Set(['authorization', 'proxyauthorization', 'cookie', 'setcookie']);
const CREDENTIAL_PARTS = ['token', 'secret', 'password', 'passwd', 'apikey', 'auth', 'session', 'csrf', 'xsrf', 'signature', 'subscriptionkey', 'accesskey', 'privatekey'];

const verdicts = new Map<string, boolean>();

/** SPEC "Credentials in imported captures": ignoring case, `_` and `-`. */
export function isCredentialName(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    const n = name.toLowerCase().replace(/[_-]/g, '');
    verdict = ALWAYS_MASKED.has(n) || n === 'key' || n === 'sig' || CREDENTIAL_PARTS.some((p) => n.includes(p));
    // Header names repeat from request to request; the bound keeps odd clients from growing it.
    if (verdicts.size > 4096) verdicts.clear();
    verdicts.set(name, verdict);
  }
  return verdict;
}

/** node:http's flat `rawHeaders` list (name, value, name, value...) as pairs, names as the client spelled them. */
export function headerPairs(raw: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
  return pairs;
}

export function maskHeaders(headers: Iterable<readonly [string, string]>): MockHeader[] {
  const out: MockHeader[] = [];
  for (const [name, value] of headers) out.push({ name, value: isCredentialName(name) ? MASK : value });
  return out;
}

/** The request target with credential-looking query values masked. */
export function maskTarget(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return target;
  const parts = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // An undecodable name is judged as written.
      }
      return isCredentialName(name) ? `${pair.slice(0, eq)}=${encodeURIComponent(MASK)}` : pair;
    });
  return `${target.slice(0, q)}?${parts.join('&')}`;
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
