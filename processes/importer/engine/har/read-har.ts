/**
 * The one streaming HAR reader (the importer and `parley check --har` both read captures with
 * it). A capture is never held whole: a byte scanner follows the JSON structure (strings,
 * nesting, the keys of the two outer objects) to find where each element of `log.entries`
 * starts and ends, and each entry alone goes to `JSON.parse`. Everything outside the entries
 * (version, creator, pages) is kept as a small skeleton, with each entry replaced by `0`, and
 * parsed at the end, so a capture whose JSON is broken anywhere is refused.
 *
 * Why not a streaming JSON parser library: @streamparser/json (which `parley check --har` used)
 * tokenizes every character in JavaScript and took 16.6x a bare `JSON.parse` on a 99 MB
 * capture; here string contents, most of a capture, are skipped with `indexOf` (memchr) and
 * parsed by V8's own parser (bench/README.md, issue 15).
 */
import { ParleyError } from '../../../../protocol/errors.js';

/** An entry nested deeper than this is refused (V8's parser copes; the code walking a value may not). */
export const MAX_HAR_DEPTH = 512;
/** What a capture may hold outside `log.entries` (pages, creator, comments). */
const MAX_SKELETON_BYTES = 16 * 1024 * 1024;

export interface HarLogInfo {
  /** `log.version` as written ('1.2'), when it is a string. */
  version?: string;
  /** `log.creator.name` and `.version`, when given. */
  creator?: string;
}

/** One element of `log.entries`: always a JSON object. */
export interface RawHarEntry {
  index: number;
  value: Record<string, unknown>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface Frame {
  array: boolean;
  /** Objects: the key whose value comes next (only kept at the two outer levels). */
  key: string | null;
  expectKey: boolean;
  /** The key of the parent under which this container sits (outer levels only). */
  under: string | null;
}

/**
 * Splits HAR bytes into entries. Push chunks in order, then call `end()`. Throws ParleyError
 * `import-malformed` naming what is wrong (and where) as soon as it is known.
 */
export class HarSplitter {
  private readonly frames: Frame[] = [];
  /** Nesting below the outer three levels: only counted. */
  private depth = 0;
  private inString = false;
  private escapeNext = false;
  /** A string that is a key of an outer object: its bytes, gathered across chunks. */
  private keyParts: Uint8Array[] | null = null;
  private entryParts: Uint8Array[] | null = null;
  private entryIndex = 0;
  private skeleton = Buffer.allocUnsafe(4096);
  private skeletonBytes = 0;
  private offset = 0;
  /** The first bytes, until it is known whether they are a byte order mark. */
  private head: Uint8Array | null = new Uint8Array(0);
  private sawEntries = false;

  constructor(private readonly name: string) {}

