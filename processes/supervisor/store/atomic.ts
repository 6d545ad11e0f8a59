/**
 * Atomic multi-file saves that survive a crash. A commit first writes a journal (the files it
 * will touch) and fsyncs it; then every new file is written to a temp file in its own folder and
 * fsynced; then the targets are swapped in by rename, the old files kept aside as backups (hard
 * links, so no target is ever missing); then the journal is marked done, and only then are the
 * backups removed.
 *
 * Any failure rolls back in place. A process killed part-way leaves its journal behind, and the
 * next open of the folder (`recoverCommits`) finishes the job: a journal not yet marked done is
 * undone (backups go back, new files and temps are removed), a done one is cleaned up. Either
 * way every file ends exactly as it was before the commit or exactly as the commit wrote it,
 * with no temp or backup left over. docs/project-files.md has the details.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants, createReadStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';
import { isInsideFolder, resolveInside } from '../../../protocol/project/safe-path.js';
import { forEachLimited } from './limited.js';

export interface FileChange {
  path: string;
  /**
   * New content; a file to copy (streamed, never read whole: a body file can be large); a file
   * staged for this commit to move in (an import's, written as it arrived; `sha256` of its bytes,
   * from when it was written), which the commit takes, so a failed commit leaves it gone; or null
   * to delete the file.
   */
  content: string | Uint8Array | { copyFrom: string } | { moveFrom: string; sha256: string } | null;
  /** Permissions of a new file written from content (0o644 when absent); 0o600 for what only its user may read (the session, the vault). */
  mode?: number;
}

