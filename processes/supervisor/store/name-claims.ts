/**
 * Where new files and folders of a project go: a user's name becomes a portable file name
 * (`portableFileName`) that clashes with nothing beside it on a case-insensitive, normalising disk
 * (`fileNameKey`), so a project made on Linux clones cleanly onto Windows and macOS; and each new
 * item's place at the end of its parent (`appendKey`). One `NameClaims` serves one batch of
 * changes (an import), so its files never clash among themselves nor share a place; names
 * already on disk are kept exactly as they are.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { fileNameKey, numberedFileName, portableFileName } from '../../../protocol/project/file-names.js';
import { FOLDER_FILE } from '../../../protocol/project/layout.js';
import { keyAfter } from '../../../protocol/project/order-keys.js';

/** A folder's own file takes its name in every folder: no folder (suffix '') may be named so. */
const FOLDER_FILE_KEY = fileNameKey(FOLDER_FILE);

export class NameClaims {
  /** Parent id -> the last key this batch appended there. */
  private readonly appended = new Map<string, string>();

  /**
   * The key of a new item at the end of `parent` (a tree id): after `last()`, the parent's last
   * key now (asked once per parent), and after what this batch appended there before.
   */
  appendKey(parent: string, last: () => string | null): string {
    const key = keyAfter(this.appended.has(parent) ? this.appended.get(parent) : last());
    this.appended.set(parent, key);
    return key;
  }

  /** Folder -> key -> name, of what is on disk there and what this batch claimed. */
  private readonly names = new Map<string, Map<string, string>>();

  /** @param alsoTaken names in a folder that are not on disk yet but will be (saves still queued). */
  constructor(private readonly alsoTaken: (dir: string) => Iterable<string> = () => []) {}

  /**
   * The portable name for a new file `<name><suffix>` (or a folder: suffix '') in `dir`, numbered
   * (`Pets 2`) when it would be one file with something there, or with an earlier claim.
   */
  claim(dir: string, name: string, suffix: string, fallback: string): string {
    const names = this.namesIn(dir);
    const base = portableFileName(name, { fallback });
    let candidate = base;
    const taken = (key: string) => names.has(key) || (suffix === '' && key === FOLDER_FILE_KEY);
    for (let n = 2; taken(fileNameKey(candidate + suffix)); n++) candidate = numberedFileName(base, n);
    names.set(fileNameKey(candidate + suffix), candidate + suffix);
    return candidate;
  }

  /**
   * The folder for `folder` ('/'-separated names) under `root`, refused (`path-escape`) when it
   * leads out: each folder that exists with exactly that name is used as it is; a new one gets a
   * claimed portable name. Asked again for the same folder, it answers the same.
   */
  folder(root: string, folder: string): string {
    const key = `${root}\0${folder}`;
    let dir = this.folders.get(key);
    if (dir === undefined) {
      dir = this.place(root, folder ? relative(root, resolveInside(root, folder, 'folder')).split(sep).join('/') : '');
      this.folders.set(key, dir);
    }
    return dir;
  }

  /** Folders asked for, checked and placed once per batch (an import asks for one per request). */
  private readonly folders = new Map<string, string>();

  private place(root: string, folder: string): string {
    let dir = root;
    for (const segment of folder.split('/')) {
      if (segment === '' || segment === '.') continue;
      const names = this.namesIn(dir);
      const exact = names.get(fileNameKey(segment));
      if (exact === segment) dir = join(dir, segment);
      else {
        const mapped = this.placed.get(join(dir, segment));
        if (mapped) dir = mapped;
        else {
          const placed = join(dir, this.claim(dir, segment, '', 'folder'));
          this.placed.set(join(dir, segment), placed);
          dir = placed;
        }
      }
    }
    return dir;
  }

  /** Folders asked for by one name and placed under another (`pets` placed as `pets 2`). */
  private readonly placed = new Map<string, string>();

  private namesIn(dir: string): Map<string, string> {
    let names = this.names.get(dir);
    if (!names) {
      names = new Map();
      let listed: string[] = [];
      try {
        listed = readdirSync(dir);
      } catch {
        // A folder not made yet holds nothing.
      }
      for (const name of [...listed, ...this.alsoTaken(dir)]) names.set(fileNameKey(name), name);
      this.names.set(dir, names);
    }
    return names;
  }
}
