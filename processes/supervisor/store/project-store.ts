/**
 * One open project folder, held in memory and kept in step with the disk. The supervisor is
 * its only writer: every save goes through `commit`, one at a time, atomically. Edits made
 * outside Parley are picked up by the watcher and re-validated. The work is done by parts with
 * one job each: the index and its tree (project-index.ts), reading a file into it
 * (project-reader.ts), the load (project-loader.ts), saves (project-writer.ts) and the watcher's
 * read-back (project-watch.ts); this class is their one face.
 */
import { rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { ParleyError, quote } from '../../../protocol/errors.js';
import type { Row } from '../../../protocol/model/common.js';
import type { Api } from '../../../protocol/model/api.js';
import type { ProjectFile, ProjectTree, TreeDelta } from '../../../protocol/model/project.js';
import { blankRequest, type Request } from '../../../protocol/model/request.js';
import { API_FILE, APIS_DIR, DEFINITION_DIR, FOLDER_FILE, PROJECT_FILE, REQUESTS_DIR, REQUEST_SUFFIX, apiKind, folderKind, projectKind } from '../../../protocol/project/layout.js';
import { forFile, kindById, kindOf, kindOfFile, type AnyRequest } from '../../../protocol/kinds/index.js';
import type { FolderFile, FolderSettings } from '../../../protocol/model/project.js';
import type { FolderScope } from '../../../protocol/inheritance.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { writeYaml, type FileKind } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { nodeFs, recoverCommits, type FileChange, type FsOps } from './atomic.js';
import { newId } from '../../../protocol/ids.js';
import type { LoadCache } from './load-cache.js';
import { NameClaims } from './name-claims.js';
import { exampleFilePaths } from './example-store.js';
import { examplesDirOf } from '../../../protocol/project/examples.js';
import { PROJECT_PARENT, ProjectIndex, folderId, type LoadedRequest } from './project-index.js';
import { ProjectReader } from './project-reader.js';
import { ProjectLoader, type LoadCacheAt } from './project-loader.js';
import { ProjectWriter } from './project-writer.js';
import { ProjectWatch } from './project-watch.js';
import { Slicer } from './slicer.js';
import { TreeEdits } from './tree-edits.js';

export { folderId };

export interface ProjectStoreOptions {
  fs?: FsOps;
  log?: (line: string) => void;
  /** Where this project's load cache lives (load-cache.ts), in the workspace; none: every file is read on open. */
  loadCache?: LoadCacheAt;
}

/** How long after a load its cache is saved: not in the turns that answer the open. */
const CACHE_SAVE_DELAY_MS = 1000;

/** What an import hands the store for a new API. */
export interface NewApi {
  api: Api;
  /** Folders with their place in their parent (an importer's `SourceOrder`) and their settings; each gets its folder.yaml. */
  folders?: ({ path: string; order?: string } & Partial<FolderSettings>)[];
  /**
   * Requests in their folders; one with an `order` keeps it, one without goes at the end of its
   * folder. A request staged as its file's text (NewRequestFile) keeps the place written in it.
   */
  requests: readonly (PlacedRequest | NewRequestFile)[];
  documents: { path: string; bytes: Uint8Array }[];
}

/** A new request in a folder of its API. */
export interface PlacedRequest {
  folder: string;
  request: AnyRequest;
}

/** A new request's file whose content is already made (an import's, staged as it arrived): its name names the file. */
export interface NewRequestFile {
  folder: string;
  name: string;
  /** Its kind's suffix (protocol/kinds), which names the file; absent: HTTP's. */
  suffix?: string;
  content: FileChange['content'];
}

export class ProjectStore {
  readonly root: string;
  private readonly index: ProjectIndex;
  private readonly reader: ProjectReader;
  private readonly loader: ProjectLoader;
  private readonly writer: ProjectWriter;
  private readonly watching: ProjectWatch;
  /** New folder, rename, delete, duplicate and move (tree-edits.ts). */
  readonly edits: TreeEdits;
  private readonly fs: FsOps;
  private readonly log: (line: string) => void;
  private closed = false;

  private cacheSave: { timer: NodeJS.Timeout; cache: LoadCache } | null = null;
  /** The save under way (it packs in slices), which close waits for. */
  private cacheSaving: Promise<void> = Promise.resolve();

  private constructor(root: string, options: ProjectStoreOptions) {
    this.root = root;
    this.fs = options.fs ?? nodeFs;
    this.log = options.log ?? (() => {});
    this.index = new ProjectIndex(root);
    this.reader = new ProjectReader(this.index, this.fs, this.log, (dir, skip) => this.loader.loadApiDir(dir, skip));
    this.loader = new ProjectLoader(this.index, this.reader, options.loadCache);
    this.writer = new ProjectWriter(this.index, this.reader, this.fs, this.log);
    this.watching = new ProjectWatch(this.index, this.reader, this.writer, this.log);
    this.edits = new TreeEdits(this, this.index);
  }

  /** Opens a project folder; a folder without parley.yaml becomes a new project when `create` is set. */
  static async open(root: string, options: ProjectStoreOptions & { create?: boolean; name?: string } = {}): Promise<ProjectStore> {
    const store = new ProjectStore(root, options);
    // A save cut short by a crash is finished or undone before anything is read.
    await recoverCommits(root, { fs: store.fs, log: store.log });
    const file = join(root, PROJECT_FILE);
    const exists = await store.fs.exists(file);
    if (!exists) {
      if (!options.create) throw new ParleyError('not-found', `${root} is not a Parley project (no ${PROJECT_FILE}).`);
      const stats = await stat(root).catch(() => null);
      if (stats && !stats.isDirectory()) throw new ParleyError('bad-input', `${root} is a file, not a folder: a project is a folder.`);
      const project: ProjectFile = { version: 1, name: options.name ?? basename(root), properties: [] };
      await store.commit([{ path: file, content: writeYaml(project) }]);
    }
    // What the load puts in the index is in the tree a page opens with, not in a delta.
    const cache = await store.index.loading(() => store.loader.loadAll());
    if (cache) {
      const timer = setTimeout(() => {
        store.cacheSave = null;
        store.cacheSaving = store.saveLoadCache(cache);
      }, CACHE_SAVE_DELAY_MS);
      timer.unref();
      store.cacheSave = { timer, cache };
    }
    return store;
  }

  get name(): string {
    return this.index.project.name;
  }

  get properties(): Row[] {
    return this.index.project.properties;
  }

  /** The whole tree, with the number of the last delta it includes. */
  tree(): ProjectTree {
    return this.index.tree();
  }

  /** What changed in the tree since the last call, as numbered deltas (project.changed). */
  takeDeltas(): TreeDelta[] {
    return this.index.takeDeltas();
  }

  /**
   * The `project.changed` events for what changed since the last ones: a delta each (several for
   * a big import), `changed` (the ids whose documents to read again) on the last, once the tree has it all.
   */
  changedEvents(changed: string[]): { delta: TreeDelta; changed: string[] }[] {
    const deltas = this.index.takeDeltas();
    return deltas.map((delta, i) => ({ delta, changed: i === deltas.length - 1 ? changed : [] }));
  }

  getApi(id: string): Api {
    return this.index.loadedApi(id).api;
  }

  apiDir(id: string): string {
    return this.index.loadedApi(id).dir;
  }

  listApis(): Api[] {
    return this.index.listApis();
  }

  getRequest(id: string): AnyRequest {
    return this.index.parsedRequest(this.loadedRequest(id));
  }

  /** The API a request belongs to. */
  apiOf(requestId: string): Api {
    return this.getApi(this.loadedRequest(requestId).apiId);
  }

  /**
   * The folders a request sits in, from the API's top down, each with its folder.yaml's settings,
   * and its API: what its Inherit and its folders' headers and variables mean (protocol/inheritance.ts).
   */
  scopeOf(requestId: string): { api: Api; folders: FolderScope[] } {
    const loaded = this.loadedRequest(requestId);
    return { api: this.getApi(loaded.apiId), folders: this.index.folderChain(loaded.apiId, loaded.folder) };
  }

  /** The folders above a folder (not the folder itself) and its API: what the folder's own Inherit means. */
  scopeOfFolder(id: string): { api: Api; folders: FolderScope[] } {
    const place = this.folderPlace(id);
    const slash = place.folder.lastIndexOf('/');
    return { api: this.getApi(place.apiId), folders: this.index.folderChain(place.apiId, slash < 0 ? '' : place.folder.slice(0, slash)) };
  }

  /** A folder's name, its settings as its editor shows them (none set: Inherit, no rows), and its keychain id if it has one. */
  getFolder(id: string): { name: string; settings: FolderSettings; secretId?: string } {
    const place = this.folderPlace(id);
    const file = this.index.folderFile(id);
    const settings: FolderSettings = { auth: file?.auth ?? { type: 'inherit' }, headers: file?.headers ?? [], variables: file?.variables ?? [] };
    return { name: place.folder.slice(place.folder.lastIndexOf('/') + 1), settings, ...(file?.id !== undefined ? { secretId: file.id } : {}) };
  }

  /**
   * Writes a folder's settings into its folder.yaml (made when it has none), keeping its place,
   * the rest of the file and its comments. A setting left empty (Inherit, no rows) is left out.
   */
  async saveFolder(id: string, settings: FolderSettings, secretId?: string): Promise<void> {
    const place = this.folderPlace(id);
    const path = join(this.apiDir(place.apiId), REQUESTS_DIR, ...place.folder.split('/'), FOLDER_FILE);
    this.refuseIfBroken(path);
    const { auth: _auth, headers: _headers, variables: _variables, ...kept } = this.index.folderFile(id) ?? { version: 1 as const };
    const file: FolderFile = {
      ...kept,
      ...(secretId !== undefined ? { id: secretId } : {}),
      ...(settings.auth.type !== 'inherit' ? { auth: settings.auth } : {}),
      ...(settings.headers.length > 0 ? { headers: settings.headers } : {}),
      ...(settings.variables.length > 0 ? { variables: settings.variables } : {}),
    };
    await this.commit([this.yamlChange(path, file)]);
  }

  private folderPlace(id: string): { apiId: string; folder: string } {
    const place = this.index.folder(id);
    if (!place) throw new ParleyError('not-found', `No folder ${quote(id)} in ${this.name}.`);
    return place;
  }

  /** Every request of an API, parsed in slices between which the event loop runs (thousands take a second). */
  async requestsOf(apiId: string): Promise<AnyRequest[]> {
    const slicer = new Slicer();
    const requests: AnyRequest[] = [];
    for (const loaded of this.index.requestEntriesOf(apiId)) {
      requests.push(this.index.parsedRequest(loaded, false));
      if (slicer.due()) await slicer.turn();
    }
    return requests;
  }

  /**
   * The requests whose file text holds `text`, parsed, each with its place ("API/folder/name", as
   * run reports name it); the others are skipped unparsed (a search over the project).
   */
  requestsHolding(text: string): { request: AnyRequest; path: string }[] {
    const found: { request: AnyRequest; path: string }[] = [];
    for (const api of this.listApis()) {
      for (const loaded of this.index.requestEntriesOf(api.id)) {
        if (!loaded.text.includes(text)) continue;
        const request = this.index.parsedRequest(loaded, false);
        found.push({ request, path: [api.name, ...(loaded.folder ? loaded.folder.split('/') : []), request.name].join('/') });
      }
    }
    return found;
  }

  async setProperties(properties: Row[]): Promise<void> {
    await this.commit([this.propertiesChange(properties)]);
  }

  /** A change that rewrites parley.yaml with these properties; for batch writers (importers). */
  propertiesChange(properties: Row[]): FileChange {
    return this.yamlChange(join(this.root, PROJECT_FILE), { ...this.index.project, properties });
  }

  async createApi(input: { name: string; baseUrl: string; api?: Partial<Api> }): Promise<Api> {
    const claims = this.nameClaims();
    const api: Api = { version: 1, id: newId('a'), name: input.name, baseUrl: input.baseUrl, auth: { type: 'none' }, ...input.api, order: this.appendKey(PROJECT_PARENT, claims) };
    const apisDir = join(this.root, APIS_DIR);
    const dir = join(apisDir, claims.claim(apisDir, input.name, '', 'api'));
    await this.commit([this.yamlChange(join(dir, API_FILE), api)]);
    return api;
  }

  async saveApi(api: Api): Promise<Api> {
    const loaded = this.index.api(api.id);
    if (!loaded) throw new ParleyError('not-found', `No API with id ${api.id} in ${this.name}.`);
    this.refuseIfBroken(join(loaded.dir, API_FILE));
    // Its place is the tree's to change (tree-edits.ts): an editor's copy may predate a move.
    await this.commit([this.yamlChange(join(loaded.dir, API_FILE), withOrder(api, loaded.api.order))]);
    return this.getApi(api.id);
  }

  /** `parent` is an API id or a folder id from the tree. */
  async createRequest(input: { parent: string; name: string; method: string; url: string }): Promise<Request> {
    return (await this.addNewRequest(input.parent, blankRequest({ id: newId('r'), name: input.name, method: input.method, url: input.url }))) as Request;
  }

  /** A new request of `kind` (protocol/kinds/) under `parent`. */
  async createRequestOfKind(input: { parent: string; kind: string; name: string; url: string }): Promise<AnyRequest> {
    return this.addNewRequest(input.parent, kindById(input.kind).blank({ id: newId('r'), name: input.name, url: input.url }));
  }

  /** Writes a request made elsewhere (an import) as a new file under `parent` (an API or folder id). */
  async addNewRequest(parent: string, request: AnyRequest): Promise<AnyRequest> {
    const { apiId, folder } = this.parseParent(parent);
    await this.commit([this.newRequestChange(apiId, folder, request)]);
    return this.getRequest(request.id);
  }

  /**
   * Names for the new files of one batch: portable, and clashing with nothing on disk, in saves
   * still queued or elsewhere in the batch (name-claims.ts). Pass one to every `new...Change` of a batch.
   */
  nameClaims(): NameClaims {
    return new NameClaims((dir) => this.writer.inFlightNames(dir));
  }

  /**
   * A change that writes `request` as a new file at the end of `folder` of `apiId` (its own
   * `order` is not kept: the folder has items already); for batch writers (importers, cURL).
   */
  newRequestChange(apiId: string, folder: string, request: AnyRequest, claims: NameClaims = this.nameClaims()): FileChange {
    const requestsDir = join(this.apiDir(apiId), REQUESTS_DIR);
    const dir = claims.folder(requestsDir, folder);
    const { suffix } = kindOf(request);
    const name = claims.claim(dir, request.name, suffix, 'request');
    const order = this.appendKey(folderIdOf(apiId, requestsDir, dir), claims);
    return this.yamlChange(join(dir, name + suffix), forFile({ ...request, order }));
  }

  /**
   * A change that writes a request file whose text is made (NewRequestFile: an import's staged
   * request) in `apiId`; it keeps the place its text holds, the importer's.
   */
  newRequestFileChange(apiId: string, file: NewRequestFile, claims: NameClaims = this.nameClaims()): FileChange {
    const requestsDir = join(this.apiDir(apiId), REQUESTS_DIR);
    const dir = claims.folder(requestsDir, file.folder);
    const suffix = file.suffix ?? REQUEST_SUFFIX;
    const name = claims.claim(dir, file.name, suffix, 'request');
    return { path: join(dir, name + suffix), content: file.content };
  }

  /** The key of a new item at the end of `parent` (PROJECT_PARENT, an API or a folder id), for this batch. */
  private appendKey(parent: string, claims: NameClaims): string {
    return claims.appendKey(parent, () => this.index.lastKey(parent));
  }

  async saveRequest(request: AnyRequest): Promise<AnyRequest> {
    const loaded = this.loadedRequest(request.id);
    this.refuseIfBroken(loaded.file);
    await this.commit([this.requestChange(withOrder(request, loaded.order))]);
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
    // A new API goes after the project's APIs (several from one import in the order given).
    yield this.yamlChange(join(dir, API_FILE), { ...input.api, order: this.appendKey(PROJECT_PARENT, claims) });
    for (const doc of input.documents) yield { path: resolveInside(join(dir, DEFINITION_DIR), doc.path, 'cached definition document'), content: doc.bytes };
    const requestsDir = join(dir, REQUESTS_DIR);
    const apiId = input.api.id;
    // The API is new, so the places the importer gave stand as they are; a missing one goes last.
    for (const { path, order, ...settings } of input.folders ?? []) {
      const folderDir = claims.folder(requestsDir, path);
      if (folderDir === requestsDir) continue;
      const parent = folderIdOf(apiId, requestsDir, dirname(folderDir));
      yield this.yamlChange(join(folderDir, FOLDER_FILE), folderFileOf(order ?? claims.appendKey(parent, () => null), settings));
    }
    for (const placed of input.requests) {
      const folderDir = claims.folder(requestsDir, placed.folder);
      if ('content' in placed) {
        // Staged as text by the import (import-staging.ts), with the importer's place in it.
        const suffix = placed.suffix ?? REQUEST_SUFFIX;
        const name = claims.claim(folderDir, placed.name, suffix, 'request');
        yield { path: join(folderDir, name + suffix), content: placed.content };
        continue;
      }
      const { request } = placed;
      const { suffix } = kindOf(request);
      const name = claims.claim(folderDir, request.name, suffix, 'request');
      const order = request.order ?? claims.appendKey(folderIdOf(apiId, requestsDir, folderDir), () => null);
      yield this.yamlChange(join(folderDir, name + suffix), forFile({ ...request, order }));
    }
  }

  /** A change that rewrites an existing request's file; for batch writers (definition update). */
  requestChange(request: AnyRequest): FileChange {
    const loaded = this.loadedRequest(request.id);
    // A request keeps its kind: its file is read by its suffix.
    const kind = kindOf(request);
    if (kindOfFile(loaded.file) !== kind) throw new ParleyError('bad-input', `The request ${quote(request.name)} is not a ${kind.label} request; a request's kind cannot change.`);
    return this.yamlChange(loaded.file, forFile(request));
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

  /** The single write path: saves are queued one at a time, written atomically, then read back (project-writer.ts). */
  commit(changes: FileChange[]): Promise<void> {
    return this.writer.commit(changes);
  }

  /**
   * Starts picking up edits made outside Parley; `onChange` gets the ids whose files changed.
   * Resolves once edits are being watched.
   */
  async watch(onChange: (changed: string[]) => void): Promise<void> {
    // A closed store never watches again: a late start would keep the process alive.
    if (this.closed) return;
    await this.watching.start(onChange);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.cacheSave) {
      clearTimeout(this.cacheSave.timer);
      this.cacheSaving = this.saveLoadCache(this.cacheSave.cache);
      this.cacheSave = null;
    }
    await this.cacheSaving;
    await this.writer.settled();
    await this.watching.close();
  }

  private async saveLoadCache(cache: LoadCache): Promise<void> {
    await cache.save().catch((err: Error) => this.log(`the load cache was not saved: ${err.message}`));
  }

  // --- helpers ---------------------------------------------------------------------------

  /** A change that writes `value` as YAML at `path` (keeping the comments and key order of the file there), once it passes the rule the load reads it with (refuseUnloadable). */
  yamlChange(path: string, value: unknown): FileChange {
    refuseUnloadable(path, value);
    return { path, content: writeYaml(value, this.index.texts.get(path)) };
  }

  private refuseIfBroken(path: string): void {
    const rel = this.index.relPath(path);
    const problems = this.index.problemsOf(rel);
    if (problems?.length) {
      throw new ParleyError('conflict', `${rel} has a problem on disk (${problems[0]!.message}); fix the file first so your edit there is not overwritten.`);
    }
  }

  private loadedRequest(id: string): LoadedRequest {
    return this.index.loadedRequest(id);
  }

  parseParent(parent: string): { apiId: string; folder: string } {
    if (this.index.hasApi(parent)) return { apiId: parent, folder: '' };
    const slash = parent.indexOf('/');
    const apiId = slash < 0 ? parent : parent.slice(0, slash);
    const folder = slash < 0 ? '' : parent.slice(slash + 1);
    if (!this.index.hasApi(apiId)) throw new ParleyError('not-found', `No API or folder ${parent} in ${this.name}.`);
    resolveInside(join(this.apiDir(apiId), REQUESTS_DIR), folder || '.', 'folder');
    return { apiId, folder };
  }
}

/**
 * Nothing is written that the next load would refuse: a file's value is checked against its
 * kind's schema with the loader's own check (project-loader.ts, project-reader.ts), so a save
 * that broke the rule left a file the project showed as a schema problem from then on (an empty
 * request name, issue 26). A request or an API also needs a name the tree can show: one of
 * blanks only (which the schema's minLength lets through) is refused as well.
 */
function refuseUnloadable(path: string, value: unknown): void {
  const requestKind = kindOfFile(path)?.file;
  const kind: FileKind<unknown> | undefined = requestKind
    ? requestKind
    : basename(path) === API_FILE
      ? apiKind
      : basename(path) === PROJECT_FILE
        ? projectKind
        : basename(path) === FOLDER_FILE
          ? folderKind
          : undefined;
  if (!kind) return;
  const name = (value as { name?: unknown }).name;
  if ((kind === requestKind || kind === apiKind) && typeof name === 'string' && name.trim() === '') {
    throw new ParleyError('bad-input', `${kind === apiKind ? 'An API' : 'A request'} needs a name: the name given is empty.`);
  }
  const [first] = checkAll(kind.schema, value);
  if (first) throw new ParleyError('schema-violation', `The ${kind.label}${typeof name === 'string' ? ` ${quote(name)}` : ''} was not saved: ${first.path || '/'} ${first.message}.`);
}

/** The tree id of the folder `dir` of an API (the API itself for its requests folder). */
export function folderIdOf(apiId: string, requestsDir: string, dir: string): string {
  if (dir === requestsDir) return apiId;
  return folderId(apiId, relative(requestsDir, dir).split(sep).join('/'));
}

/** A folder's folder.yaml: its place, and the settings given (an import's folder auth and variables) that say something. */
export function folderFileOf(order: string | undefined, settings: Partial<FolderSettings> = {}): FolderFile {
  return {
    version: 1,
    ...(order !== undefined ? { order } : {}),
    ...(settings.auth && settings.auth.type !== 'inherit' ? { auth: settings.auth } : {}),
    ...(settings.headers && settings.headers.length > 0 ? { headers: settings.headers } : {}),
    ...(settings.variables && settings.variables.length > 0 ? { variables: settings.variables } : {}),
  };
}

/** `item` with the place `order` (none: without one), whatever place it came with. */
function withOrder<T extends { order?: string }>(item: T, order: string | undefined): T {
  const { order: _dropped, ...rest } = item;
  return (order === undefined ? rest : { ...rest, order }) as T;
}
