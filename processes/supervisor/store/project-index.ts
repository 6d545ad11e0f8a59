/**
 * What an open project holds in memory: the project file, its APIs, requests, folders and mocks,
 * each file's problems and last text. It builds the sidebar's tree, and remembers which tree
 * items changed since the last delta (`takeDeltas`), so a save is broadcast as what it changed.
 *
 * A request is held as its file's text and what the tree shows of it; the request itself is
 * parsed from that text when asked for (`parsedRequest`), the last few kept. Held parsed, each
 * request cost about 10.6 KB of heap beside its text, and a project of Microsoft Graph's 11,422
 * put the supervisor of `parley import` (and any process opening the project) at 1.9x what
 * swagger-parser takes to bundle the document (bench/README.md, "Every process of parley import").
 */
import { randomBytes } from 'node:crypto';
import { relative, sep } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';
import type { Problem } from '../../../protocol/model/common.js';
import type { Api } from '../../../protocol/model/api.js';
import type { FolderFile, ProjectFile, ProjectTree, TreeDelta, TreeItem } from '../../../protocol/model/project.js';
import type { FolderScope } from '../../../protocol/inheritance.js';
import { forFile, kindOfFile, type AnyRequest } from '../../../protocol/kinds/index.js';
import { compareTreeItems, treeItemKey } from '../../../protocol/project/tree-order.js';
import { compareSiblings, isOrderKey } from '../../../protocol/project/order-keys.js';
import { parseYamlFile } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';

export interface LoadedApi {
  api: Api;
  dir: string;
}

/** A request of the project as the index holds it: what the tree shows, and the text it is parsed from when asked for. */
export interface LoadedRequest {
  id: string;
  name: string;
  /** Its kind (protocol/kinds/), read from its file's suffix. */
  kind: string;
  /** The kind's badge: an HTTP request's method. */
  method: string;
  orphaned: boolean;
  /** Its place among its siblings (order-keys.ts); none: placed by name. */
  order?: string;
  /** The file's text the request was read from (a later text of the file with problems does not replace it). */
  text: string;
  file: string;
  apiId: string;
  /** Folder path inside the API's requests/ folder, '' at its root, '/'-separated. */
  folder: string;
}

/** Items per delta: a big import's thousands of new rows go out as several, like `project.open`'s pages. */
export const DELTA_ITEMS = 500;

/** The parent the APIs sit in, for placing an API among them. */
export const PROJECT_PARENT = '@project';

/** An API, folder or request as the tree has it. */
export type SiblingItem = Extract<TreeItem, { kind: 'api' | 'folder' | 'request' }>;

/** Parsed requests kept, the most recently asked for: a run asks for the same few again and again. */
const PARSED_KEPT = 64;

export function folderId(apiId: string, folder: string): string {
  return `${apiId}/${folder}`;
}

export class ProjectIndex {
  project: ProjectFile = { version: 1, name: 'Project', properties: [] };
  private readonly apis = new Map<string, LoadedApi>();
  private readonly apiByDir = new Map<string, string>();
  private readonly requests = new Map<string, LoadedRequest>();
  /** Request file -> request id: a read-back of thousands of files looks each up at once. */
  private readonly requestByFile = new Map<string, string>();
  /** API id -> set of folder paths (every ancestor included). */
  private readonly folders = new Map<string, Set<string>>();
  /** Folder item id -> its API and path: every folder that has a folder.yaml or holds something. */
  private readonly folderItems = new Map<string, { apiId: string; folder: string }>();
  /** Folder item id -> what its folder.yaml says (its place and settings), for the folders that have one. */
  private readonly folderFiles = new Map<string, FolderFile>();
  /** Folder item id -> how many requests and folders it holds directly; a folder without a file lasts while it holds something. */
  private readonly folderMembers = new Map<string, number>();
  private readonly mocks = new Map<string, string>();
  /** The requests last parsed (`parsedRequest`), oldest first, each with the entry it was parsed from. */
  private readonly parsed = new Map<string, { from: LoadedRequest; request: AnyRequest }>();
  /** Problems by file (relative path), so a fixed file clears its own. */
  private readonly problems = new Map<string, Problem[]>();
  /** What we last read or wrote at each path: the base for comment-keeping rewrites and for telling our own writes from external edits. */
  readonly texts = new Map<string, string>();

