/**
 * The single write path of a project: saves are queued one at a time, written atomically
 * (`commitFiles`), then read back into the index from the texts they wrote, so memory matches the
 * disk exactly without reading it again. Until a queued save is on disk its new files' names are
 * taken (`inFlightNames`), so a batch made meanwhile never picks one of them.
 */
import { dirname, relative, sep } from 'node:path';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { commitFiles, type FileChange, type FsOps } from './atomic.js';
import type { ProjectIndex } from './project-index.js';
import type { ProjectReader } from './project-reader.js';
import { Slicer } from './slicer.js';

export class ProjectWriter {
  /** Files that queued saves will write, with how many saves will: their names are taken. */
  private readonly inFlight = new Map<string, number>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly index: ProjectIndex,
    private readonly reader: ProjectReader,
    private readonly fs: FsOps,
    private readonly log: (line: string) => void,
  ) {}

  commit(changes: FileChange[]): Promise<void> {
    const root = this.index.root;
    const run = async () => {
      // Never write through a link out of the project (a cloned `files -> ~/.config`).
      for (const dir of new Set(changes.map((c) => dirname(c.path)))) resolveInside(root, relative(root, dir), 'folder of a save');
      await commitFiles(changes, { journalDir: root, fs: this.fs });
      for (const change of changes) {
        if (typeof change.content === 'string') this.index.texts.set(change.path, change.content);
        else this.index.texts.delete(change.path);
      }
      await this.readBack(changes);
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

  /**
   * Work that must not interleave with a save (the watcher's reloads), queued behind the saves;
   * its failure is logged, never thrown.
   */
  enqueue(work: () => Promise<void>, what: string): void {
    this.queue = this.queue.then(work).catch((err: Error) => this.log(`${what}: ${err.message}`));
  }

  /** Resolves once every queued save and reload has finished. */
  settled(): Promise<unknown> {
    return this.queue;
  }

  /** The names in `dir` of files (and the folders on their way) that queued saves will write. */
  inFlightNames(dir: string): string[] {
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    const names: string[] = [];
    for (const path of this.inFlight.keys()) if (path.startsWith(prefix)) names.push(path.slice(prefix.length).split(sep)[0]!);
    return names;
  }

  /**
   * The saved files into the index from the texts just written (a file of bytes, such as a cached
   * definition document, is none of the index's), in slices: an import's thousands of files are
   * parsed while the UI's calls go on.
   */
  private async readBack(changes: FileChange[]): Promise<void> {
    const slicer = new Slicer();
    const own = new Set(changes.map((c) => c.path));
    for (const change of changes) {
      const known = typeof change.content === 'string' || change.content === null ? change.content : undefined;
      await this.reader.reloadPath(change.path, known, own);
      if (slicer.due()) await slicer.turn();
    }
  }
}
