/**
 * Reads one project file into the index: parsed, validated and migrated, or its problems recorded
 * by file. Used by the load, by a save's read-back (from the text it wrote, without reading the
 * disk again) and by the watcher (from the text it read).
 */
import { readFile as readFileCallback, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { Problem } from '../../../protocol/model/common.js';
import { kindOf, kindOfFile, type AnyRequest } from '../../../protocol/kinds/index.js';
import { API_FILE, APIS_DIR, FOLDER_FILE, MOCKS_DIR, PROJECT_FILE, REQUESTS_DIR, apiKind, folderKind, projectKind } from '../../../protocol/project/layout.js';
import { folderId } from './project-index.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { parseYamlFile, type FileKind } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';
import type { FsOps } from './atomic.js';
import type { ProjectIndex } from './project-index.js';

/** A loaded API's id and folders, worked out once for all its request files. */
export interface ApiPlace {
  id: string;
  dir: string;
  requestsDir: string;
}

/** A file's text as a save of ours just wrote it; null: the save deleted it; undefined: not known, read the disk. */
export type KnownText = string | null | undefined;

const check = (schema: Parameters<typeof checkAll>[0], value: unknown) => checkAll(schema, value);

export class ProjectReader {
  constructor(
    private readonly index: ProjectIndex,
    private readonly fs: FsOps,
    private readonly log: (line: string) => void,
    /** Loads an API folder that appeared (its api.yaml and request files), skipping `skip`. */
    private readonly loadApiDir: (dir: string, skip?: ReadonlySet<string>) => Promise<void>,
  ) {}

  private get root(): string {
    return this.index.root;
  }

  /**
   * Re-reads one path (or takes `known`, what a save of ours just wrote there) and updates the index;
   * returns the ids whose state changed. `skip`: files a save is reading back itself, left out when
   * a new API folder is loaded.
   */
  async reloadPath(path: string, known?: KnownText, skip?: ReadonlySet<string>): Promise<string[]> {
    const rel = this.index.relPath(path);
    if (rel === PROJECT_FILE) {
      const parsed = await this.readParsed(path, projectKind, known);
      if (parsed) this.index.setProject(parsed);
      return ['project'];
    }
    const parts = rel.split('/');
    if (parts[0] === APIS_DIR && parts.length === 3 && parts[2] === API_FILE) {
      const before = this.index.apiIdAt(dirname(path));
      const exists = known === undefined ? await this.fs.exists(path) : known !== null;
      if (!exists) {
        if (before) this.index.forgetApi(before);
        this.index.clearProblems(rel);
        return before ? [before] : [];
      }
      if (!before) {
        await this.loadApiDir(dirname(path), skip);
        const id = this.index.apiIdAt(dirname(path));
        return id ? [id] : [];
      }
      const id = await this.loadApiFile(path, known);
      return id ? [id] : [];
    }
    const requestKind = parts[0] === APIS_DIR && parts[2] === REQUESTS_DIR ? kindOfFile(rel) : undefined;
    if (requestKind) {
      const existing = this.index.requestAt(path);
      const exists = known === undefined ? await this.fs.exists(path) : known !== null;
      if (!exists) {
        this.index.clearProblems(rel);
        if (existing) {
          this.index.removeRequest(existing.id);
          this.index.texts.delete(path);
          return [existing.id];
        }
        return [];
      }
      const request = await this.readParsed(path, requestKind.file, known);
      const id = request ? this.addRequest(path, request) : null;
      return id ? [id] : existing ? [existing.id] : [];
    }
    if (parts[0] === APIS_DIR && parts[2] === REQUESTS_DIR && parts.length >= 5 && parts[parts.length - 1] === FOLDER_FILE) {
      const apiId = this.index.apiIdAt(join(this.root, APIS_DIR, parts[1]!));
      if (!apiId) return [];
      const folder = parts.slice(3, -1).join('/');
      const exists = known === undefined ? await this.fs.exists(path) : known !== null;
      const file = exists ? await this.readParsed(path, folderKind, known) : null;
      if (!exists) this.index.clearProblems(rel);
      if (file) this.index.setFolderFile(apiId, folder, file);
      else this.index.removeFolderFile(apiId, folder);
      if (!exists) this.index.texts.delete(path);
      return [folderId(apiId, folder)];
    }
    if (parts[0] === MOCKS_DIR && parts.length >= 2) {
      const name = parts[1]!;
      if (await this.fs.exists(join(this.root, MOCKS_DIR, name))) this.index.setMock(`m:${name}`, name);
      else this.index.removeMock(`m:${name}`);
      return [`m:${name}`];
    }
    return [];
  }

  async loadApiFile(path: string, known?: KnownText): Promise<string | null> {
    const api = await this.readParsed(path, apiKind, known);
    if (!api) return null;
    const clash = this.index.api(api.id);
    if (clash && clash.dir !== dirname(path)) {
      this.addProblem(path, { rule: 'duplicate-id', message: `API id ${api.id} is also used by ${relative(this.root, clash.dir)}; this copy was not loaded.` });
      return null;
    }
    this.index.setApi(api, dirname(path));
    return api.id;
  }

  /** A folder.yaml read at load (`folder` its path in the API); a broken one leaves the folder placed by name. */
  addFolderFile(path: string, text: string | NodeJS.ErrnoException, api: ApiPlace): void {
    const folder = folderOf(api.requestsDir, path);
    const file = this.parsedText(path, text, folderKind);
    if (file && folder) this.index.setFolderFile(api.id, folder, file);
  }

  /**
   * Puts a request just read in memory: what the tree shows of `file` (its parsed value) and the
   * text it was parsed from, the one just recorded for `path` (`recordParsed`), which the request
   * is parsed from again when asked for (ProjectIndex.parsedRequest); `file` itself is let go.
   * Refused (null) outside a loaded API or when its id is taken by another file.
   */
  addRequest(path: string, file: AnyRequest, api?: ApiPlace): string | null {
    const text = this.index.texts.get(path);
    if (text === undefined) throw new ParleyError('internal', `${this.index.relPath(path)} was added to the project with no text read for it.`);
    const apiDir = api?.dir ?? path.split(sep).slice(0, join(this.root, APIS_DIR).split(sep).length + 1).join(sep);
    const apiId = api?.id ?? this.index.apiIdAt(apiDir);
    if (!apiId) return null;
    const folder = folderOf(api?.requestsDir ?? join(apiDir, REQUESTS_DIR), path);
    const { id, name, order } = file;
    const kind = kindOf(file);
    const clash = this.index.setRequest({ id, name, kind: kind.id, method: kind.badge(file), orphaned: file.orphaned === true, ...(order !== undefined ? { order } : {}), text, file: path, apiId, folder });
    if (clash) {
      this.addProblem(path, { rule: 'duplicate-id', message: `Request id ${id} is also used by ${relative(this.root, clash.file)}; this copy was not loaded.` });
      return null;
    }
    return id;
  }

  private async readParsed<T>(path: string, kind: FileKind<T>, known?: KnownText): Promise<T | null> {
    // A link out of the folder is not read (the bulk load of request files skips links already).
    // Our own writes never go through one (the save refuses such folders first).
    if (typeof known !== 'string') {
      try {
        resolveInside(this.root, this.index.relPath(path), `${kind.label} file`);
      } catch (err) {
        if (!hasCode(err, 'path-escape')) throw err;
        this.addProblem(path, { rule: 'path-escape', message: (err as Error).message });
        return null;
      }
    }
    return this.parsedText(path, typeof known === 'string' ? known : await readText(path), kind);
  }

  /** The value of a file read as `text` (or the error reading it), its problems recorded by file. */
  parsedText<T>(path: string, text: string | NodeJS.ErrnoException, kind: FileKind<T>): T | null {
    const rel = this.index.relPath(path);
    if (typeof text !== 'string') {
      this.index.setProblems(rel, [{ file: rel, rule: 'read', message: `${rel} could not be read (${text.code ?? text.message}).` }]);
      return null;
    }
    return this.recordParsed(path, rel, text, parseYamlFile<T>(text, rel, kind, check));
  }

  /** Keeps a file's text and value, or records the problems it has. */
  recordParsed<T>(path: string, rel: string, text: string, parsed: { ok: true; value: T } | { ok: false; problems: Problem[] }): T | null {
    this.index.texts.set(path, text);
    if (!parsed.ok) {
      this.index.setProblems(rel, parsed.problems);
      this.log(parsed.problems.map((p) => `${p.message}${p.line ? ` (line ${p.line})` : ''}`).join('\n'));
      return null;
    }
    this.index.clearProblems(rel);
    return parsed.value;
  }

  addProblem(path: string, problem: Omit<Problem, 'file'>): void {
    const rel = this.index.relPath(path);
    this.index.setProblems(rel, [{ file: rel, ...problem }]);
  }
}

/** A request file's folder inside its API's requests/ folder: '' at its root, '/'-separated. */
function folderOf(requestsDir: string, file: string): string {
  const dir = dirname(file);
  if (dir === requestsDir) return '';
  const inside = dir.startsWith(requestsDir + sep) ? dir.slice(requestsDir.length + 1) : relative(requestsDir, dir);
  return sep === '/' ? inside : inside.split(sep).join('/');
}

export function readTextSync(path: string): string | NodeJS.ErrnoException {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}

/** A file's text, or the error reading it (the callback `readFile`: `fs/promises`' takes several promise steps per file). */
export function readText(path: string): Promise<string | NodeJS.ErrnoException> {
  return new Promise((resolve) => readFileCallback(path, 'utf8', (err, text) => resolve(err ?? text)));
}