  /** The number of the last delta taken; a tree says the delta it includes. */
  private seq = 0;
  /** This opening of the folder, which the numbers count in. */
  private readonly opened = randomBytes(6).toString('base64url');
  /** Tree items (kind and id) changed since the last delta. */
  private readonly touched = new Map<string, { kind: TreeItem['kind']; id: string }>();
  private readonly touchedProblems = new Set<string>();
  private projectTouched = false;
  /** A load is running: see `loading`. */
  private untracked = false;

  constructor(readonly root: string) {}

  // --- the tree ---------------------------------------------------------------------------

  tree(): ProjectTree {
    const items: TreeItem[] = [];
    for (const { api } of this.apis.values()) items.push(this.apiItem(api));
    for (const id of this.folderItems.keys()) items.push(this.folderItem(id)!);
    for (const loaded of this.requests.values()) items.push(requestItem(loaded));
    for (const [id, name] of this.mocks) items.push({ kind: 'mock', id, name });
    items.sort(compareTreeItems);
    return { root: this.root, name: this.project.name, items, properties: this.project.properties, problems: [...this.problems.values()].flat(), opened: this.opened, seq: this.seq };
  }

  /**
   * What changed since the last call, as deltas of at most DELTA_ITEMS items with consecutive
   * numbers (one, possibly empty, when little changed). Items are read as they are now, so a
   * delta applied to a tree that already has it changes nothing.
   */
  takeDeltas(): TreeDelta[] {
    const items: TreeItem[] = [];
    const removed: TreeDelta['removed'] = [];
    for (const { kind, id } of this.touched.values()) {
      const item = this.itemOf(kind, id);
      if (item) items.push(item);
      else removed.push({ kind, id });
    }
    this.touched.clear();
    const deltas: TreeDelta[] = [];
    for (let start = 0; start === 0 || start < items.length; start += DELTA_ITEMS) {
      deltas.push({ root: this.root, opened: this.opened, seq: ++this.seq, items: items.slice(start, start + DELTA_ITEMS), removed: start === 0 ? removed : [] });
    }
    const last = deltas[deltas.length - 1]!;
    if (this.projectTouched) Object.assign(last, { name: this.project.name, properties: this.project.properties });
    if (this.touchedProblems.size > 0) {
      const files = [...this.touchedProblems];
      last.problems = { files, list: files.flatMap((file) => this.problems.get(file) ?? []) };
    }
    this.projectTouched = false;
    this.touchedProblems.clear();
    return deltas;
  }

  /**
   * Runs a project's load, whose items go in the first tree a page gets, never in a delta: nothing
   * is noted as changed meanwhile (a map entry per item cost a 5,000-request open ~15 ms).
   */
  async loading<T>(load: () => Promise<T>): Promise<T> {
    this.untracked = true;
    try {
      return await load();
    } finally {
      this.untracked = false;
      this.touched.clear();
      this.touchedProblems.clear();
      this.projectTouched = false;
    }
  }

  private touch(kind: TreeItem['kind'], id: string): void {
    if (this.untracked) return;
    this.touched.set(treeItemKey({ kind, id }), { kind, id });
  }

  private itemOf(kind: TreeItem['kind'], id: string): TreeItem | null {
    if (kind === 'api') {
      const loaded = this.apis.get(id);
      return loaded ? this.apiItem(loaded.api) : null;
    }
    if (kind === 'folder') return this.folderItem(id);
    if (kind === 'request') {
      const loaded = this.requests.get(id);
      return loaded ? requestItem(loaded) : null;
    }
    const name = this.mocks.get(id);
    return name === undefined ? null : { kind: 'mock', id, name };
  }

