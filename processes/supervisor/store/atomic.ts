/**
 * Atomic multi-file saves. Every new file is written to a temp file in its own folder and
 * fsynced first; only then are targets swapped in by rename, with the old files kept aside
 * until every swap succeeded. Any failure rolls back, so a failed save leaves every file
 * exactly as it was.
 */
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';

export interface FileChange {
  path: string;
  /** New content, or null to delete the file. */
  content: string | Uint8Array | null;
}

/** The file operations a save uses, injectable so tests can make any one of them fail. */
export interface FsOps {
  writeSynced(path: string, data: string | Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string): Promise<string | undefined>;
  rmdir(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  syncDir(path: string): Promise<void>;
}

export const nodeFs: FsOps = {
  async writeSynced(path, data) {
    const handle = await fsp.open(path, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => fsp.rename(from, to),
  unlink: (path) => fsp.unlink(path),
  mkdir: (path) => fsp.mkdir(path, { recursive: true }),
  rmdir: (path) => fsp.rmdir(path),
  exists: (path) =>
    fsp.stat(path).then(
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

interface Step {
  target: string;
  temp: string | null;
  backup: string | null;
  placed: boolean;
}

export async function commitFiles(changes: FileChange[], fs: FsOps = nodeFs): Promise<void> {
  const tag = randomBytes(4).toString('hex');
  const steps: Step[] = [];
  const createdDirs: string[] = [];
  try {
    for (const change of changes) {
      const step: Step = { target: change.path, temp: null, backup: null, placed: false };
      steps.push(step);
      if (change.content === null) continue;
      const dir = dirname(change.path);
      const made = await fs.mkdir(dir);
      if (made) createdDirs.push(made);
      const temp = join(dir, `.${basename(change.path)}.${tag}.tmp`);
      await fs.writeSynced(temp, change.content);
      step.temp = temp;
    }
    for (const step of steps) {
      if (await fs.exists(step.target)) {
        const backup = join(dirname(step.target), `.${basename(step.target)}.${tag}.bak`);
        await fs.rename(step.target, backup);
        step.backup = backup;
      }
      if (step.temp) {
        await fs.rename(step.temp, step.target);
        step.temp = null;
        step.placed = true;
      }
    }
  } catch (err) {
    await rollBack(steps, createdDirs, fs);
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ParleyError('save-failed', `Saving failed (${reason}); every file was left as it was.`, { files: changes.map((c) => c.path) });
  }
  for (const step of steps) if (step.backup) await fs.unlink(step.backup).catch(() => {});
  for (const dir of new Set(steps.map((s) => dirname(s.target)))) await fs.syncDir(dir).catch(() => {});
}

async function rollBack(steps: Step[], createdDirs: string[], fs: FsOps): Promise<void> {
  for (const step of [...steps].reverse()) {
    if (step.placed) await fs.unlink(step.target).catch(() => {});
    if (step.backup) await fs.rename(step.backup, step.target).catch(() => {});
    if (step.temp) await fs.unlink(step.temp).catch(() => {});
  }
  // mkdir -p reports the first folder it created; remove what it made, deepest first, if empty.
  for (const dir of createdDirs.reverse()) await removeEmptyTree(dir, fs);
}

async function removeEmptyTree(dir: string, fs: FsOps): Promise<void> {
  const entries = await fsp.readdir(dir).catch(() => null);
  if (!entries) return;
  for (const entry of entries) await removeEmptyTree(join(dir, entry), fs);
  await fs.rmdir(dir).catch(() => {});
}