  /** Entries completed by this chunk, in order. */
  push(input: Uint8Array): RawHarEntry[] {
    let chunk = input;
    if (this.head) {
      // A UTF-8 byte order mark is not JSON; some tools write one. Its bytes may come apart.
      chunk = this.head.length === 0 ? chunk : Buffer.concat([this.head, chunk]);
      if (chunk.length < 3 && BOM.subarray(0, chunk.length).every((b, k) => chunk[k] === b)) {
        this.head = Uint8Array.from(chunk);
        return [];
      }
      this.head = null;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    const out: RawHarEntry[] = [];
    const n = chunk.length;
    let i = 0;
    /** Where the part of this chunk that goes to the skeleton (or to the entry) started. */
    let mark = 0;
    while (i < n) {
      if (this.inString) {
        // A byte escaped at the end of the last chunk is skipped here, but stays part of a key.
        const start = this.escapeNext ? i + 1 : i;
        const q = start >= n ? -1 : stringEnd(chunk, start, n);
        this.escapeNext = q === -2;
        if (q < 0) {
          if (this.keyParts) this.keyParts.push(chunk.subarray(i, n));
          i = n;
          break;
        }
        this.inString = false;
        if (this.keyParts) {
          this.keyParts.push(chunk.subarray(i, q));
          this.endKey();
        }
        i = q + 1;
        continue;
      }
      if (this.depth > 0) {
        // Inside an entry (or a value nested below the outer levels): only strings and nesting matter until it closes.
        const stop = this.scanNested(chunk, i, n);
        if (this.depth > MAX_HAR_DEPTH) throw this.malformed(`${this.entryParts ? `log.entries[${this.entryIndex}]` : 'it'} is nested more than ${MAX_HAR_DEPTH} levels deep (at byte ${digits(this.offset + stop)})`);
        if (this.depth === 0 && this.entryParts) {
          out.push(this.finishEntry(chunk, mark, stop));
          mark = stop;
        }
        i = stop;
        continue;
      }
      const c = chunk[i]!;
      switch (c) {
        case 0x20:
        case 0x0a:
        case 0x0d:
        case 0x09:
          break;
        case QUOTE: {
          if (this.atEntry()) throw this.malformed(`log.entries[${this.entryIndex}] is a string, not an object`);
          const top = this.frames[this.frames.length - 1];
          this.inString = true;
          if (top && !top.array && top.expectKey && this.frames.length <= 2) this.keyParts = [];
          else if (top && !top.array && top.expectKey) top.expectKey = false;
          if (this.keyParts) {
            // The key's bytes start after the quote; the skeleton keeps the quote.
            i++;
            continue;
          }
          break;
        }
        case 0x7b:
        case 0x5b: {
          if (this.atEntry()) {
            if (c === 0x5b) throw this.malformed(`log.entries[${this.entryIndex}] is an array, not an object`);
            this.sawEntries = true;
            this.addSkeleton(chunk.subarray(mark, i));
            this.addSkeleton(ZERO);
            mark = i;
            this.entryParts = [];
            this.depth = 1;
            break;
          }
          const top = this.frames[this.frames.length - 1];
          if (this.frames.length >= 3) {
            // Deeper than log.entries' level and not an entry (pages, creator...): only its nesting is followed.
            this.depth = 1;
            break;
          }
          this.frames.push({ array: c === 0x5b, key: null, expectKey: c === 0x7b, under: top && !top.array ? top.key : null });
          break;
        }
        case 0x7d:
        case 0x5d: {
          this.frames.pop();
          break;
        }
        case 0x2c: {
          const top = this.frames[this.frames.length - 1];
          if (top && !top.array) {
            top.expectKey = true;
            top.key = null;
          }
          break;
        }
        case 0x3a:
          break;
        default:
          if (this.atEntry()) throw this.malformed(`log.entries[${this.entryIndex}] is ${scalarKind(c)}, not an object`);
      }
      i++;
    }
    if (this.entryParts) {
      if (mark < n) this.entryParts.push(chunk.subarray(mark, n));
    } else if (mark < n) {
      this.addSkeleton(chunk.subarray(mark, n));
    }
    this.offset += n;
    return out;
  }

  /** Checks that the capture was complete and well formed around its entries; what `log` says of itself. */
  end(): HarLogInfo {
    if (this.head && this.head.length > 0) {
      const head = this.head;
      this.head = null;
      this.push(head);
    }
    if (this.offset === 0 || (this.skeletonBytes > 0 && this.skeleton.toString('utf8', 0, this.skeletonBytes).trim() === '')) throw this.malformed('it is empty');
    if (this.inString || this.depth > 0 || this.frames.length > 0) {
      const where = this.entryParts ? ` inside log.entries[${this.entryIndex}]` : '';
      throw this.malformed(`it ends before its JSON is complete (cut short after ${digits(this.offset)} bytes${where})`);
    }
    let root: unknown;
    try {
      root = JSON.parse(this.skeleton.toString('utf8', 0, this.skeletonBytes));
    } catch (err) {
      throw this.malformed(`its JSON is broken outside log.entries (${(err as Error).message.replace(/ (in JSON )?at position \d+.*$/, '')})`);
    }
    if (!isObj(root) || !isObj(root.log)) throw this.malformed('it has no log object');
    const { log } = root;
    if (!Object.hasOwn(log, 'entries')) throw this.malformed('it has no log.entries');
    if (!Array.isArray(log.entries)) throw this.malformed(`log.entries is ${kindOf(log.entries)}, not an array`);
    const info: HarLogInfo = {};
    if (typeof log.version === 'string') info.version = log.version;
    if (isObj(log.creator) && typeof log.creator.name === 'string') info.creator = [log.creator.name, typeof log.creator.version === 'string' ? log.creator.version : ''].join(' ').trim();
    return info;
  }

  /** How many entries have been read. */
  get count(): number {
    return this.entryIndex;
  }

  /** The next value starts an element of `log.entries`. */
  private atEntry(): boolean {
    if (this.frames.length !== 3) return false;
    const [root, log, entries] = this.frames as [Frame, Frame, Frame];
    return !root.array && !log.array && entries.array && log.under === 'log' && entries.under === 'entries';
  }

  private endKey(): void {
    const parts = this.keyParts!;
    this.keyParts = null;
    const top = this.frames[this.frames.length - 1]!;
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    let key: string;
    try {
      key = JSON.parse(`"${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')}"`) as string;
    } catch {
      throw this.malformed(`a key near byte ${this.offset} is not a valid JSON string`);
    }
    top.key = key;
    top.expectKey = false;
  }

  /**
   * Follows a nested value from `chunk[i]` (outside its strings) until it closes, its nesting
   * goes over the limit (there) or the chunk ends; says where it stopped. Where a capture's
   * bytes go: kept apart from `push` so that it is small, and compiled early and once.
   */
  private scanNested(chunk: Uint8Array, i: number, n: number): number {
    let depth = this.depth;
    for (; i < n; i++) {
      const c = chunk[i]!;
      if (c === QUOTE) {
        const q = stringEnd(chunk, i + 1, n);
        if (q < 0) {
          this.inString = true;
          this.escapeNext = q === -2;
          i = n;
          break;
        }
        i = q;
      } else if (c === 0x7b || c === 0x5b) {
        if (++depth > MAX_HAR_DEPTH) break;
      } else if ((c === 0x7d || c === 0x5d) && --depth === 0) {
        i++;
        break;
      }
    }
    this.depth = depth;
    return i;
  }

  /** The entry whose last bytes are `chunk[from, to)`, parsed: decoded once, from the chunk itself when it lies in one. */
  private finishEntry(chunk: Uint8Array, from: number, to: number): RawHarEntry {
    const parts = this.entryParts!;
    this.entryParts = null;
    const index = this.entryIndex++;
    let bytes: Uint8Array;
    if (parts.length === 0) bytes = chunk.subarray(from, to);
    else {
      parts.push(chunk.subarray(from, to));
      bytes = Buffer.concat(parts);
    }
    let value: unknown;
    try {
      value = JSON.parse(utf8(bytes));
    } catch (err) {
      throw this.malformed(`log.entries[${index}] is not valid JSON (${(err as Error).message})`);
    }
    return { index, value: value as Record<string, unknown> };
  }

  private addSkeleton(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const size = this.skeletonBytes + bytes.length;
    if (size > MAX_SKELETON_BYTES) {
      throw this.malformed(this.sawEntries ? `it holds over ${MAX_SKELETON_BYTES / 1024 / 1024} MB outside log.entries` : `no log.entries array was found in its first ${MAX_SKELETON_BYTES / 1024 / 1024} MB`);
    }
    // One growing copy (chunks are reused by some streams), not a piece per entry's separator.
    if (size > this.skeleton.length) {
      const grown = Buffer.allocUnsafe(Math.min(MAX_SKELETON_BYTES, Math.max(size, 2 * this.skeleton.length)));
      grown.set(this.skeleton.subarray(0, this.skeletonBytes));
      this.skeleton = grown;
    }
    this.skeleton.set(bytes, this.skeletonBytes);
    this.skeletonBytes = size;
  }

  private malformed(why: string): ParleyError {
    return new ParleyError('import-malformed', `${this.name} is not a readable HAR capture: ${why}.`);
  }
}

const ZERO = new TextEncoder().encode('0');
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a JSON value is, in words: 'a string', 'an array', 'null'. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}

/**
 * Where the string whose contents start at `from` ends: the index of its closing quote, or -1
 * when it goes on past `n` (-2 when the byte after `n` is escaped). Short strings (keys, most
 * values) are walked here; a long one jumps from quote to quote with indexOf (memchr).
 */
function stringEnd(chunk: Uint8Array, from: number, n: number): number {
  const walk = Math.min(n, from + 24);
  let j = from;
  for (; j < walk; j++) {
    const b = chunk[j]!;
    if (b === QUOTE) return j;
    if (b === BACKSLASH && ++j >= n) return -2;
  }
  // j is not inside an escape: a quote after it is escaped only by an odd run of backslashes before it.
  let q = j >= n ? -1 : chunk.indexOf(QUOTE, j);
  while (q >= 0) {
    let run = 0;
    for (let b = q - 1; b >= j && chunk[b] === BACKSLASH; b--) run++;
    if ((run & 1) === 0) return q;
    q = chunk.indexOf(QUOTE, q + 1);
  }
  let run = 0;
  for (let b = n - 1; b >= j && chunk[b] === BACKSLASH; b--) run++;
  return (run & 1) === 1 ? -2 : -1;
}

/** Bytes as UTF-8 text, as Buffer#toString reads them (a stream's chunks are Buffers; a test's may not be). */
function utf8(bytes: Uint8Array): string {
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('utf8');
}

/** A count as en-US writes it (1,234), without Intl: its first use costs tens of ms. */
export function digits(n: number): string {
  return Number.isSafeInteger(n) && n >= 0 ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : n.toLocaleString('en-US');
}

function scalarKind(c: number): string {
  if (c === 0x74) return 'true';
  if (c === 0x66) return 'false';
  if (c === 0x6e) return 'null';
  if (c === QUOTE) return 'a string';
  return 'a number';
}

/**
 * The entries of a capture read from `chunks`, one at a time as the consumer asks; `onLog`
 * hears what the capture says of itself once the whole of it was read and found well formed.
 */
export async function* readHarEntries(chunks: AsyncIterable<Uint8Array>, name: string, onLog?: (info: HarLogInfo, count: number) => void): AsyncGenerator<RawHarEntry> {
  for await (const batch of readHarBatches(chunks, name, onLog)) yield* batch;
}

/**
 * The same entries, in the batches each chunk completes (never empty): a consumer that takes
 * thousands of entries pays the async generator's round trip per chunk, not per entry.
 */
export async function* readHarBatches(chunks: AsyncIterable<Uint8Array>, name: string, onLog?: (info: HarLogInfo, count: number) => void): AsyncGenerator<RawHarEntry[]> {
  const splitter = new HarSplitter(name);
  for await (const chunk of chunks) {
    const batch = splitter.push(chunk);
    if (batch.length > 0) yield batch;
  }
  const info = splitter.end();
  onLog?.(info, splitter.count);
}