  private apiItem(api: Api): TreeItem {
    return { kind: 'api', id: api.id, name: api.name, baseUrl: api.baseUrl, hasDefinition: api.definition !== undefined, ...(api.definition ? { definitionFormat: api.definition.format } : {}), ...(api.order !== undefined ? { order: api.order } : {}) };
  }

  private folderItem(id: string): TreeItem | null {
    const place = this.folderItems.get(id);
    if (!place) return null;
    const slash = place.folder.lastIndexOf('/');
    const order = this.folderFiles.get(id)?.order;
    return { kind: 'folder', id, parent: parentOf(place.apiId, place.folder), name: place.folder.slice(slash + 1), ...(order !== undefined ? { order } : {}) };
  }

  // --- the project file ---------------------------------------------------------------------

  setProject(project: ProjectFile): void {
    this.project = project;
    this.projectTouched = true;
  }

  // --- APIs -------------------------------------------------------------------------------

  api(id: string): LoadedApi | undefined {
    return this.apis.get(id);
  }

  hasApi(id: string): boolean {
    return this.apis.has(id);
  }

  listApis(): Api[] {
    return [...this.apis.values()].map((a) => a.api);
  }

  apiIdAt(dir: string): string | null {
    return this.apiByDir.get(dir) ?? null;
  }

  setApi(api: Api, dir: string): void {
    const before = this.apis.get(api.id);
    if (before && before.dir !== dir) this.apiByDir.delete(before.dir);
    this.apis.set(api.id, { api, dir });
    this.apiByDir.set(dir, api.id);
    this.touch('api', api.id);
  }

  forgetApi(id: string): void {
    const loaded = this.apis.get(id);
    if (!loaded) return;
    this.apis.delete(id);
    this.apiByDir.delete(loaded.dir);
    this.touch('api', id);
    for (const [rid, r] of this.requests) if (r.apiId === id) this.removeRequest(rid);
    for (const folder of this.folders.get(id) ?? []) {
      const fid = folderId(id, folder);
      this.folderItems.delete(fid);
      this.folderFiles.delete(fid);
      this.folderMembers.delete(fid);
      this.touch('folder', fid);
    }
    this.folders.delete(id);
  }

  // --- requests ---------------------------------------------------------------------------

  request(id: string): LoadedRequest | undefined {
    return this.requests.get(id);
  }

  requestAt(file: string): LoadedRequest | undefined {
    const id = this.requestByFile.get(file);
    return id === undefined ? undefined : this.requests.get(id);
  }

  /** The requests of an API, as held (parse each with `parsedRequest`). */
  requestEntriesOf(apiId: string): LoadedRequest[] {
    return [...this.requests.values()].filter((r) => r.apiId === apiId);
  }

  /**
   * The request an entry holds, parsed from its text as the load read it (checked and migrated).
   * The last PARSED_KEPT asked for are kept; `keep: false` for a pass over many (a definition
   * update's), which would only push those out.
   */
  parsedRequest(loaded: LoadedRequest, keep = true): AnyRequest {
    const hit = this.parsed.get(loaded.id);
    if (hit?.from === loaded) {
      this.parsed.delete(loaded.id);
      this.parsed.set(loaded.id, hit);
      return hit.request;
    }
    const rel = this.relPath(loaded.file);
    const kind = kindOfFile(loaded.file);
    const result = kind ? parseYamlFile<AnyRequest>(loaded.text, rel, kind.file, checkAll) : undefined;
    // The text was read into the index only once it parsed and passed this same check.
    if (!result?.ok) throw new ParleyError('internal', `${rel} no longer reads as the request it was loaded as.`);
    const request = forFile(result.value);
    if (!keep) return request;
    this.parsed.delete(loaded.id);
    this.parsed.set(loaded.id, { from: loaded, request });
    if (this.parsed.size > PARSED_KEPT) this.parsed.delete(this.parsed.keys().next().value!);
    return request;
  }

