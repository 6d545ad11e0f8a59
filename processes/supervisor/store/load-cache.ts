/**
 * What the last open of a project read, so the next open skips reading and parsing the request
 * files that have not changed since: reading and parsing is most of opening a big project (5,000
 * requests: about 0.5 s of 0.6 s, bench/README.md), and most opens are of a project opened before.
 *
 * It lives in the workspace (never in the project folder) and is only ever a hint. An entry is
 * used only when the file's size, inode, mtime and ctime (in nanoseconds) are all what they were
 * when it was read; ctime changes with every write and cannot be set back, so an edited file is
 * always read again. A file whose ctime was under RACY_NS old when it was read is not kept: on a
 * file system with coarse timestamps a second write within the same tick would otherwise go
 * unseen (git's "racy" rule). Files with problems are not kept, so their problems are found
 * again. A cache that is missing, unreadable, of another format or of another Parley version is
 * ignored, and the load reads every file as before.
 */
import { statSync, type BigIntStats } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Packr } from 'msgpackr';
import { Slicer } from './slicer.js';

const FORMAT = 2;
const RACY_NS = 2_000_000_000n;
/** Files per part of the index: each part is decoded in its own slice (the index of 5,000 files in one piece held the event loop 40-60 ms). */
const INDEX_PART_FILES = 500;

/**
 * One file: its stamp, and its text and value packed on their own, so that opening the cache
 * decodes only the stamps and each file's data is decoded when the load reaches it (decoding the
 * whole cache of 5,000 requests at once held the event loop about 50 ms).
 */
export interface Entry {
  /** size, inode, mtime ns, ctime ns, joined: compared as one string. */
  stamp: string;
  data: Uint8Array;
}

const packr = new Packr({ useRecords: true, mapsAsObjects: true, moreTypes: false });
/** For one file's data: records would define their structures again in every small entry. */
const entryPackr = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false });

/** How a file was when it was about to be read: what an entry must match to be used. */
export type FileStamp = { stamp: string; racy: boolean } | null;

/** The value the load makes of a file's text (parsed, checked, migrated); undefined when it has problems. */
export type ValueOf = (path: string, text: string) => unknown;

