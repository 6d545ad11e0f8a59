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
  private readonly skeleton: Uint8Array[] = [];
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
        if (this.escapeNext) {
          this.escapeNext = false;
          i++;
          continue;
        }
        const start = i;
        let q = chunk.indexOf(QUOTE, i);
        while (q >= 0) {
          let run = 0;
          for (let b = q - 1; b >= start && chunk[b] === BACKSLASH; b--) run++;
          if ((run & 1) === 0) break;
          q = chunk.indexOf(QUOTE, q + 1);
        }
        if (q < 0) {
          let run = 0;
          for (let b = n - 1; b >= start && chunk[b] === BACKSLASH; b--) run++;
          this.escapeNext = (run & 1) === 1;
          if (this.keyParts) this.keyParts.push(chunk.subarray(start, n));
          i = n;
          break;
        }
        this.inString = false;
        if (this.keyParts) {
          this.keyParts.push(chunk.subarray(start, q));
          this.endKey();
        }
        i = q + 1;
        continue;
      }
      const c = chunk[i]!;
      if (this.depth > 0) {
        // Inside an entry (or a value nested below the outer levels): only strings and nesting matter until it closes.
        if (c === QUOTE) this.inString = true;
        else if (c === 0x7b || c === 0x5b) {
          if (++this.depth > MAX_HAR_DEPTH) throw this.malformed(`${this.entryParts ? `log.entries[${this.entryIndex}]` : 'it'} is nested more than ${MAX_HAR_DEPTH} levels deep (at byte ${(this.offset + i).toLocaleString('en-US')})`);
        } else if (c === 0x7d || c === 0x5d) {
          if (--this.depth === 0 && this.entryParts) {
            this.entryParts.push(chunk.subarray(mark, i + 1));
            out.push(this.finishEntry());
            mark = i + 1;
          }
        }
        i++;
        continue;
      }
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
    if (this.offset === 0 || (this.skeletonBytes > 0 && Buffer.concat(this.skeleton).toString('utf8').trim() === '')) throw this.malformed('it is empty');
    if (this.inString || this.depth > 0 || this.frames.length > 0) {
      const where = this.entryParts ? ` inside log.entries[${this.entryIndex}]` : '';
      throw this.malformed(`it ends before its JSON is complete (cut short after ${this.offset.toLocaleString('en-US')} bytes${where})`);
    }
    let root: unknown;
    try {
      root = JSON.parse(Buffer.concat(this.skeleton).toString('utf8'));
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

  private finishEntry(): RawHarEntry {
    const parts = this.entryParts!;
    this.entryParts = null;
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const index = this.entryIndex++;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    } catch (err) {
      throw this.malformed(`log.entries[${index}] is not valid JSON (${(err as Error).message})`);
    }
    return { index, value: value as Record<string, unknown> };
  }

  private addSkeleton(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.skeletonBytes += bytes.length;
    if (this.skeletonBytes > MAX_SKELETON_BYTES) {
      throw this.malformed(this.sawEntries ? `it holds over ${MAX_SKELETON_BYTES / 1024 / 1024} MB outside log.entries` : `no log.entries array was found in its first ${MAX_SKELETON_BYTES / 1024 / 1024} MB`);
    }
    // Chunks are reused by some streams: the skeleton keeps its own copy.
    this.skeleton.push(Uint8Array.from(bytes));
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
  const splitter = new HarSplitter(name);
  for await (const chunk of chunks) yield* splitter.push(chunk);
  const info = splitter.end();
  onLog?.(info, splitter.count);
}