  /** Puts a request in memory, with the folders on its way; refused (the request holding its id) when another file has the id. */
  setRequest(loaded: LoadedRequest): LoadedRequest | null {
    const clash = this.requests.get(loaded.id);
    if (clash && clash.file !== loaded.file) return clash;
    const before = this.requestAt(loaded.file);
    if (before && before.id !== loaded.id) this.removeRequest(before.id);
    const known = clash !== undefined;
    this.requests.set(loaded.id, loaded);
    this.requestByFile.set(loaded.file, loaded.id);
    this.parsed.delete(loaded.id);
    this.touch('request', loaded.id);
    if (!known) this.addMember(loaded.apiId, loaded.folder);
    return null;
  }

  removeRequest(id: string): void {
    const loaded = this.requests.get(id);
    if (!loaded) return;
    this.requests.delete(id);
    this.parsed.delete(id);
    if (this.requestByFile.get(loaded.file) === id) this.requestByFile.delete(loaded.file);
    this.touch('request', id);
    this.dropMember(loaded.apiId, loaded.folder);
  }

  // --- order ------------------------------------------------------------------------------

  /** The items directly in `parent` (an API or folder id; PROJECT_PARENT: the APIs), in sibling order. */
  siblings(parent: string): SiblingItem[] {
    const out: SiblingItem[] = [];
    if (parent === PROJECT_PARENT) {
      for (const { api } of this.apis.values()) out.push(this.apiItem(api) as SiblingItem);
    } else {
      for (const [id, place] of this.folderItems) if (parentOf(place.apiId, place.folder) === parent) out.push(this.folderItem(id) as SiblingItem);
      for (const loaded of this.requests.values()) {
        if ((loaded.folder ? folderId(loaded.apiId, loaded.folder) : loaded.apiId) === parent) out.push(requestItem(loaded) as SiblingItem);
      }
    }
    return out.sort(compareSiblings);
  }

  /** The last valid key among `parent`'s items (null: none has one), for appending there. */
  lastKey(parent: string): string | null {
    const items = this.siblings(parent);
    for (let i = items.length - 1; i >= 0; i--) {
      const key = items[i]!.order;
      if (key !== undefined && isOrderKey(key)) return key;
    }
    return null;
  }

  // --- folders ----------------------------------------------------------------------------

  /** The folders of an API, by path. */
  foldersOf(apiId: string): string[] {
    return [...(this.folders.get(apiId) ?? [])];
  }

  /** A folder's API and path, by its item id; undefined for no such folder. */
  folder(id: string): { apiId: string; folder: string } | undefined {
    return this.folderItems.get(id);
  }

  /** What a folder's folder.yaml says (undefined: it has none). */
  folderFile(id: string): FolderFile | undefined {
    return this.folderFiles.get(id);
  }

  /**
   * The folders from the API's top down to `folder` ('' none), each with what its folder.yaml
   * says (nothing for one without): what a request in `folder` inherits (protocol/inheritance.ts).
   */
  folderChain(apiId: string, folder: string): FolderScope[] {
    if (!folder) return [];
    const segments = folder.split('/');
    return segments.map((name, i) => {
      const id = folderId(apiId, segments.slice(0, i + 1).join('/'));
      return { id, name, file: this.folderFiles.get(id) ?? {} };
    });
  }

  /** A folder's folder.yaml read: the folder exists from now on, placed by its key, with its settings. */
  setFolderFile(apiId: string, folder: string, file: FolderFile): void {
    const id = folderId(apiId, folder);
    this.folderFiles.set(id, file);
    this.ensureFolder(apiId, folder);
    this.touch('folder', id);
  }

  /** A folder's folder.yaml gone: the folder lasts while it holds something. */
  removeFolderFile(apiId: string, folder: string): void {
    const id = folderId(apiId, folder);
    if (!this.folderFiles.delete(id)) return;
    this.touch('folder', id);
    this.release(apiId, folder);
  }

  /** Something now sits directly in `folder` ('' the API's top: nothing to count). */
  private addMember(apiId: string, folder: string): void {
    if (!folder) return;
    this.ensureFolder(apiId, folder);
    const id = folderId(apiId, folder);
    this.folderMembers.set(id, (this.folderMembers.get(id) ?? 0) + 1);
  }

