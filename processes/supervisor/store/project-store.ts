/**
 * One open project folder, held in memory and kept in step with the disk. The supervisor is
 * its only writer: every save goes through `commit`, one at a time, atomically. Edits made
 * outside Parley are picked up by the watcher and re-validated.
 */
import { readFile as readFileCallback, readFileSync } from 'node:fs';
import { readFile, readdir, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { Problem, Row } from '../../../protocol/model/common.js';
import type { Api } from '../../../protocol/model/api.js';
import type { ProjectFile, ProjectTree, TreeItem } from '../../../protocol/model/project.js';
import { blankRequest, requestForFile, type Request } from '../../../protocol/model/request.js';
import {
  API_FILE,
  APIS_DIR,
  DEFINITION_DIR,
  MOCKS_DIR,
  PROJECT_FILE,
  REQUESTS_DIR,
  REQUEST_SUFFIX,
  apiKind,
  projectKind,
  requestKind,
} from '../../../protocol/project/layout.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { parseYamlFile, writeYaml, type FileKind } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { commitFiles, nodeFs, recoverCommits, type FileChange, type FsOps } from './atomic.js';
import { FolderWatcher } from './folder-watcher.js';
import { newId } from '../../../protocol/ids.js';
import { LoadCache, type FileStamp } from './load-cache.js';
import { NameClaims } from './name-claims.js';
import { Slicer } from './slicer.js';
import { exampleFilePaths } from './example-store.js';
import { examplesDirOf } from '../../../protocol/project/examples.js';

interface LoadedApi {
  api: Api;
  dir: string;
}

/** A loaded API's id and folders, worked out once for all its request files. */
interface ApiPlace {
  id: string;
  dir: string;
  requestsDir: string;
}

interface LoadedRequest {
  request: Request;
  file: string;
  apiId: string;
  /** Folder path inside the API's requests/ folder, '' at its root, '/'-separated. */
  folder: string;
}

export interface ProjectStoreOptions {
  fs?: FsOps;
  log?: (line: string) => void;
  /** Where this project's load cache lives (load-cache.ts), in the workspace; none: every file is read on open. */
  loadCache?: { file: string; version: string; now?: () => number };
}

/** How long after a load its cache is saved: not in the turns that answer the open. */
const CACHE_SAVE_DELAY_MS = 1000;

const check = (schema: Parameters<typeof checkAll>[0], value: unknown) => checkAll(schema, value);

/** What an import hands the store for a new API. */
export interface NewApi {
  api: Api;
  requests: { folder: string; request: Request }[];
  documents: { path: string; bytes: Uint8Array }[];
}

export class ProjectStore {
  readonly root: string;
  private project: ProjectFile = { version: 1, name: 'Project', properties: [] };
  private apis = new Map<string, LoadedApi>();
  private requests = new Map<string, LoadedRequest>();
  /** API id -> set of folder paths (every ancestor included). */
  private folders = new Map<string, Set<string>>();
  private mocks = new Map<string, string>();
  /** Problems by file (relative path), so a fixed file clears its own. */
  private problems = new Map<string, Problem[]>();
  /** What we last read or wrote at each path: the base for comment-keeping rewrites and for telling our own writes from external edits. */
  private texts = new Map<string, string>();
  /** Files that queued saves will write, with how many saves will: their names are taken. */
  private readonly inFlight = new Map<string, number>();
  private readonly fs: FsOps;
  private readonly log: (line: string) => void;
  private queue: Promise<unknown> = Promise.resolve();
  private watcher: FolderWatcher | null = null;
  /** `watch`'s listener, also told of an outside edit that a save's own read-back took in. */
  private externalChange: ((changed: string[]) => void) | null = null;
  private closed = false;

  private readonly loadCacheAt: ProjectStoreOptions['loadCache'];
  private cacheSave: { timer: NodeJS.Timeout; cache: LoadCache } | null = null;
  /** The save under way (it packs in slices), which close waits for. */
  private cacheSaving: Promise<void> = Promise.resolve();

  private constructor(root: string, options: ProjectStoreOptions) {
    this.root = root;
    this.fs = options.fs ?? nodeFs;
    this.log = options.log ?? (() => {});
    this.loadCacheAt = options.loadCache;
  }

  /** Opens a project folder; a folder without parley.yaml becomes a new project when `create` is set. */
  static async open(root: string, options: ProjectStoreOptions & { create?: boolean; name?: string } = {}): Promise<ProjectStore> {
    const store = new ProjectStore(root, options);
    // A save cut short by a crash is finished or undone before anything is read.
    await recoverCommits(root, { fs: store.fs, log: store.log });
    const file = join(root, PROJECT_FILE);
    const exists = await (options.fs ?? nodeFs).exists(file);
    if (!exists) {
      if (!options.create) throw new ParleyError('not-found', `${root} is not a Parley project (no ${PROJECT_FILE}).`);
      const stats = await stat(root).catch(() => null);
      if (stats && !stats.isDirectory()) throw new ParleyError('bad-input', `${root} is a file, not a folder: a project is a folder.`);
      const project: ProjectFile = { version: 1, name: options.name ?? basename(root), properties: [] };
      await store.commit([{ path: file, content: writeYaml(project) }]);
    }
    await store.loadAll();
    return store;
  }

  get name(): string {
    return this.project.name;
  }

  get properties(): Row[] {
    return this.project.properties;
  }

  tree(): ProjectTree {
    const items: TreeItem[] = [];
    const apis = [...this.apis.values()].sort((a, b) => a.api.name.localeCompare(b.api.name));
    for (const { api } of apis) {
      items.push({ kind: 'api', id: api.id, name: api.name, baseUrl: api.baseUrl, hasDefinition: api.definition !== undefined });
      for (const folder of [...(this.folders.get(api.id) ?? [])].sort()) {
        const slash = folder.lastIndexOf('/');
        items.push({
          kind: 'folder',
          id: folderId(api.id, folder),
          parent: slash < 0 ? api.id : folderId(api.id, folder.slice(0, slash)),
          name: folder.slice(slash + 1),
        });
      }
    }
    const requests = [...this.requests.values()].sort((a, b) => a.request.name.localeCompare(b.request.name));
    for (const { request, apiId, folder } of requests) {
      items.push({
        kind: 'request',
        id: request.id,
        parent: folder ? folderId(apiId, folder) : apiId,
        name: request.name,
        method: request.method,
        orphaned: request.orphaned === true,
      });
    }
    for (const [id, name] of [...this.mocks].sort((a, b) => a[1].localeCompare(b[1]))) items.push({ kind: 'mock', id, name });
    return { root: this.root, name: this.project.name, items, properties: this.project.properties, problems: [...this.problems.values()].flat() };
  }

  getApi(id: string): Api {
    const loaded = this.apis.get(id);
    if (!loaded) throw new ParleyError('not-found', `No API with id ${id} in ${this.project.name}.`);
    return loaded.api;
  }

  apiDir(id: string): string {
    const loaded = this.apis.get(id);
    if (!loaded) throw new ParleyError('not-found', `No API with id ${id} in ${this.project.name}.`);
    return loaded.dir;
  }

  listApis(): Api[] {
    return [...this.apis.values()].map((a) => a.api);
  }

  getRequest(id: string): Request {
    return this.loadedRequest(id).request;
  }

  /** The API a request belongs to. */
  apiOf(requestId: string): Api {
    return this.getApi(this.loadedRequest(requestId).apiId);
  }

  requestsOf(apiId: string): Request[] {
    return [...this.requests.values()].filter((r) => r.apiId === apiId).map((r) => r.request);
  }

  async setProperties(properties: Row[]): Promise<void> {
    await this.commit([this.propertiesChange(properties)]);
  }

  /** A change that rewrites parley.yaml with these properties; for batch writers (importers). */
  propertiesChange(properties: Row[]): FileChange {
    return this.yamlChange(join(this.root, PROJECT_FILE), { ...this.project, properties });
  }

  async createApi(input: { name: string; baseUrl: string; api?: Partial<Api> }): Promise<Api> {
    const api: Api = { version: 1, id: newId('a'), name: input.name, baseUrl: input.baseUrl, auth: { type: 'none' }, ...input.api };
    const apisDir = join(this.root, APIS_DIR);
    const dir = join(apisDir, this.nameClaims().claim(apisDir, input.name, '', 'api'));
    await this.commit([this.yamlChange(join(dir, API_FILE), api)]);
    return api;
  }

  async saveApi(api: Api): Promise<Api> {
    const loaded = this.apis.get(api.id);
    if (!loaded) throw new ParleyError('not-found', `No API with id ${api.id} in ${this.project.name}.`);
    this.refuseIfBroken(join(loaded.dir, API_FILE));
    await this.commit([this.yamlChange(join(loaded.dir, API_FILE), api)]);
    return this.getApi(api.id);
  }

  /** `parent` is an API id or a folder id from the tree. */
  async createRequest(input: { parent: string; name: string; method: string; url: string }): Promise<Request> {
    return this.addNewRequest(input.parent, blankRequest({ id: newId('r'), name: input.name, method: input.method, url: input.url }));
  }

  /** Writes a request made elsewhere (an import) as a new file under `parent` (an API or folder id). */
  async addNewRequest(parent: string, request: Request): Promise<Request> {
    const { apiId, folder } = this.parseParent(parent);
    await this.commit([this.newRequestChange(apiId, folder, request)]);
    return this.getRequest(request.id);
  }

  /**
   * Names for the new files of one batch: portable, and clashing with nothing on disk, in saves
   * still queued or elsewhere in the batch (name-claims.ts). Pass one to every `new...Change` of a batch.
   */
  nameClaims(): NameClaims {
    return new NameClaims((dir) => this.inFlightNames(dir));
  }

  /** A change that writes `request` as a new file in `folder` of `apiId`; for batch writers (importers). */
  newRequestChange(apiId: string, folder: string, request: Request, claims: NameClaims = this.nameClaims()): FileChange {
    const requestsDir = join(this.apiDir(apiId), REQUESTS_DIR);
    const dir = claims.folder(requestsDir, folder);
    const name = claims.claim(dir, request.name, REQUEST_SUFFIX, 'request');
    return this.yamlChange(join(dir, name + REQUEST_SUFFIX), requestForFile(request));
  }

  async saveRequest(request: Request): Promise<Request> {
    const loaded = this.loadedRequest(request.id);
    this.refuseIfBroken(loaded.file);
    await this.commit([this.yamlChange(loaded.file, requestForFile(request))]);
    return this.getRequest(request.id);
  }

  /**
   * The files of a new API made by an import: api.yaml, its cached definition documents and
   * every request in its folder, in a folder of its own. One batch, for one atomic commit.
   */
  newApiChanges(input: NewApi, claims: NameClaims = this.nameClaims()): FileChange[] {
    return [...this.newApiChangeSteps(input, claims)];
  }

  /**
   * The same changes one at a time (api.yaml, documents, then each request's file in the order
   * of `input.requests`), so a writer of thousands can give the event loop turns between them.
   */
  *newApiChangeSteps(input: NewApi, claims: NameClaims = this.nameClaims()): Generator<FileChange> {
    const apisDir = join(this.root, APIS_DIR);
    const dir = join(apisDir, claims.claim(apisDir, input.api.name, '', 'api'));
    yield this.yamlChange(join(dir, API_FILE), input.api);
    for (const doc of input.documents) yield { path: resolveInside(join(dir, DEFINITION_DIR), doc.path, 'cached definition document'), content: doc.bytes };
    const requestsDir = join(dir, REQUESTS_DIR);
    for (const { folder, request } of input.requests) {
      const folderDir = claims.folder(requestsDir, folder);
      const name = claims.claim(folderDir, request.name, REQUEST_SUFFIX, 'request');
      yield this.yamlChange(join(folderDir, name + REQUEST_SUFFIX), requestForFile(request));
    }
  }

  /** A change that rewrites an existing request's file; for batch writers (definition update). */
  requestChange(request: Request): FileChange {
    return this.yamlChange(this.loadedRequest(request.id).file, requestForFile(request));
  }

  apiChange(api: Api): FileChange {
    return this.yamlChange(join(this.apiDir(api.id), API_FILE), api);
  }

  /** Deletes the request's file, and its recorded examples with it. */
  async deleteRequest(id: string): Promise<void> {
    const loaded = this.loadedRequest(id);
    const examples = await exampleFilePaths(loaded.file);
    await this.commit([this.deleteRequestChange(id), ...examples.map((path) => ({ path, content: null }))]);
    if (examples.length > 0) await rmdir(examplesDirOf(loaded.file)).catch(() => {});
  }

  /** A change that deletes a request's file; for batch writers. */
  deleteRequestChange(id: string): FileChange {
    return { path: this.loadedRequest(id).file, content: null };
  }

  /** The file a request is kept in (its examples sit beside it). */
  requestFile(id: string): string {
    return this.loadedRequest(id).file;
  }

  /**
   * The single write path: saves are queued one at a time, written atomically, then the
   * touched files are re-read so memory matches the disk exactly.
   */
  commit(changes: FileChange[]): Promise<void> {
    const run = async () => {
      // Never write through a link out of the project (a cloned `files -> ~/.config`).
      for (const dir of new Set(changes.map((c) => dirname(c.path)))) resolveInside(this.root, relative(this.root, dir), 'folder of a save');
      await commitFiles(changes, { journalDir: this.root, fs: this.fs });
      for (const change of changes) {
        if (typeof change.content === 'string') this.texts.set(change.path, change.content);
        else this.texts.delete(change.path);
      }
      const editedMeanwhile: string[] = [];
      for (const change of changes) {
        const ids = await this.reloadPath(change.path);
        // Edited outside between our write and this read: the read made that text "ours", so the watcher will not report it.
        if (typeof change.content !== 'object' && change.content !== this.texts.get(change.path)) editedMeanwhile.push(...ids);
      }
      if (editedMeanwhile.length > 0) this.externalChange?.(editedMeanwhile);
    };
    // Until it is on disk, a queued save's new files still take their names (nameClaims).
    const writes = changes.filter((c) => c.content !== null).map((c) => c.path);
    for (const path of writes) this.inFlight.set(path, (this.inFlight.get(path) ?? 0) + 1);
    const next = this.queue.then(run, run).finally(() => {
      for (const path of writes) {
        const left = this.inFlight.get(path)! - 1;
        if (left > 0) this.inFlight.set(path, left);
        else this.inFlight.delete(path);
      }
    });
    this.queue = next.catch(() => {});
    return next;
  }

  /** The names in `dir` of files (and the folders on their way) that queued saves will write. */
  private inFlightNames(dir: string): string[] {
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    const names: string[] = [];
    for (const path of this.inFlight.keys()) if (path.startsWith(prefix)) names.push(path.slice(prefix.length).split(sep)[0]!);
    return names;
  }

  /**
   * Starts picking up edits made outside Parley; `onChange` gets the ids whose files changed.
   * Resolves once edits are being watched.
   */
  async watch(onChange: (changed: string[]) => void): Promise<void> {
    // A closed store never watches again: a late start would keep the process alive.
    if (this.watcher || this.closed) return;
    this.externalChange = onChange;
    const flush = async (paths: string[]) => {
      const changed: string[] = [];
      for (const path of paths) {
        const text = await readFile(path, 'utf8').catch(() => null);
        if (text !== null && text === this.texts.get(path)) continue; // our own write
        if (text === null && !this.texts.has(path) && !this.isKnownPath(path)) continue;
        changed.push(...(await this.reloadPath(path)));
      }
      if (changed.length > 0) onChange(changed);
    };
    this.watcher = new FolderWatcher(this.root, {
      accept: (path) => /\.ya?ml$/.test(path),
      // In the write queue, so a reload never interleaves with a save and close() waits for it.
      onChange: (paths) => {
        this.queue = this.queue.then(() => flush(paths)).catch((err: Error) => this.log(`reloading edited files: ${err.message}`));
      },
      log: (line) => this.log(line),
    });
    await this.watcher.ready();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.cacheSave) {
      clearTimeout(this.cacheSave.timer);
      this.cacheSaving = this.saveLoadCache(this.cacheSave.cache);
      this.cacheSave = null;
    }
    await this.cacheSaving;
    await this.queue;
    await this.watcher?.close();
    this.watcher = null;
  }

  // --- loading ---------------------------------------------------------------------------

  /**
   * Loads the whole folder without starving the event loop (the supervisor keeps answering the
   * UI meanwhile): one API after another, its request files in path order (see `readTexts` for
   * how they are read), in slices of at most SLICE_MS of work between which the loop runs.
   */
  private async loadAll(): Promise<void> {
    await this.reloadPath(join(this.root, PROJECT_FILE));
    const apiDirs = await readdir(join(this.root, APIS_DIR), { withFileTypes: true }).catch(() => []);
    const valueOf = (path: string, text: string) => {
      const parsed = parseYamlFile<Request>(text, this.relPath(path), requestKind, check);
      return parsed.ok ? parsed.value : undefined;
    };
    const load: LoadContext = { slicer: new Slicer(), cache: this.loadCacheAt ? await LoadCache.open(this.loadCacheAt.file, this.loadCacheAt.version, valueOf) : null };
    for (const d of apiDirs.filter((e) => e.isDirectory()).sort((a, b) => compareNames(a.name, b.name))) {
      await this.loadApiDir(join(this.root, APIS_DIR, d.name), load);
    }
    if (load.cache) {
      const cache = load.cache;
      const timer = setTimeout(() => {
        this.cacheSave = null;
        this.cacheSaving = this.saveLoadCache(cache);
      }, CACHE_SAVE_DELAY_MS);
      timer.unref();
      this.cacheSave = { timer, cache };
    }
    const mockDirs = await readdir(join(this.root, MOCKS_DIR), { withFileTypes: true }).catch(() => []);
    for (const d of mockDirs) if (d.isDirectory()) this.mocks.set(`m:${d.name}`, d.name);
  }

  private async loadApiDir(dir: string, load: LoadContext = { slicer: new Slicer(), cache: null }): Promise<void> {
    const apiId = await this.loadApiFile(join(dir, API_FILE));
    if (!apiId) return;
    const place: ApiPlace = { id: apiId, dir, requestsDir: join(dir, REQUESTS_DIR) };
    const files = (await listFiles(place.requestsDir)).filter((f) => f.endsWith(REQUEST_SUFFIX));
    await this.loadRequestFiles(files, place, load);
  }

  /**
   * Reads, parses and adds `files` in order (so which of two files sharing an id is loaded does
   * not depend on which read finished first); after every slice of work the event loop gets a turn.
   * A file unchanged since the last open comes from the load cache instead, in its place in the order.
   */
  private async loadRequestFiles(files: string[], api: ApiPlace, { slicer, cache }: LoadContext): Promise<void> {
    const now = this.loadCacheAt?.now;
    // Every file is stamped before any is read (a stamp taken after the read could vouch for an
    // older text), in slices too: 1,250 stats at once held the event loop 30-46 ms.
    const stamps: FileStamp[] = [];
    const cached: boolean[] = [];
    if (cache) {
      for (const path of files) {
        const stamp = LoadCache.stamp(path, now?.());
        stamps.push(stamp);
        cached.push(cache.matches(path, stamp));
        await slicer.tick();
      }
    }
    const texts = readTexts(files.filter((_, i) => !cached[i]));
    for (let i = 0; i < files.length; i++) {
      const path = files[i]!;
      const hit = cached[i] ? cache!.read(path) : undefined;
      let request: Request | null;
      if (hit) {
        request = this.recordParsed(path, this.relPath(path), hit.text, { ok: true, value: hit.value as Request });
      } else {
        // A damaged cache entry is read from the file here, outside the read-ahead of the others.
        const text = cached[i] ? readTextSync(path) : ((await texts.next()).value as string | NodeJS.ErrnoException);
        request = this.parsedText(path, text, requestKind);
        if (request && cache && typeof text === 'string') cache.remember(path, stamps[i]!, text);
      }
      if (request) this.addRequest(path, request, api);
      await slicer.tick();
    }
  }

  private async saveLoadCache(cache: LoadCache): Promise<void> {
    await cache.save().catch((err: Error) => this.log(`the load cache was not saved: ${err.message}`));
  }

  /** Re-reads one path and updates memory; returns the ids whose state changed. */
  private async reloadPath(path: string): Promise<string[]> {
    const rel = this.relPath(path);
    if (rel === PROJECT_FILE) {
      const parsed = await this.readParsed(path, projectKind);
      if (parsed) this.project = parsed;
      return ['project'];
    }
    const parts = rel.split('/');
    if (parts[0] === APIS_DIR && parts.length === 3 && parts[2] === API_FILE) {
      const before = this.apiIdAt(dirname(path));
      const exists = await this.fs.exists(path);
      if (!exists) {
        if (before) this.forgetApi(before);
        this.problems.delete(rel);
        return before ? [before] : [];
      }
      if (!before) {
        await this.loadApiDir(dirname(path));
        const id = this.apiIdAt(dirname(path));
        return id ? [id] : [];
      }
      const id = await this.loadApiFile(path);
      return id ? [id] : [];
    }
    if (parts[0] === APIS_DIR && parts[2] === REQUESTS_DIR && rel.endsWith(REQUEST_SUFFIX)) {
      const existing = [...this.requests.values()].find((r) => r.file === path);
      if (!(await this.fs.exists(path))) {
        this.problems.delete(rel);
        if (existing) {
          this.requests.delete(existing.request.id);
          this.texts.delete(path);
          return [existing.request.id];
        }
        return [];
      }
      const id = await this.loadRequestFile(path);
      return id ? [id] : existing ? [existing.request.id] : [];
    }
    if (parts[0] === MOCKS_DIR && parts.length >= 2) {
      const name = parts[1]!;
      if (await this.fs.exists(join(this.root, MOCKS_DIR, name))) this.mocks.set(`m:${name}`, name);
      else this.mocks.delete(`m:${name}`);
      return [`m:${name}`];
    }
    return [];
  }

  private async loadApiFile(path: string): Promise<string | null> {
    const api = await this.readParsed(path, apiKind);
    if (!api) return null;
    const clash = this.apis.get(api.id);
    if (clash && clash.dir !== dirname(path)) {
      this.addProblem(path, { rule: 'duplicate-id', message: `API id ${api.id} is also used by ${relative(this.root, clash.dir)}; this copy was not loaded.` });
      return null;
    }
    this.apis.set(api.id, { api, dir: dirname(path) });
    return api.id;
  }

  private async loadRequestFile(path: string): Promise<string | null> {
    const request = await this.readParsed(path, requestKind);
    return request ? this.addRequest(path, request) : null;
  }

  /** Puts a parsed request in memory; refused (null) outside a loaded API or when its id is taken by another file. */
  private addRequest(path: string, file: Request, api?: ApiPlace): string | null {
    // A version 1 file reads through the migration as version 2: in memory a request says the
    // version it is written with (2 only with assertions), as the file does.
    const request = requestForFile(file);
    const apiDir = api?.dir ?? path.split(sep).slice(0, join(this.root, APIS_DIR).split(sep).length + 1).join(sep);
    const apiId = api?.id ?? this.apiIdAt(apiDir);
    if (!apiId) return null;
    const clash = this.requests.get(request.id);
    if (clash && clash.file !== path) {
      this.addProblem(path, { rule: 'duplicate-id', message: `Request id ${request.id} is also used by ${relative(this.root, clash.file)}; this copy was not loaded.` });
      return null;
    }
    const folder = folderOf(api?.requestsDir ?? join(apiDir, REQUESTS_DIR), path);
    this.requests.set(request.id, { request, file: path, apiId, folder });
    let set = this.folders.get(apiId);
    if (folder && !set?.has(folder)) {
      if (!set) this.folders.set(apiId, (set = new Set()));
      const segments = folder.split('/');
      for (let i = 1; i <= segments.length; i++) set.add(segments.slice(0, i).join('/'));
    }
    return request.id;
  }

  private async readParsed<T>(path: string, kind: FileKind<T>): Promise<T | null> {
    // A link out of the folder is not read (the bulk load of request files skips links already).
    try {
      resolveInside(this.root, this.relPath(path), `${kind.label} file`);
    } catch (err) {
      if (!hasCode(err, 'path-escape')) throw err;
      this.addProblem(path, { rule: 'path-escape', message: (err as Error).message });
      return null;
    }
    return this.parsedText(path, await readText(path), kind);
  }

  /** The value of a file read as `text` (or the error reading it), its problems recorded by file. */
  private parsedText<T>(path: string, text: string | NodeJS.ErrnoException, kind: FileKind<T>): T | null {
    const rel = this.relPath(path);
    if (typeof text !== 'string') {
      this.problems.set(rel, [{ file: rel, rule: 'read', message: `${rel} could not be read (${text.code ?? text.message}).` }]);
      return null;
    }
    return this.recordParsed(path, rel, text, parseYamlFile<T>(text, rel, kind, check));
  }

  /** Keeps a file's text and value, or records the problems it has. */
  private recordParsed<T>(path: string, rel: string, text: string, parsed: { ok: true; value: T } | { ok: false; problems: Problem[] }): T | null {
    this.texts.set(path, text);
    if (!parsed.ok) {
      this.problems.set(rel, parsed.problems);
      this.log(parsed.problems.map((p) => `${p.message}${p.line ? ` (line ${p.line})` : ''}`).join('\n'));
      return null;
    }
    this.problems.delete(rel);
    return parsed.value;
  }

  // --- helpers ---------------------------------------------------------------------------

  private yamlChange(path: string, value: unknown): FileChange {
    return { path, content: writeYaml(value, this.texts.get(path)) };
  }

  private refuseIfBroken(path: string): void {
    const rel = this.relPath(path);
    const problems = this.problems.get(rel);
    if (problems?.length) {
      throw new ParleyError('conflict', `${rel} has a problem on disk (${problems[0]!.message}); fix the file first so your edit there is not overwritten.`);
    }
  }

  private addProblem(path: string, problem: Omit<Problem, 'file'>): void {
    const rel = this.relPath(path);
    this.problems.set(rel, [{ file: rel, ...problem }]);
  }

  private loadedRequest(id: string): LoadedRequest {
    const loaded = this.requests.get(id);
    if (!loaded) throw new ParleyError('not-found', `No request with id ${id} in ${this.project.name}.`);
    return loaded;
  }

  private parseParent(parent: string): { apiId: string; folder: string } {
    if (this.apis.has(parent)) return { apiId: parent, folder: '' };
    const slash = parent.indexOf('/');
    const apiId = slash < 0 ? parent : parent.slice(0, slash);
    const folder = slash < 0 ? '' : parent.slice(slash + 1);
    if (!this.apis.has(apiId)) throw new ParleyError('not-found', `No API or folder ${parent} in ${this.project.name}.`);
    resolveInside(join(this.apiDir(apiId), REQUESTS_DIR), folder || '.', 'folder');
    return { apiId, folder };
  }

  private apiIdAt(dir: string): string | null {
    for (const [id, loaded] of this.apis) if (loaded.dir === dir) return id;
    return null;
  }

  private forgetApi(id: string): void {
    this.apis.delete(id);
    this.folders.delete(id);
    for (const [rid, r] of this.requests) if (r.apiId === id) this.requests.delete(rid);
  }

  /** `path` relative to the project folder, with forward slashes, as problems name files. */
  private relPath(path: string): string {
    const prefix = this.root.endsWith(sep) ? this.root : this.root + sep;
    return (path.startsWith(prefix) ? path.slice(prefix.length) : relative(this.root, path)).split(sep).join('/');
  }

  private isKnownPath(path: string): boolean {
    return [...this.requests.values()].some((r) => r.file === path) || [...this.apis.values()].some((a) => join(a.dir, API_FILE) === path);
  }
}