/** The file operations a save uses, injectable so tests can make any one of them fail or stop the process. */
export interface FsOps {
  /** Writes a new file (never over an existing one) with `mode` (default 0o644) and fsyncs it. */
  writeSynced(path: string, data: string | Uint8Array, mode?: number): Promise<void>;
  /** Copies `from` to a new file `to` (never over an existing one) and fsyncs it. */
  copySynced(from: string, to: string): Promise<void>;
  /** Moves `from` to `to` (a name nothing has: a commit's temp), copying across file systems, and fsyncs it there. */
  moveSynced(from: string, to: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** A second name for a file (a hard link), so a backup can be made without the target going missing. */
  link(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string): Promise<string | undefined>;
  rmdir(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  syncDir(path: string): Promise<void>;
}

export const nodeFs: FsOps = {
  async writeSynced(path, data, mode = 0o644) {
    // Made with its mode from the start: a private file is never readable by others, even briefly.
    const handle = await fsp.open(path, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async copySynced(from, to) {
    await fsp.copyFile(from, to, fsConstants.COPYFILE_EXCL);
    const handle = await fsp.open(to, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async moveSynced(from, to) {
    try {
      await fsp.rename(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fsp.copyFile(from, to, fsConstants.COPYFILE_EXCL);
      await fsp.unlink(from);
    }
    const handle = await fsp.open(to, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => fsp.rename(from, to),
  link: (from, to) => fsp.link(from, to),
  unlink: (path) => fsp.unlink(path),
  mkdir: (path) => fsp.mkdir(path, { recursive: true }),
  rmdir: (path) => fsp.rmdir(path),
  exists: (path) =>
    fsp.lstat(path).then(
      () => true,
      () => false,
    ),
  async syncDir(path) {
    const handle = await fsp.open(path, 'r');
    try {
      await handle.sync();
    } catch {
      // Some filesystems refuse fsync on a directory; the renames are still atomic there.
    } finally {
      await handle.close();
    }
  },
};

export interface CommitOptions {
  /**
   * The folder whose `recoverCommits` finds this commit's journal after a crash: the project
   * folder, the workspace folder. Every changed file must be inside it.
   */
  journalDir: string;
  fs?: FsOps;
}

/** `.parley-commit.<tag>.json` while a commit runs, `.parley-commit.<tag>.done` once every file is in place. */
const JOURNAL = /^\.parley-commit\.([0-9a-f]{16})\.(json|done)$/;
const JOURNAL_VERSION = 1;
/** A journal of a live process elsewhere is left alone this long; after that its writer is taken to be gone (a pid reused). */
const LIVE_JOURNAL_MS = 10 * 60_000;

/** One file of a commit, as the journal records it (paths relative to the journal's folder, '/'-separated). */
interface JournalStep {
  target: string;
  /** Whether the target existed when the commit began (then it is moved aside to the backup). */
  existed: boolean;
  /** SHA-256 of the new content, null for a delete: a new file is only removed when it still holds what the commit wrote. */
  sha256: string | null;
}

interface Journal {
  version: number;
  pid: number;
  host: string;
  steps: JournalStep[];
  /** Folders the commit creates (the topmost missing one per target), removed again on undo if empty. */
  created: string[];
}

/** Journals of commits running in this process, which recovery must not touch. */
const running = new Set<string>();

const tempOf = (target: string, tag: string) => join(dirname(target), `.${basename(target)}.${tag}.tmp`);
const backupOf = (target: string, tag: string) => join(dirname(target), `.${basename(target)}.${tag}.bak`);

export async function commitFiles(changes: FileChange[], options: CommitOptions): Promise<void> {
  const fs = options.fs ?? nodeFs;
  const root = options.journalDir;
  const tag = randomBytes(8).toString('hex');
  const files = changes.map((c) => ({ ...c, rel: relPath(root, c.path) }));
  const journalFile = join(root, `.parley-commit.${tag}.json`);
  let journal: Journal | null = null;
  running.add(journalFile);
  try {
    try {
      // Every step of a big save runs a bounded number of files at once (limited.ts): one file
      // after another, 5,000 new files took 22 s, nearly all of it waiting for one fsync at a time.
      const missing = new Map<string, Promise<boolean>>();
      const isMissing = (d: string) => {
        let known = missing.get(d);
        if (!known) missing.set(d, (known = fs.exists(d).then((there) => !there)));
        return known;
      };
      // A file in a folder that does not exist yet (an import's new API) cannot exist either: one
      // check of its folder instead of one per file.
      const steps: JournalStep[] = new Array(files.length);
      await forEachLimited(files, async (file, i) => {
        const existed = !(await isMissing(dirname(file.path))) && (await fs.exists(file.path));
        steps[i] = { target: file.rel, existed, sha256: await hashOfContent(file.content) };
      });
      const dirs = [...new Set(files.filter((f) => f.content !== null).map((f) => dirname(f.path)))].sort();
      const created = new Set<string>();
      for (const dir of dirs) created.add(await topmostMissing(root, dir, isMissing));
      created.delete('');
      await fs.mkdir(root);
      const planned: Journal = { version: JOURNAL_VERSION, pid: process.pid, host: hostname(), steps, created: [...created].map((d) => relPath(root, d)) };
      await fs.writeSynced(journalFile, JSON.stringify(planned));
      journal = planned;
      await fs.syncDir(root);

      // Parents before children (sorted), once per folder rather than once per file.
      for (const dir of dirs) await fs.mkdir(dir);
      await forEachLimited(files, async (file) => {
        if (file.content === null) return;
        if (typeof file.content === 'object' && 'copyFrom' in file.content) await fs.copySynced(file.content.copyFrom, tempOf(file.path, tag));
        else if (typeof file.content === 'object' && 'moveFrom' in file.content) await fs.moveSynced(file.content.moveFrom, tempOf(file.path, tag));
        else await fs.writeSynced(tempOf(file.path, tag), file.content, file.mode);
      });
      await forEachLimited(files, async (file, i) => {
        const moved = steps[i]!.existed && (await backUp(file.path, backupOf(file.path, tag), fs));
        if (file.content !== null) await fs.rename(tempOf(file.path, tag), file.path);
        else if (steps[i]!.existed && !moved) await fs.unlink(file.path);
      });
      await forEachLimited(new Set(files.map((f) => dirname(f.path))), (dir) => fs.syncDir(dir));
      await fs.rename(journalFile, doneName(journalFile));
    } catch (err) {
      // The same undo a crash gets at the next open; if it fails too, the journal stays for that.
      if (journal) await replay(root, journalFile, tag, 'json', journal, fs).catch(() => {});
      else await fs.unlink(journalFile).catch(() => {});
      const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new ParleyError('save-failed', `Saving failed (${reason}); every file was left as it was.`, { files: changes.map((c) => c.path) });
    }
    // Done: every file is in place. What is left is cleaning up, which a crash leaves to recovery:
    // the backups this commit made (one per file that existed; every temp was renamed), then the
    // journal. (Recovery, not knowing what was made, looks for every step's backup and temp.)
    await fs.syncDir(root).catch(() => {});
    const finished = journal;
    await forEachLimited(finished.steps.filter((step) => step.existed), (step) => fs.unlink(backupOf(join(root, step.target), tag)))
      .then(() => fs.unlink(doneName(journalFile)))
      .catch(() => replay(root, doneName(journalFile), tag, 'done', finished, fs))
      .catch(() => {});
  } finally {
    running.delete(journalFile);
  }
}

/**
 * Keeps the old file aside as `backup`: a hard link, so the target never goes missing while the
 * new file is renamed over it (a reader sees the old file or the new, never neither); moved
 * instead where the file system has no hard links. True when it was moved.
 */
/** What link() says on a file system (FAT, some network shares) that cannot make one. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

async function backUp(target: string, backup: string, fs: FsOps): Promise<boolean> {
  try {
    await fs.link(target, backup);
    return false;
  } catch (err) {
    if (!NO_HARD_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    await fs.rename(target, backup);
    return true;
  }
}

export interface Recovered {
  /** The journal's file name. */
  journal: string;
  /** `undone`: the cut-short commit was rolled back; `finished`: it had completed and was cleaned up. */
  outcome: 'undone' | 'finished' | 'discarded';
  files: string[];
}

/**
 * Finishes or undoes every commit a crash cut short in `journalDir` (see the top of this file).
 * A journal that a live process on this machine is still working through is left alone.
 * Journals are read as untrusted input: every path they name must stay inside the folder.
 */
export async function recoverCommits(journalDir: string, options: { fs?: FsOps; log?: (line: string) => void } = {}): Promise<Recovered[]> {
  const fs = options.fs ?? nodeFs;
  const names = await fsp.readdir(journalDir).catch(() => [] as string[]);
  const recovered: Recovered[] = [];
  for (const name of names.sort()) {
    const match = JOURNAL.exec(name);
    if (!match) continue;
    const file = join(journalDir, name);
    const pending = join(journalDir, `.parley-commit.${match[1]}.json`);
    if (running.has(pending)) continue;
    const text = await fsp.readFile(file, 'utf8').catch(() => null);
    if (text === null) continue;
    const journal = parseJournal(text, journalDir);
    if (journal === 'newer') {
      options.log?.(`${file} was written by a newer release of Parley; it was left alone.`);
      continue;
    }
    if (!journal) {
      // Cut off while it was being written (nothing else was touched yet), or not one of ours.
      await fs.unlink(file);
      recovered.push({ journal: name, outcome: 'discarded', files: [] });
      continue;
    }
    if (await writerAlive(journal, file)) {
      options.log?.(`${file}: a save by process ${journal.pid} is under way; it was left to finish.`);
      continue;
    }
    const kind = match[2] as 'json' | 'done';
    try {
      await replay(journalDir, file, match[1]!, kind, journal, fs);
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new ParleyError('load-failed', `A save cut short in ${journalDir} could not be ${kind === 'json' ? 'undone' : 'finished'} (${reason}); its journal ${name} was kept to try again.`);
    }
    recovered.push({ journal: name, outcome: kind === 'json' ? 'undone' : 'finished', files: journal.steps.map((s) => s.target) });
  }
  for (const r of recovered) options.log?.(`A save cut short was ${r.outcome} (${r.journal}: ${r.files.join(', ') || 'no files'}).`);
  return recovered;
}

/**
 * Brings the files of one journal to a clean state and removes the journal. `json` (not done):
 * undo, newest step first; `done`: drop the backups. Safe to run again after a crash of its own.
 */
async function replay(root: string, journalFile: string, tag: string, kind: 'json' | 'done', journal: Journal, fs: FsOps): Promise<void> {
  // Each step touches only its own target, backup and temp: they are put right side by side.
  await forEachLimited([...journal.steps].reverse(), async (step) => {
    const target = resolveInside(root, step.target, 'journal entry');
    const backup = backupOf(target, tag);
    const temp = tempOf(target, tag);
    if (kind === 'json') {
      // A backup that is still a second name of the target (the new file was not renamed in yet)
      // is dropped: rename() between two names of one file does nothing.
      if (await fs.exists(backup)) await ((await sameFile(backup, target)) ? fs.unlink(backup) : fs.rename(backup, target));
      else if (!step.existed && step.sha256 !== null && !(await fs.exists(temp)) && (await hashOf(target)) === step.sha256) await fs.unlink(target);
    } else if (await fs.exists(backup)) await fs.unlink(backup);
    if (await fs.exists(temp)) await fs.unlink(temp);
  });
  if (kind === 'json') {
    for (const dir of [...journal.created].reverse()) {
      const full = resolveInside(root, dir, 'journal entry');
      if (full !== root) await removeEmptyTree(full, fs);
    }
    // The old files must be back for good before the journal that could bring them back goes.
    await forEachLimited(new Set(journal.steps.map((s) => dirname(resolveInside(root, s.target, 'journal entry')))), (dir) => fs.syncDir(dir).catch(() => {}));
  }
  await fs.unlink(journalFile);
}

/** The journal in `text`; null when it is cut off, malformed or names a path outside `root`; 'newer' when a later release wrote it. */
function parseJournal(text: string, root: string): Journal | null | 'newer' {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const j = value as Partial<Journal>;
  if (typeof j.version === 'number' && j.version > JOURNAL_VERSION) return 'newer';
  const isStep = (s: unknown): s is JournalStep => {
    const step = s as Partial<JournalStep> | null;
    return typeof step === 'object' && step !== null && typeof step.target === 'string' && typeof step.existed === 'boolean' && (step.sha256 === null || typeof step.sha256 === 'string');
  };
  if (j.version !== JOURNAL_VERSION || typeof j.pid !== 'number' || typeof j.host !== 'string') return null;
  if (!Array.isArray(j.steps) || !j.steps.every(isStep) || !Array.isArray(j.created) || !j.created.every((d) => typeof d === 'string')) return null;
  try {
    for (const rel of [...j.steps.map((s) => s.target), ...j.created]) if (resolveInside(root, rel, 'journal entry') === root) return null;
  } catch {
    return null;
  }
  return j as Journal;
}

async function writerAlive(journal: Journal, file: string): Promise<boolean> {
  if (journal.host !== hostname() || journal.pid === process.pid) return false;
  try {
    process.kill(journal.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const info = await fsp.stat(file).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs < LIVE_JOURNAL_MS;
}

async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([fsp.lstat(a).catch(() => null), fsp.lstat(b).catch(() => null)]);
  return x !== null && y !== null && x.ino === y.ino && x.dev === y.dev;
}

function doneName(journalFile: string): string {
  return journalFile.replace(/\.json$/, '.done');
}

/** `path` relative to `root`, '/'-separated; refused when it is not inside. */
function relPath(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel === '' || !isInsideFolder(root, path)) {
    throw new ParleyError('path-escape', `${path} is not inside ${root}, where this save keeps its journal.`);
  }
  return rel.split(sep).join('/');
}

/** The topmost folder of `dir` that does not exist yet ('' when it exists), searched no higher than `root`. */
async function topmostMissing(root: string, dir: string, isMissing: (dir: string) => Promise<boolean>): Promise<string> {
  let missing = '';
  for (let d = dir; d !== root && d.startsWith(root) && (await isMissing(d)); d = dirname(d)) missing = d;
  return missing;
}

async function hashOfContent(content: FileChange['content']): Promise<string | null> {
  if (content === null) return null;
  if (typeof content === 'object' && 'copyFrom' in content) return hashOf(content.copyFrom, true);
  if (typeof content === 'object' && 'moveFrom' in content) return content.sha256;
  return createHash('sha256').update(content).digest('hex');
}

/** SHA-256 of a file, streamed; null when it cannot be read (or the error, with `strict`). */
async function hashOf(path: string, strict = false): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (err) {
    if (strict) throw err;
    return null;
  }
  return hash.digest('hex');
}

async function removeEmptyTree(dir: string, fs: FsOps): Promise<void> {
  const entries = await fsp.readdir(dir).catch(() => null);
  if (!entries) return;
  for (const entry of entries) await removeEmptyTree(join(dir, entry), fs);
  await fs.rmdir(dir).catch(() => {});
}