  private dropMember(apiId: string, folder: string): void {
    if (!folder) return;
    const id = folderId(apiId, folder);
    const left = (this.folderMembers.get(id) ?? 1) - 1;
    if (left > 0) this.folderMembers.set(id, left);
    else this.folderMembers.delete(id);
    this.release(apiId, folder);
  }

  /** The folder, and each folder on its way, made known (each new one counted in its parent). */
  private ensureFolder(apiId: string, folder: string): void {
    const id = folderId(apiId, folder);
    if (this.folderItems.has(id)) return;
    let set = this.folders.get(apiId);
    if (!set) this.folders.set(apiId, (set = new Set()));
    set.add(folder);
    this.folderItems.set(id, { apiId, folder });
    this.touch('folder', id);
    const slash = folder.lastIndexOf('/');
    if (slash > 0) this.addMember(apiId, folder.slice(0, slash));
  }

  /** A folder with no file that holds nothing goes, and its parent is asked the same. */
  private release(apiId: string, folder: string): void {
    const id = folderId(apiId, folder);
    if (!this.folderItems.has(id) || this.folderFiles.has(id) || (this.folderMembers.get(id) ?? 0) > 0) return;
    this.folderItems.delete(id);
    this.folders.get(apiId)?.delete(folder);
    this.touch('folder', id);
    const slash = folder.lastIndexOf('/');
    if (slash > 0) this.dropMember(apiId, folder.slice(0, slash));
  }

  // --- mocks ------------------------------------------------------------------------------

  setMock(id: string, name: string): void {
    if (this.mocks.get(id) === name) return;
    this.mocks.set(id, name);
    this.touch('mock', id);
  }

  removeMock(id: string): void {
    if (this.mocks.delete(id)) this.touch('mock', id);
  }

  // --- problems ---------------------------------------------------------------------------

  problemsOf(rel: string): Problem[] | undefined {
    return this.problems.get(rel);
  }

  setProblems(rel: string, problems: Problem[]): void {
    this.problems.set(rel, problems);
    this.touchedProblems.add(rel);
  }

  clearProblems(rel: string): void {
    if (this.problems.delete(rel)) this.touchedProblems.add(rel);
  }

  // --- lookups that fail clearly ------------------------------------------------------------

  loadedApi(id: string): LoadedApi {
    const loaded = this.apis.get(id);
    if (!loaded) throw new ParleyError('not-found', `No API with id ${id} in ${this.project.name}.`);
    return loaded;
  }

  loadedRequest(id: string): LoadedRequest {
    const loaded = this.requests.get(id);
    if (!loaded) throw new ParleyError('not-found', `No request with id ${id} in ${this.project.name}.`);
    return loaded;
  }

  /** Whether `path` is a request file or an api.yaml that is loaded. */
  isKnownPath(path: string, apiFile: string): boolean {
    if (this.requestByFile.has(path)) return true;
    for (const { dir } of this.apis.values()) if (`${dir}${sep}${apiFile}` === path) return true;
    return false;
  }

  /** `path` relative to the project folder, with forward slashes, as problems name files. */
  relPath(path: string): string {
    const prefix = this.root.endsWith(sep) ? this.root : this.root + sep;
    return (path.startsWith(prefix) ? path.slice(prefix.length) : relative(this.root, path)).split(sep).join('/');
  }
}

function requestItem({ id, name, kind, method, orphaned, order, apiId, folder }: LoadedRequest): TreeItem {
  const item: TreeItem = { kind: 'request', id, parent: folder ? folderId(apiId, folder) : apiId, name, method, orphaned };
  if (kind !== 'http') item.requestKind = kind;
  if (order !== undefined) item.order = order;
  return item;
}

/** The tree id of the parent of `folder` in `apiId`: the API itself at its top. */
function parentOf(apiId: string, folder: string): string {
  const slash = folder.lastIndexOf('/');
  return slash < 0 ? apiId : folderId(apiId, folder.slice(0, slash));
}
