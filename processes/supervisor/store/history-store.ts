/**
 * Send history, one JSON Lines file per project in the workspace folder (history holds
 * responses, so it stays out of the project folder and its git). Entries are already redacted
 * when they arrive here. The newest `limit()` entries per project are kept (Preferences, default
 * DEFAULT_HISTORY_LIMIT): older ones are dropped from the list at once and from the file when
 * it next grows a slack past the limit, so a send never rewrites the file.
 *
 * Lists come from an index built on the first read (each line's summary and byte range), so
 * searching never parses bodies again; `get` reads one line.
 */
import { createHash } from 'node:crypto';
import { appendFile, chmod, mkdir, open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';
import { HistoryEntry, type HistoryQuery, type HistorySummary } from '../../../protocol/model/history.js';
import { DEFAULT_HISTORY_LIMIT } from '../../../protocol/model/workspace.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { commitFiles, recoverCommits } from './atomic.js';
import { matchesQuery, summarize } from './history-query.js';

interface Indexed {
  summary: HistorySummary;
  /** Byte range of the entry's line in the file, newline excluded. */
  offset: number;
  length: number;
}

interface FileIndex {
  items: Indexed[];
  size: number;
}

/** Entries past the limit a file may hold before it is rewritten: a rewrite per batch, not per send. */
const slackFor = (limit: number) => Math.max(20, Math.ceil(limit / 10));

export class HistoryStore {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly indexes = new Map<string, FileIndex>();

  constructor(
    private readonly dir: string,
    private readonly limit: () => number = () => DEFAULT_HISTORY_LIMIT,
  ) {
    // A trim cut short by a crash is finished or undone before the first read.
    this.queue = recoverCommits(join(dir, 'history')).catch(() => {});
  }

  private file(projectRoot: string): string {
    return join(this.dir, 'history', `${createHash('sha256').update(projectRoot).digest('hex').slice(0, 16)}.jsonl`);
  }

  /** Appends entries (oldest first); resolves to how many older entries fell out of the kept newest `limit()`. */
  add(projectRoot: string, ...entries: HistoryEntry[]): Promise<{ dropped: number }> {
    return this.serial(async () => {
      const file = this.file(projectRoot);
      const index = await this.index(file);
      const limit = this.limit();
      const before = index.items.length;
      await mkdir(join(this.dir, 'history'), { recursive: true });
      const lines = entries.map((e) => `${JSON.stringify(e)}\n`);
      await appendFile(file, lines.join(''), { mode: 0o600 });
      entries.forEach((entry, i) => {
        const bytes = Buffer.byteLength(lines[i]!);
        index.items.push({ summary: summarize(entry), offset: index.size, length: bytes - 1 });
        index.size += bytes;
      });
      const dropped = Math.max(0, index.items.length - limit) - Math.max(0, before - limit);
      if (index.items.length > limit + slackFor(limit)) await this.trim(file, index, limit);
      return { dropped };
    });
  }

  /**
   * Recorded exchanges (a HAR import) merged in by their recorded times: History keeps the
   * newest `limit()` of what it had and what came, so an import may push older entries out, or
   * bring exchanges older than everything kept, which then do not fit. Says how many of each.
   */
  addRecorded(projectRoot: string, entries: readonly HistoryEntry[]): Promise<{ dropped: number; notFitted: number }> {
    return this.serial(async () => {
      const file = this.file(projectRoot);
      const index = await this.index(file);
      const limit = this.limit();
      const shown = index.items.slice(Math.max(0, index.items.length - limit));
      type Item = { old: Indexed; entry?: undefined; at: number; order: number } | { old?: undefined; entry: HistoryEntry; at: number; order: number };
      const all: Item[] = [
        ...shown.map((old, order) => ({ old, at: Date.parse(old.summary.at) || 0, order })),
        ...entries.map((entry, i) => ({ entry, at: Date.parse(entry.at) || 0, order: shown.length + i })),
      ];
      all.sort((a, b) => a.at - b.at || a.order - b.order);
      const kept = all.slice(Math.max(0, all.length - limit));
      const dropped = shown.length - kept.filter((k) => k.old).length;
      const notFitted = entries.length - kept.filter((k) => k.entry).length;
      const bytes = await readFile(file).catch(() => Buffer.alloc(0));
      const parts: Buffer[] = [];
      const items: Indexed[] = [];
      let size = 0;
      for (const k of kept) {
        const line = k.old ? bytes.subarray(k.old.offset, k.old.offset + k.old.length) : Buffer.from(JSON.stringify(k.entry));
        parts.push(line, Buffer.from('\n'));
        items.push({ summary: k.old ? k.old.summary : summarize(k.entry!), offset: size, length: line.length });
        size += line.length + 1;
      }
      await mkdir(join(this.dir, 'history'), { recursive: true });
      await commitFiles([{ path: file, content: Buffer.concat(parts) }], { journalDir: join(this.dir, 'history') });
      await chmod(file, 0o600).catch(() => {});
      index.items = items;
      index.size = size;
      return { dropped, notFitted };
    });
  }

  /** Newest first, at most `limit()`, filtered by `query`. */
  list(projectRoot: string, query: HistoryQuery = {}): Promise<HistorySummary[]> {
    return this.serial(async () => {
      const { items } = await this.index(this.file(projectRoot));
      const out: HistorySummary[] = [];
      const oldest = Math.max(0, items.length - this.limit());
      for (let i = items.length - 1; i >= oldest; i--) if (matchesQuery(items[i]!.summary, query)) out.push(items[i]!.summary);
      return out;
    });
  }

  get(projectRoot: string, id: string): Promise<HistoryEntry> {
    return this.serial(async () => {
      const file = this.file(projectRoot);
      const { items } = await this.index(file);
      const found = items.slice(Math.max(0, items.length - this.limit())).find((i) => i.summary.id === id);
      if (!found) throw new ParleyError('not-found', 'That History entry is no longer kept (History keeps the newest entries of each project).');
      const line = await readRange(file, found.offset, found.length);
      const entry = parseLine(line);
      if (!entry) throw new ParleyError('load-failed', 'That History entry could not be read back.');
      return entry;
    });
  }

  /** Forgets every entry of the project, or only those of one request. */
  clear(projectRoot: string, requestId?: string): Promise<void> {
    return this.serial(async () => {
      const file = this.file(projectRoot);
      const index = await this.index(file);
      const kept = requestId === undefined ? [] : index.items.filter((i) => i.summary.requestId !== requestId);
      await this.rewrite(file, index, kept);
    });
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  private async index(file: string): Promise<FileIndex> {
    let index = this.indexes.get(file);
    // Another Parley on the same workspace may have appended: then the byte ranges are read again.
    const size = (await stat(file).catch(() => null))?.size ?? 0;
    if (index && index.size === size) return index;
    const bytes = await readFile(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return Buffer.alloc(0);
      throw new ParleyError('load-failed', `History could not be read (${err.code ?? err.message}).`);
    });
    index = { items: [], size: bytes.length };
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.indexOf(10, start);
      if (end < 0) end = bytes.length;
      // A torn last line from a crash mid-append, or a line that is not an entry: skipped, the rest kept.
      const entry = parseLine(bytes.subarray(start, end));
      if (entry) index.items.push({ summary: summarize(entry), offset: start, length: end - start });
      start = end + 1;
    }
    this.indexes.set(file, index);
    return index;
  }

  private async trim(file: string, index: FileIndex, limit: number): Promise<void> {
    await this.rewrite(file, index, index.items.slice(-limit));
  }

  /** Rewrites the file with only `kept` (in order), atomically, and re-indexes it. */
  private async rewrite(file: string, index: FileIndex, kept: Indexed[]): Promise<void> {
    const all = await readFile(file).catch(() => Buffer.alloc(0));
    const parts: Buffer[] = [];
    const items: Indexed[] = [];
    let size = 0;
    for (const item of kept) {
      parts.push(all.subarray(item.offset, item.offset + item.length), Buffer.from('\n'));
      items.push({ ...item, offset: size });
      size += item.length + 1;
    }
    await mkdir(join(this.dir, 'history'), { recursive: true });
    await commitFiles([{ path: file, content: Buffer.concat(parts) }], { journalDir: join(this.dir, 'history') });
    // History holds responses: readable by the user only, as when it was first appended to.
    await chmod(file, 0o600).catch(() => {});
    index.items = items;
    index.size = size;
  }
}

function parseLine(bytes: Uint8Array): HistoryEntry | null {
  if (bytes.length === 0) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    return checkAll(HistoryEntry, value, 1).length === 0 ? (value as HistoryEntry) : null;
  } catch {
    return null;
  }
}

async function readRange(file: string, offset: number, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