export function folderId(apiId: string, folder: string): string {
  return `${apiId}/${folder}`;
}

/** Every file under `dir`, sorted so loading follows one order on every platform. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))
    .sort(compareNames);
}

/** A request file's folder inside its API's requests/ folder: '' at its root, '/'-separated. */
function folderOf(requestsDir: string, file: string): string {
  const dir = dirname(file);
  if (dir === requestsDir) return '';
  const inside = dir.startsWith(requestsDir + sep) ? dir.slice(requestsDir.length + 1) : relative(requestsDir, dir);
  return sep === '/' ? inside : inside.split(sep).join('/');
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Request files being read at once on the thread pool once reads are slow: enough to keep a slow disk busy, few enough that completions arrive a handful at a time. */
const LOAD_READ_AHEAD = 32;
/** A read this long is not from the page cache or a local disk; after SLOW_READS_TO_SWITCH of them the rest are read on the thread pool. */
const SLOW_READ_MS = 10;
const SLOW_READS_TO_SWITCH = 3;

/** What one load shares across its APIs: the slices it yields in, and the load cache when there is one. */
interface LoadContext {
  slicer: Slicer;
  cache: LoadCache | null;
}

/**
 * The texts of `files` in order (or the error reading each). Read synchronously while reads are
 * quick, as from the page cache or a local disk: there a thread-pool read costs the event loop
 * several times the CPU of a plain read (`fs/promises` all at once: 16x, bench/README.md), and
 * the caller's slices bound how long the loop waits. Once reads turn slow (a network or cold
 * disk), the rest go to the thread pool, LOAD_READ_AHEAD at a time, so they overlap.
 */
async function* readTexts(files: string[]): AsyncGenerator<string | NodeJS.ErrnoException> {
  let next = 0;
  let slow = 0;
  while (next < files.length && slow < SLOW_READS_TO_SWITCH) {
    const started = performance.now();
    const text = readTextSync(files[next++]!);
    if (performance.now() - started > SLOW_READ_MS) slow++;
    yield text;
  }
  const reads: Promise<string | NodeJS.ErrnoException>[] = [];
  const readAhead = () => {
    while (next < files.length && reads.length < LOAD_READ_AHEAD) reads.push(readText(files[next++]!));
  };
  readAhead();
  while (reads.length > 0) {
    const text = await reads.shift()!;
    readAhead();
    yield text;
  }
}

function readTextSync(path: string): string | NodeJS.ErrnoException {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}

/** A file's text, or the error reading it (the callback `readFile`: `fs/promises`' takes several promise steps per file). */
function readText(path: string): Promise<string | NodeJS.ErrnoException> {
  return new Promise((resolve) => readFileCallback(path, 'utf8', (err, text) => resolve(err ?? text)));
}