export class LoadCache {
  private readonly kept = new Map<string, Entry>();
  /** Read by this load, waiting to be packed at save. */
  private readonly pending = new Map<string, { stamp: string; text: string }>();
  /** Whether the next write would differ from what is on disk. */
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly version: string,
    private readonly previous: Map<string, Entry>,
    private readonly valueOf: ValueOf,
  ) {}

  /** The cache at `file` for this Parley `version`; empty when there is none usable. */
  static async open(file: string, version: string, valueOf: ValueOf): Promise<LoadCache> {
    const bytes = await readFile(file).catch(() => null);
    const previous = (bytes && (await unpackCache(bytes, version))) || new Map<string, Entry>();
    const cache = new LoadCache(file, version, previous, valueOf);
    cache.changed = previous.size === 0;
    return cache;
  }

  /** The file's stamp now, before it is read (null when it cannot be stat'ed). `nowMs`: tests. */
  static stamp(path: string, nowMs = Date.now()): FileStamp {
    let stats: BigIntStats | undefined;
    try {
      stats = statSync(path, { bigint: true });
    } catch {
      return null;
    }
    const now = BigInt(Math.round(nowMs)) * 1_000_000n;
    return { stamp: `${stats.size}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`, racy: now - stats.ctimeNs < RACY_NS };
  }

  /** Whether the file is exactly as it was when it was cached (it is then kept for the next save). */
  matches(path: string, stamp: FileStamp): boolean {
    const entry = stamp && this.previous.get(path);
    if (!entry || entry.stamp !== stamp.stamp) return false;
    this.kept.set(path, entry);
    return true;
  }

  /** The text and value cached for a file that `matches`; undefined when its data does not decode. */
  read(path: string): { text: string; value: unknown } | undefined {
    const entry = this.kept.get(path);
    if (!entry) return undefined;
    try {
      const data = entryPackr.unpack(entry.data) as { text?: unknown; value?: unknown };
      if (typeof data.text === 'string' && data.value !== undefined) return { text: data.text, value: data.value };
    } catch {
      // Damaged: read the file instead, and forget the entry.
    }
    this.kept.delete(path);
    this.changed = true;
    return undefined;
  }

  /**
   * Keeps what was read from `path`, when it was stamped before the read and not racy. Only the
   * text is kept now; its value is made again from it at save, off the open's path (packing the
   * store's values during a first open of 5,000 requests cost it 100-160 ms of code not yet
   * optimised), and so that a later change to the store's own object never reaches the cache
   * under this file's stamp.
   */
  remember(path: string, stamp: FileStamp, text: string): void {
    if (!stamp || stamp.racy) return;
    this.pending.set(path, { stamp: stamp.stamp, text });
    this.changed = true;
  }

  /** Saves what this load kept (entries of files that are gone are dropped), when anything changed. */
  async save(): Promise<void> {
    await this.packPending();
    if (!this.changed && this.kept.size === this.previous.size) return;
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      await mkdir(dirname(this.file), { recursive: true });
      await writeFile(temp, packCache(this.version, this.kept));
      await rename(temp, this.file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  /** Makes and packs the values of the files remembered, in slices between which the event loop runs. */
  private async packPending(): Promise<void> {
    const slicer = new Slicer();
    for (const [path, { stamp, text }] of this.pending) {
      this.pending.delete(path);
      const value = this.valueOf(path, text);
      if (value !== undefined) this.kept.set(path, { stamp, data: entryPackr.pack({ text, value }) });
      if (slicer.due()) await slicer.turn();
    }
  }
}

/**
 * The file: a 4-byte big-endian length, a head of that length (format, version, and the byte
 * length of each part of the index), the parts (per file its path, stamp and data length, up to
 * INDEX_PART_FILES files a part), then every file's data one after the other. Opening decodes the
 * index only, a part per slice; each file's data stays a view into the bytes read until the load
 * needs it.
 */
export function packCache(version: string, entries: Map<string, Entry>): Buffer {
  const index = [...entries].map(([path, e]) => [path, e.stamp, e.data.byteLength]);
  const parts: Buffer[] = [];
  for (let start = 0; start < index.length; start += INDEX_PART_FILES) parts.push(packr.pack(index.slice(start, start + INDEX_PART_FILES)));
  const head = packr.pack({ format: FORMAT, version, parts: parts.map((part) => part.byteLength) });
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.byteLength);
  return Buffer.concat([length, head, ...parts, ...[...entries.values()].map((e) => e.data)]);
}

/** The entries of a cache file written for `version`; null when it is of another format or version, or damaged. */
export async function unpackCache(bytes: Buffer, version: string): Promise<Map<string, Entry> | null> {
  const slicer = new Slicer();
  try {
    const length = bytes.readUInt32BE(0);
    const head = packr.unpack(bytes.subarray(4, 4 + length)) as { format?: unknown; version?: unknown; parts?: unknown };
    if (head.format !== FORMAT || head.version !== version || !Array.isArray(head.parts)) return null;
    const parts: unknown[] = head.parts;
    if (!parts.every((size): size is number => typeof size === 'number' && Number.isInteger(size) && size >= 0)) return null;
    let partAt = 4 + length;
    let dataAt = partAt + parts.reduce((sum, size) => sum + size, 0);
    if (dataAt > bytes.byteLength) return null;
    const entries = new Map<string, Entry>();
    for (const size of parts) {
      const part = packr.unpack(bytes.subarray(partAt, partAt + size)) as unknown;
      partAt += size;
      if (!Array.isArray(part)) return null;
      for (const item of part as unknown[]) {
        if (!Array.isArray(item)) return null;
        const [path, stamp, dataSize] = item as [unknown, unknown, unknown];
        if (typeof path !== 'string' || typeof stamp !== 'string' || typeof dataSize !== 'number' || dataAt + dataSize > bytes.byteLength) return null;
        entries.set(path, { stamp, data: bytes.subarray(dataAt, dataAt + dataSize) });
        dataAt += dataSize;
      }
      if (slicer.due()) await slicer.turn();
    }
    return entries;
  } catch {
    return null;
  }
}
