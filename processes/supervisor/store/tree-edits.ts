/**
 * Tree management of an open project (docs/project-files.md, "Tree edits"): New folder, rename,
 * delete (handing back what Undo needs to put every file back), duplicate and move. Each is one
 * atomic commit of the store, so a kill -9 part-way leaves the old tree or the new one. A moved
 * request is its file moved: its id stays (its History and an open tab follow it), its examples
 * move beside it. A move rewrites the moved items' files only, plus the few neighbours whose key
 * must change for the place to hold (order-keys.ts `placeAt`).
 */
import { readFile, readdir, rmdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { ParleyError, quote } from '../../../protocol/errors.js';
import { newId } from '../../../protocol/ids.js';
import type { Api } from '../../../protocol/model/api.js';
import { requestForFile, type Request } from '../../../protocol/model/request.js';
import { EXAMPLES_SUFFIX, examplesDirOf } from '../../../protocol/project/examples.js';
import { fileNameKey, portableFileName } from '../../../protocol/project/file-names.js';
import { APIS_DIR, FOLDER_FILE, PROJECT_FILE, REQUESTS_DIR, REQUEST_SUFFIX, folderKind, requestKind } from '../../../protocol/project/layout.js';
import type { FolderFile } from '../../../protocol/model/project.js';
import { placeAt } from '../../../protocol/project/order-keys.js';
import { childrenByParent } from '../../../protocol/project/tree-order.js';
import { parseYamlFile, writeYaml } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { nodeFs, type FileChange } from './atomic.js';
import { PROJECT_PARENT, folderId, type ProjectIndex, type SiblingItem } from './project-index.js';
import type { ProjectStore } from './project-store.js';

export type TreeRef = { kind: 'api' | 'folder' | 'request'; id: string };

/** What a delete took away, byte for byte, for Undo to put back. */
export interface Removed {
  files: { path: string; content: Uint8Array }[];
  /** What was deleted, for messages ("2 requests and a folder"). */
  items: TreeRef[];
}

/** Where a move puts items: in `parent` (PROJECT_PARENT for APIs), before the sibling `before` (null: at the end). */
export interface MoveTarget {
  parent: string;
  before: string | null;
}

export class TreeEdits {
  constructor(
    private readonly store: ProjectStore,
    private readonly index: ProjectIndex,
  ) {}

  private get root(): string {
    return this.index.root;
  }

  // --- new, rename ------------------------------------------------------------------------

  /** A new folder at the end of `parent` (an API or folder id), its name made portable and numbered when taken; its id. */
  async createFolder(parent: string, name: string): Promise<string> {
    const { apiId } = this.store.parseParent(parent);
    const dir = this.dirOf(parent);
    const claims = this.store.nameClaims();
    const made = join(dir, claims.claim(dir, requireName(name, 'folder'), '', 'folder'));
    const order = claims.appendKey(parent, () => this.index.lastKey(parent));
    await this.store.commit([this.folderOrderChange(made, order)]);
    return this.folderIdAt(apiId, made);
  }

  /** A folder renamed: its folder moved, every file in it with it (ids kept); its new id. */
  async renameFolder(id: string, name: string): Promise<string> {
    const place = this.folderPlace(id);
    const from = this.folderDir(place.apiId, place.folder);
    const wanted = portableFileName(requireName(name, 'folder'), { fallback: 'folder' });
    if (wanted === basename(from)) return id;
    const to = join(dirname(from), wanted);
    await this.refuseTaken(dirname(from), wanted, basename(from));
    const changes = await this.relocated(from, to, new Map());
    await this.store.commit(changes);
    await removeEmptyDirs([from]);
    return this.folderIdAt(place.apiId, to);
  }

  async renameApi(id: string, name: string): Promise<void> {
    const api = this.store.getApi(id);
    await this.store.commit([this.store.apiChange({ ...api, name: requireName(name, 'API') })]);
  }

  async renameRequest(id: string, name: string): Promise<void> {
    const request = this.store.getRequest(id);
    await this.store.commit([this.store.requestChange({ ...request, name: requireName(name, 'request') })]);
  }

  async renameProject(name: string): Promise<void> {
    await this.store.commit([this.store.yamlChange(join(this.root, PROJECT_FILE), { ...this.index.project, name: requireName(name, 'project') })]);
  }

  // --- delete and undo --------------------------------------------------------------------

  /**
   * Deletes APIs, folders and requests (a request with its examples; a folder or API with
   * everything in it) in one commit; hands back every file's bytes for `restore`.
   */
  async delete(refs: TreeRef[]): Promise<Removed> {
    const paths = new Set<string>();
    const dirs: string[] = [];
    for (const ref of this.outermost(refs)) {
      if (ref.kind === 'request') {
        const file = this.store.requestFile(ref.id);
        paths.add(file);
        const examples = examplesDirOf(file);
        for (const path of await filesUnder(examples)) paths.add(path);
        dirs.push(examples);
      } else {
        const dir = ref.kind === 'api' ? this.store.apiDir(ref.id) : this.folderDir(this.folderPlace(ref.id).apiId, this.folderPlace(ref.id).folder);
        for (const path of await filesUnder(dir)) paths.add(path);
        dirs.push(dir);
      }
    }
    const files = await Promise.all([...paths].sort().map(async (path) => ({ path, content: new Uint8Array(await readFile(path)) })));
    await this.store.commit(files.map((f) => ({ path: f.path, content: null })));
    await removeEmptyDirs(dirs);
    return { files, items: refs };
  }

  /** Puts back what `delete` took, byte for byte, in one commit; refused when a file of it was made again meanwhile. */
  async restore(removed: Removed): Promise<void> {
    for (const { path } of removed.files) {
      if (await nodeFs.exists(path)) throw new ParleyError('conflict', `${this.index.relPath(path)} was made again since the delete, so nothing was put back.`);
    }
    await this.store.commit(removed.files.map(({ path, content }) => ({ path, content: isTextFile(path) ? new TextDecoder().decode(content) : content })));
  }

  // --- duplicate --------------------------------------------------------------------------

  /**
   * A copy of a request (with its examples, as Postman's Duplicate keeps them) or of a folder (its
   * requests with new ids, and their examples), placed right after the original; its id.
   */
  async duplicate(ref: TreeRef): Promise<string> {
    if (ref.kind === 'api') throw new ParleyError('bad-input', 'An API cannot be duplicated here: import its definition again to make a second one.');
    const parent = this.parentOf(ref);
    const siblings = this.index.siblings(parent);
    const at = siblings.findIndex((s) => s.kind === ref.kind && s.id === ref.id);
    const { keys, rekeyed } = placeAt(siblings, at + 1, 1);
    const claims = this.store.nameClaims();
    const changes = this.orderChanges(rekeyed);
    const dir = this.dirOf(parent);
    if (ref.kind === 'request') {
      const request = this.store.getRequest(ref.id);
      const copy: Request = { ...request, id: newId('r'), name: `${request.name} copy`, order: keys[0]! };
      const name = claims.claim(dir, copy.name, REQUEST_SUFFIX, 'request');
      const file = join(dir, name + REQUEST_SUFFIX);
      changes.push(this.store.yamlChange(file, requestForFile(copy)));
      const examples = examplesDirOf(this.store.requestFile(ref.id));
      for (const path of await filesUnder(examples)) changes.push({ path: join(examplesDirOf(file), relative(examples, path)), content: { copyFrom: path } });
      await this.store.commit(changes);
      return copy.id;
    }
    const place = this.folderPlace(ref.id);
    const from = this.folderDir(place.apiId, place.folder);
    const to = join(dir, claims.claim(dir, `${basename(from)} copy`, '', 'folder'));
    for (const path of await filesUnder(from)) {
      const rel = relative(from, path);
      const target = join(to, rel);
      // Examples are copied as they are (they name no request id); every copied request gets an id of its own.
      if (rel.split(sep).some((segment) => segment.endsWith(EXAMPLES_SUFFIX))) {
        changes.push({ path: target, content: { copyFrom: path } });
      } else if (path.endsWith(REQUEST_SUFFIX)) {
        const text = await readFile(path, 'utf8');
        const parsed = parseYamlFile<Request>(text, this.index.relPath(path), requestKind, checkAll);
        if (!parsed.ok) continue;
        changes.push({ path: target, content: writeYaml(requestForFile({ ...parsed.value, id: newId('r') }), text) });
      } else if (basename(path) === FOLDER_FILE) {
        if (rel !== FOLDER_FILE) changes.push(this.folderCopyChange(path, target));
      }
    }
    const own = join(from, FOLDER_FILE);
    changes.push(this.folderCopyChange(own, join(to, FOLDER_FILE), keys[0]!));
    await this.store.commit(changes);
    return this.folderIdAt(place.apiId, to);
  }

  // --- move -------------------------------------------------------------------------------

  /**
   * Moves items (in the tree's order, whatever order they were picked in) to `target`: within
   * their parent only their keys change; into another folder or API their files move, ids kept.
   * Returns each item's id before and after (a folder's id is its path).
   */
  async move(refs: TreeRef[], target: MoveTarget): Promise<{ from: string; to: string }[]> {
    const moving = this.inTreeOrder(this.outermost(refs));
    if (moving.length === 0) return [];
    const apis = moving.filter((r) => r.kind === 'api');
    if (apis.length > 0 && (apis.length !== moving.length || target.parent !== PROJECT_PARENT)) {
      throw new ParleyError('bad-input', 'An API moves only among the project\'s APIs, and folders and requests only into an API or a folder.');
    }
    if (apis.length === 0) this.store.parseParent(target.parent);
    for (const ref of moving) {
      if (ref.kind === 'folder' && (target.parent === ref.id || target.parent.startsWith(`${ref.id}/`))) {
        throw new ParleyError('bad-input', `The folder ${quote(this.folderPlace(ref.id).folder)} cannot go inside itself.`);
      }
    }
    const key = (r: { kind: string; id: string }) => `${r.kind}\0${r.id}`;
    const moved = new Set(moving.map(key));
    const siblings = this.index.siblings(target.parent).filter((s) => !moved.has(key(s)));
    const at = target.before === null ? siblings.length : siblings.findIndex((s) => s.id === target.before);
    if (at < 0) throw new ParleyError('not-found', `Nothing with id ${quote(target.before ?? '')} is in the place to move to.`);
    const { keys, rekeyed } = placeAt(siblings, at, moving.length);
    const changes = this.orderChanges(rekeyed);
    const claims = this.store.nameClaims();
    const targetDir = apis.length > 0 ? '' : this.dirOf(target.parent);
    const emptied: string[] = [];
    const ids: { from: string; to: string }[] = [];
    for (const [i, ref] of moving.entries()) {
      const order = keys[i]!;
      if (ref.kind === 'api') {
        changes.push(this.store.apiChange({ ...this.store.getApi(ref.id), order } satisfies Api));
        ids.push({ from: ref.id, to: ref.id });
      } else if (ref.kind === 'request') {
        const file = this.store.requestFile(ref.id);
        const request = { ...this.store.getRequest(ref.id), order };
        if (dirname(file) === targetDir) changes.push(this.store.requestChange(request));
        else {
          const to = join(targetDir, claims.claim(targetDir, basename(file).slice(0, -REQUEST_SUFFIX.length), REQUEST_SUFFIX, 'request') + REQUEST_SUFFIX);
          changes.push({ path: file, content: null }, { path: to, content: writeYaml(requestForFile(request), this.index.texts.get(file)) });
          changes.push(...(await this.relocated(examplesDirOf(file), examplesDirOf(to), new Map())));
          emptied.push(examplesDirOf(file));
        }
        ids.push({ from: ref.id, to: ref.id });
      } else {
        const place = this.folderPlace(ref.id);
        const from = this.folderDir(place.apiId, place.folder);
        const own = this.folderOrderChange(from, order);
        if (dirname(from) === targetDir) {
          changes.push(own);
          ids.push({ from: ref.id, to: ref.id });
        } else {
          const to = join(targetDir, claims.claim(targetDir, basename(from), '', 'folder'));
          changes.push(...(await this.relocated(from, to, new Map([[FOLDER_FILE, own.content as string]]))));
          emptied.push(from);
          ids.push({ from: ref.id, to: this.folderIdAt(this.store.parseParent(target.parent).apiId, to) });
        }
      }
    }
    await this.store.commit(changes);
    await removeEmptyDirs(emptied);
    return ids;
  }

  // --- helpers ----------------------------------------------------------------------------

  /**
   * The changes that move every file under `from` to the same place under `to` (deletes first,
   * so the read-back drops a request before it finds it again), `replace` giving new contents by
   * path relative to `from` (a file it names that is not there is made).
   */
  private async relocated(from: string, to: string, replace: Map<string, string>): Promise<FileChange[]> {
    const deletes: FileChange[] = [];
    const writes: FileChange[] = [];
    const seen = new Set<string>();
    for (const path of await filesUnder(from)) {
      const rel = relative(from, path);
      seen.add(rel);
      deletes.push({ path, content: null });
      const text = replace.get(rel) ?? (isTextFile(path) ? this.index.texts.get(path) : undefined);
      writes.push({ path: join(to, rel), content: text ?? { copyFrom: path } });
    }
    for (const [rel, text] of replace) if (!seen.has(rel)) writes.push({ path: join(to, rel), content: text });
    return [...deletes, ...writes];
  }

  /** The files rewritten for siblings that take a new key. */
  private orderChanges(rekeyed: Map<SiblingItem, string>): FileChange[] {
    const changes: FileChange[] = [];
    for (const [item, order] of rekeyed) {
      if (item.kind === 'api') changes.push(this.store.apiChange({ ...this.store.getApi(item.id), order }));
      else if (item.kind === 'request') changes.push(this.store.requestChange({ ...this.store.getRequest(item.id), order }));
      else {
        const place = this.folderPlace(item.id);
        changes.push(this.folderOrderChange(this.folderDir(place.apiId, place.folder), order));
      }
    }
    return changes;
  }

  /** The folder.yaml of `dir` with `order` (made when the folder has none; the rest of one it has kept, comments too). */
  private folderOrderChange(dir: string, order: string): FileChange {
    const path = join(dir, FOLDER_FILE);
    const text = this.index.texts.get(path);
    const parsed = text === undefined ? null : parseYamlFile<FolderFile>(text, this.index.relPath(path), folderKind, checkAll);
    const file: FolderFile = parsed?.ok ? { ...parsed.value, order } : { version: 1, order };
    return this.store.yamlChange(path, file);
  }

  /**
   * A copy of a folder.yaml at `target` (with the place `order` when given). It leaves out the
   * folder's keychain id: a secret typed into the copy's auth later is stored under an id of its
   * own rather than over the original's (the references it copied still read the original's).
   */
  private folderCopyChange(path: string, target: string, order?: string): FileChange {
    const text = this.index.texts.get(path);
    const parsed = text === undefined ? null : parseYamlFile<FolderFile>(text, this.index.relPath(path), folderKind, checkAll);
    if (!parsed?.ok) return order === undefined ? { path: target, content: { copyFrom: path } } : this.store.yamlChange(target, { version: 1, order } satisfies FolderFile);
    const { id: _id, ...copy } = parsed.value;
    if (order === undefined && _id === undefined) return { path: target, content: { copyFrom: path } };
    return { path: target, content: writeYaml(order === undefined ? copy : { ...copy, order }, text) };
  }

  /** Refs without those inside another one given (a request in a folder that goes as a whole), unknown ones refused. */
  private outermost(refs: TreeRef[]): TreeRef[] {
    const folders = refs.filter((r) => r.kind === 'folder').map((r) => r.id);
    const apis = new Set(refs.filter((r) => r.kind === 'api').map((r) => r.id));
    const out: TreeRef[] = [];
    const seen = new Set<string>();
    for (const ref of refs) {
      if (seen.has(`${ref.kind}\0${ref.id}`)) continue;
      seen.add(`${ref.kind}\0${ref.id}`);
      if (ref.kind === 'api') {
        this.store.getApi(ref.id);
        out.push(ref);
        continue;
      }
      const parent = this.parentOf(ref);
      const apiId = ref.kind === 'folder' ? this.folderPlace(ref.id).apiId : this.store.apiOf(ref.id).id;
      const inside = apis.has(apiId) || folders.some((f) => f !== ref.id && (parent === f || parent.startsWith(`${f}/`)));
      if (!inside) out.push(ref);
    }
    return out;
  }

  /** `refs` in the order the tree shows them. */
  private inTreeOrder(refs: TreeRef[]): TreeRef[] {
    const { children, roots } = childrenByParent(this.index.tree());
    const rank = new Map<string, number>();
    const walk = (id: string) => {
      for (const item of children.get(id) ?? []) {
        rank.set(`${item.kind}\0${item.id}`, rank.size);
        if (item.kind === 'folder') walk(item.id);
      }
    };
    for (const api of roots) {
      rank.set(`api\0${api.id}`, rank.size);
      walk(api.id);
    }
    return [...refs].sort((a, b) => (rank.get(`${a.kind}\0${a.id}`) ?? 0) - (rank.get(`${b.kind}\0${b.id}`) ?? 0));
  }

  private parentOf(ref: TreeRef): string {
    if (ref.kind === 'api') return PROJECT_PARENT;
    if (ref.kind === 'folder') {
      const { apiId, folder } = this.folderPlace(ref.id);
      const slash = folder.lastIndexOf('/');
      return slash < 0 ? apiId : folderId(apiId, folder.slice(0, slash));
    }
    const file = this.store.requestFile(ref.id);
    const apiId = this.store.apiOf(ref.id).id;
    return this.folderIdAt(apiId, dirname(file));
  }

  private folderPlace(id: string): { apiId: string; folder: string } {
    const place = this.index.folder(id);
    if (!place) throw new ParleyError('not-found', `No folder with id ${quote(id)} in ${this.index.project.name}.`);
    return place;
  }

  private folderDir(apiId: string, folder: string): string {
    return join(this.store.apiDir(apiId), REQUESTS_DIR, ...folder.split('/'));
  }

  /** The folder on disk that `parent` (PROJECT_PARENT, an API or a folder id) is. */
  private dirOf(parent: string): string {
    if (parent === PROJECT_PARENT) return join(this.root, APIS_DIR);
    const { apiId, folder } = this.store.parseParent(parent);
    return folder ? this.folderDir(apiId, folder) : join(this.store.apiDir(apiId), REQUESTS_DIR);
  }

  private folderIdAt(apiId: string, dir: string): string {
    const requestsDir = join(this.store.apiDir(apiId), REQUESTS_DIR);
    return dir === requestsDir ? apiId : folderId(apiId, relative(requestsDir, dir).split(sep).join('/'));
  }

  /** Refused when `name` is taken in `dir` on a case-insensitive disk, by anything but `self`. */
  private async refuseTaken(dir: string, name: string, self: string): Promise<void> {
    const key = fileNameKey(name);
    const taken = (await readdir(dir).catch(() => [] as string[])).some((n) => n !== self && fileNameKey(n) === key);
    if (taken || key === fileNameKey(FOLDER_FILE)) throw new ParleyError('conflict', `${this.index.relPath(dir)} already holds ${quote(name)}: choose another name.`);
  }
}

function requireName(name: string, what: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new ParleyError('bad-input', `A ${what} needs a name.`);
  return trimmed;
}

/** Project files Parley reads as text (kept as text in the index, so a rewrite keeps comments). */
function isTextFile(path: string): boolean {
  return path.endsWith('.yaml');
}

/**
 * Every file under `dir` (none when it does not exist). A link is refused: a folder that holds one
 * is not Parley's to move or delete (a link out of the project is never followed).
 */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
    throw err;
  });
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) throw new ParleyError('conflict', `${path} is a link: move or delete that folder outside Parley.`);
    // A save of ours under way leaves temps and backups for a moment; they are not the folder's.
    if (entry.isFile() && !(entry.name.startsWith('.') && /\.(tmp|bak)$/.test(entry.name))) files.push(path);
  }
  return files.sort();
}

/** Folders a delete or move emptied, deepest first; one that still holds something stays. */
async function removeEmptyDirs(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    const all = [dir, ...(await subDirs(dir))].sort((a, b) => b.length - a.length);
    for (const d of all) await rmdir(d).catch(() => {});
  }
}

async function subDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name));
}
