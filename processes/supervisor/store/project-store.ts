/**
 * One open project folder, held in memory and kept in step with the disk. The supervisor is
 * its only writer: every save goes through `commit`, one at a time, atomically. Edits made
 * outside Parley are picked up by the watcher and re-validated.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { ParleyError } from '../../../protocol/errors.js';
import type { Problem, Row } from '../../../protocol/model/common.js';
import type { Api } from '../../../protocol/model/api.js';
import type { ProjectFile, ProjectTree, TreeItem } from '../../../protocol/model/project.js';
import { defaultSettings, emptyBody, type Request } from '../../../protocol/model/request.js';
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
import { resolveInside, safeFileName } from '../../../protocol/project/safe-path.js';
import { parseYamlFile, writeYaml, type FileKind } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { commitFiles, nodeFs, type FileChange, type FsOps } from './atomic.js';
import { newId } from './ids.js';

interface LoadedApi {
  api: Api;
  dir: string;
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
}

const check = (schema: Parameters<typeof checkAll>[0], value: unknown) => checkAll(schema, value);

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
  private readonly fs: FsOps;
  private readonly log: (line: string) => void;
  private queue: Promise<unknown> = Promise.resolve();
  private watcher: FSWatcher | null = null;

  private constructor(root: string, options: ProjectStoreOptions) {
    this.root = root;
    this.fs = options.fs ?? nodeFs;
    this.log = options.log ?? (() => {});
  }

  /** Opens a project folder; a folder without parley.yaml becomes a new project when `create` is set. */
  static async open(root: string, options: ProjectStoreOptions & { create?: boolean; name?: string } = {}): Promise<ProjectStore> {
    const store = new ProjectStore(root, options);
    const file = join(root, PROJECT_FILE);
    const exists = await (options.fs ?? nodeFs).exists(file);
    if (!exists) {
      if (!options.create) throw new ParleyError('not-found', `${root} is not a Parley project (no ${PROJECT_FILE}).`);
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
    const project = { ...this.project, properties };
    await this.commit([this.yamlChange(join(this.root, PROJECT_FILE), project)]);
  }

  async createApi(input: { name: string; baseUrl: string; api?: Partial<Api> }): Promise<Api> {
    const api: Api = { version: 1, id: newId('a'), name: input.name, baseUrl: input.baseUrl, auth: { type: 'none' }, ...input.api };
    const dir = join(this.root, APIS_DIR, this.freeName(join(this.root, APIS_DIR), safeFileName(input.name, 'api'), ''));
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
    const { apiId, folder } = this.parseParent(input.parent);
    const request: Request = {
      version: 1,
      id: newId('r'),
      name: input.name,
      method: input.method.toUpperCase(),
      url: input.url,
      pathParams: [],
      query: [],
      headers: [],
      body: emptyBody(),
      auth: { type: 'inherit' },
      settings: defaultSettings(),
    };
    await this.commit([this.newRequestChange(apiId, folder, request)]);
    return this.getRequest(request.id);
  }

  /** A change that writes `request` as a new file in `folder` of `apiId`; for batch writers (importers). */
  newRequestChange(apiId: string, folder: string, request: Request, reserved: Set<string> = new Set()): FileChange {
    const dir = folder ? resolveInside(join(this.apiDir(apiId), REQUESTS_DIR), folder, 'folder') : join(this.apiDir(apiId), REQUESTS_DIR);
    const name = this.freeName(dir, safeFileName(request.name, 'request'), REQUEST_SUFFIX, reserved);
    reserved.add(join(dir, name + REQUEST_SUFFIX));
    return this.yamlChange(join(dir, name + REQUEST_SUFFIX), request);
  }

  async saveRequest(request: Request): Promise<Request> {
    const loaded = this.loadedRequest(request.id);
    this.refuseIfBroken(loaded.file);
    await this.commit([this.yamlChange(loaded.file, request)]);
    return this.getRequest(request.id);
  }

  /**
   * The files of a new API made by an import: api.yaml, its cached definition documents and
   * every request in its folder, in a folder of its own. One batch, for one atomic commit.
   */
  newApiChanges(input: { api: Api; requests: { folder: string; request: Request }[]; documents: { path: string; bytes: Uint8Array }[] }, reserved: Set<string> = new Set()): FileChange[] {
    const apisDir = join(this.root, APIS_DIR);
    const dir = join(apisDir, this.freeName(apisDir, safeFileName(input.api.name, 'api'), '', reserved));
    reserved.add(dir);
    const changes: FileChange[] = [this.yamlChange(join(dir, API_FILE), input.api)];
    for (const doc of input.documents) changes.push({ path: resolveInside(join(dir, DEFINITION_DIR), doc.path, 'cached definition document'), content: doc.bytes });
    for (const { folder, request } of input.requests) {
      const requestsDir = join(dir, REQUESTS_DIR);
      const folderDir = folder ? resolveInside(requestsDir, folder, 'folder') : requestsDir;
      const name = this.freeName(folderDir, safeFileName(request.name, 'request'), REQUEST_SUFFIX, reserved);
      reserved.add(join(folderDir, name + REQUEST_SUFFIX));
      changes.push(this.yamlChange(join(folderDir, name + REQUEST_SUFFIX), request));
    }
    return changes;
  }

  /** A change that rewrites an existing request's file; for batch writers (definition update). */
  requestChange(request: Request): FileChange {
    return this.yamlChange(this.loadedRequest(request.id).file, request);
  }

  apiChange(api: Api): FileChange {
    return this.yamlChange(join(this.apiDir(api.id), API_FILE), api);
  }

  async deleteRequest(id: string): Promise<void> {
    const loaded = this.loadedRequest(id);
    await this.commit([{ path: loaded.file, content: null }]);
  }

  /**
   * The single write path: saves are queued one at a time, written atomically, then the
   * touched files are re-read so memory matches the disk exactly.
   */
  commit(changes: FileChange[]): Promise<void> {
    const run = async () => {
      await commitFiles(changes, this.fs);
      for (const change of changes) {
        if (typeof change.content === 'string') this.texts.set(change.path, change.content);
        else this.texts.delete(change.path);
      }
      for (const change of changes) await this.reloadPath(change.path);
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Starts picking up edits made outside Parley; `onChange` gets the ids whose files changed. */
  watch(onChange: (changed: string[]) => void): void {
    if (this.watcher) return;
    let pending = new Set<string>();
    let timer: NodeJS.Timeout | null = null;
    const flush = async () => {
      timer = null;
      const paths = [...pending];
      pending = new Set();
      const changed: string[] = [];
      for (const path of paths) {
        const text = await readFile(path, 'utf8').catch(() => null);
        if (text !== null && text === this.texts.get(path)) continue; // our own write
        if (text === null && !this.texts.has(path) && !this.isKnownPath(path)) continue;
        changed.push(...(await this.reloadPath(path)));
      }
      if (changed.length > 0) onChange(changed);
    };
    this.watcher = watch(this.root, {
      ignoreInitial: true,
      ignored: (path: string) => /(^|[\\/])(\.git|node_modules)([\\/]|$)/.test(path) || /\.(tmp|bak)$/.test(path),
      awaitWriteFinish: { stabilityThreshold: 40, pollInterval: 20 },
    });
    const queue = (path: string) => {
      if (!/\.ya?ml$/.test(path)) return;
      pending.add(path);
      if (!timer) timer = setTimeout(() => void this.queue.then(flush), 30);
    };
    this.watcher.on('add', queue).on('change', queue).on('unlink', queue);
    this.watcher.on('error', (err) => this.log(`watcher: ${(err as Error).message}`));
  }

  async close(): Promise<void> {
    await this.queue;
    await this.watcher?.close();
    this.watcher = null;
  }

  // --- loading ---------------------------------------------------------------------------

  private async loadAll(): Promise<void> {
    await this.reloadPath(join(this.root, PROJECT_FILE));
    const apiDirs = await readdir(join(this.root, APIS_DIR), { withFileTypes: true }).catch(() => []);
    await Promise.all(apiDirs.filter((d) => d.isDirectory()).map((d) => this.loadApiDir(join(this.root, APIS_DIR, d.name))));
    const mockDirs = await readdir(join(this.root, MOCKS_DIR), { withFileTypes: true }).catch(() => []);
    for (const d of mockDirs) if (d.isDirectory()) this.mocks.set(`m:${d.name}`, d.name);
  }

  private async loadApiDir(dir: string): Promise<void> {
    const apiId = await this.loadApiFile(join(dir, API_FILE));
    if (!apiId) return;
    const files = await listFiles(join(dir, REQUESTS_DIR));
    await Promise.all(files.filter((f) => f.endsWith(REQUEST_SUFFIX)).map((f) => this.loadRequestFile(f)));
  }

  /** Re-reads one path and updates memory; returns the ids whose state changed. */
  private async reloadPath(path: string): Promise<string[]> {
    const rel = relative(this.root, path).split(sep).join('/');
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
    if (!request) return null;
    const apiDir = path.split(sep).slice(0, join(this.root, APIS_DIR).split(sep).length + 1).join(sep);
    const apiId = this.apiIdAt(apiDir);
    if (!apiId) return null;
    const clash = this.requests.get(request.id);
    if (clash && clash.file !== path) {
      this.addProblem(path, { rule: 'duplicate-id', message: `Request id ${request.id} is also used by ${relative(this.root, clash.file)}; this copy was not loaded.` });
      return null;
    }
    const folder = relative(join(apiDir, REQUESTS_DIR), dirname(path)).split(sep).join('/');
    this.requests.set(request.id, { request, file: path, apiId, folder });
    if (folder) {
      let set = this.folders.get(apiId);
      if (!set) this.folders.set(apiId, (set = new Set()));
      const segments = folder.split('/');
      for (let i = 1; i <= segments.length; i++) set.add(segments.slice(0, i).join('/'));
    }
    return request.id;
  }

  private async readParsed<T>(path: string, kind: FileKind<T>): Promise<T | null> {
    const rel = relative(this.root, path).split(sep).join('/');
    const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
      this.problems.set(rel, [{ file: rel, rule: 'read', message: `${rel} could not be read (${err.code ?? err.message}).` }]);
      return null;
    });
    if (text === null) return null;
    this.texts.set(path, text);
    const parsed = parseYamlFile<T>(text, rel, kind, check);
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
    const rel = relative(this.root, path).split(sep).join('/');
    const problems = this.problems.get(rel);
    if (problems?.length) {
      throw new ParleyError('conflict', `${rel} has a problem on disk (${problems[0]!.message}); fix the file first so your edit there is not overwritten.`);
    }
  }

  private addProblem(path: string, problem: Omit<Problem, 'file'>): void {
    const rel = relative(this.root, path).split(sep).join('/');
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

  private isKnownPath(path: string): boolean {
    return [...this.requests.values()].some((r) => r.file === path) || [...this.apis.values()].some((a) => join(a.dir, API_FILE) === path);
  }

  /** A file name not used on disk or in memory or by this batch: `name`, `name 2`, `name 3`... */
  private freeName(dir: string, base: string, suffix: string, reserved: Set<string> = new Set()): string {
    const taken = (candidate: string) => {
      const full = join(dir, candidate + suffix);
      return reserved.has(full) || this.texts.has(full) || existsSync(full) || [...this.apis.values()].some((a) => a.dir === full);
    };
    if (!taken(base)) return base;
    for (let n = 2; ; n++) if (!taken(`${base} ${n}`)) return `${base} ${n}`;
  }
}

export function folderId(apiId: string, folder: string): string {
  return `${apiId}/${folder}`;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}
