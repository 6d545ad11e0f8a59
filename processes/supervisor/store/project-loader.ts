/**
 * Loads a whole project folder into the index without starving the event loop (the supervisor
 * keeps answering the UI meanwhile): one API after another, its request files in path order (so
 * which of two files sharing an id loads does not depend on timing), in slices of at most
 * SLICE_MS of work; a file unchanged since the last open comes from the load cache.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from '../../../protocol/model/request.js';
import { API_FILE, APIS_DIR, FOLDER_FILE, MOCKS_DIR, PROJECT_FILE, REQUESTS_DIR, REQUEST_SUFFIX, requestKind } from '../../../protocol/project/layout.js';
import { basename } from 'node:path';
import { parseYamlFile } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { LoadCache, type FileStamp } from './load-cache.js';
import type { ProjectIndex } from './project-index.js';
import { readText, readTextSync, type ApiPlace, type ProjectReader } from './project-reader.js';
import { Slicer } from './slicer.js';

/** What one load shares across its APIs: the slices it yields in, and the load cache when there is one. */
export interface LoadContext {
  slicer: Slicer;
  cache: LoadCache | null;
}

export interface LoadCacheAt {
  file: string;
  version: string;
  now?: () => number;
}

export class ProjectLoader {
  constructor(
    private readonly index: ProjectIndex,
    private readonly reader: ProjectReader,
    private readonly cacheAt: LoadCacheAt | undefined,
  ) {}

  /** Loads the whole folder; returns the load cache to save once the open is answered (none without one). */
  async loadAll(): Promise<LoadCache | null> {
    const root = this.index.root;
    await this.reader.reloadPath(join(root, PROJECT_FILE));
    const apiDirs = await readdir(join(root, APIS_DIR), { withFileTypes: true }).catch(() => []);
    const valueOf = (path: string, text: string) => {
      const parsed = parseYamlFile<Request>(text, this.index.relPath(path), requestKind, checkAll);
      return parsed.ok ? parsed.value : undefined;
    };
    const load: LoadContext = { slicer: new Slicer(), cache: this.cacheAt ? await LoadCache.open(this.cacheAt.file, this.cacheAt.version, valueOf) : null };
    for (const d of apiDirs.filter((e) => e.isDirectory()).sort((a, b) => compareNames(a.name, b.name))) {
      await this.loadApiDir(join(root, APIS_DIR, d.name), undefined, load);
    }
    const mockDirs = await readdir(join(root, MOCKS_DIR), { withFileTypes: true }).catch(() => []);
    for (const d of mockDirs) if (d.isDirectory()) this.index.setMock(`m:${d.name}`, d.name);
    return load.cache;
  }

  /** An API folder: its api.yaml, then its request files (but `skip`, read back by the save that wrote them). */
  async loadApiDir(dir: string, skip?: ReadonlySet<string>, load: LoadContext = { slicer: new Slicer(), cache: null }): Promise<void> {
    const apiId = await this.reader.loadApiFile(join(dir, API_FILE));
    if (!apiId) return;
    const place: ApiPlace = { id: apiId, dir, requestsDir: join(dir, REQUESTS_DIR) };
    const all = await listFiles(place.requestsDir);
    // Folder files first (few, never cached): a folder that holds nothing yet is in the tree too.
    for (const path of all) {
      if (basename(path) !== FOLDER_FILE || skip?.has(path)) continue;
      this.reader.addFolderFile(path, readTextSync(path), place);
      if (load.slicer.due()) await load.slicer.turn();
    }
    const files = all.filter((f) => f.endsWith(REQUEST_SUFFIX) && !skip?.has(f));
    await this.loadRequestFiles(files, place, load);
  }

  /**
   * Reads, parses and adds `files` in order (so which of two files sharing an id is loaded does
   * not depend on which read finished first); after every slice of work the event loop gets a turn.
   * A file unchanged since the last open comes from the load cache instead, in its place in the order.
   */
  private async loadRequestFiles(files: string[], api: ApiPlace, { slicer, cache }: LoadContext): Promise<void> {
    const now = this.cacheAt?.now;
    // Every file is stamped before any is read (a stamp taken after the read could vouch for an
    // older text), in slices too: 1,250 stats at once held the event loop 30-46 ms.
    const stamps: FileStamp[] = [];
    const cached: boolean[] = [];
    if (cache) {
      for (const path of files) {
        const stamp = LoadCache.stamp(path, now?.());
        stamps.push(stamp);
        cached.push(cache.matches(path, stamp));
        if (slicer.due()) await slicer.turn();
      }
    }
    const texts = new TextReader(files.filter((_, i) => !cached[i]));
    for (let i = 0; i < files.length; i++) {
      const path = files[i]!;
      const hit = cached[i] ? cache!.read(path) : undefined;
      let request: Request | null;
      if (hit) {
        request = this.reader.recordParsed(path, this.index.relPath(path), hit.text, { ok: true, value: hit.value as Request });
      } else {
        // A damaged cache entry is read from the file here, outside the read-ahead of the others.
        const read = cached[i] ? readTextSync(path) : texts.read();
        const text = read instanceof Promise ? await read : read;
        request = this.reader.parsedText(path, text, requestKind);
        if (request && cache && typeof text === 'string') cache.remember(path, stamps[i]!, text);
      }
      if (request) this.reader.addRequest(path, request, api);
      if (slicer.due()) await slicer.turn();
    }
  }
}

/** Every file under `dir`, sorted so loading follows one order on every platform. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))
    .sort(compareNames);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Request files being read at once on the thread pool once reads are slow: enough to keep a slow disk busy, few enough that completions arrive a handful at a time. */
const LOAD_READ_AHEAD = 32;
/** A read this long is not from the page cache or a local disk; after SLOW_READS_TO_SWITCH of them the rest are read on the thread pool. */
const SLOW_READ_MS = 10;
const SLOW_READS_TO_SWITCH = 3;

/**
 * The texts of `files` in order (or the error reading each). Read synchronously while reads are
 * quick, as from the page cache or a local disk: there a thread-pool read costs the event loop
 * several times the CPU of a plain read (`fs/promises` all at once: 16x, bench/README.md), and
 * the caller's slices bound how long the loop waits. Once reads turn slow (a network or cold
 * disk), the rest go to the thread pool, LOAD_READ_AHEAD at a time, so they overlap.
 */
export class TextReader {
  private next = 0;
  private slow = 0;
  private readonly reads: Promise<string | NodeJS.ErrnoException>[] = [];

  /** `slowReadMs` is for tests, which make every read count as slow. */
  constructor(
    private readonly files: string[],
    private readonly slowReadMs = SLOW_READ_MS,
  ) {}

  /** The next file's text (or the error reading it): at once while reads are quick, else a promise. */
  read(): string | NodeJS.ErrnoException | Promise<string | NodeJS.ErrnoException> {
    if (this.slow < SLOW_READS_TO_SWITCH) {
      const started = performance.now();
      const text = readTextSync(this.files[this.next++]!);
      if (performance.now() - started > this.slowReadMs) this.slow++;
      return text;
    }
    this.readAhead();
    const text = this.reads.shift()!;
    this.readAhead();
    return text;
  }

  private readAhead(): void {
    while (this.next < this.files.length && this.reads.length < LOAD_READ_AHEAD) this.reads.push(readText(this.files[this.next++]!));
  }
}
