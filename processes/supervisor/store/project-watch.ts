/**
 * Picks up edits made outside Parley: the folder watcher's settled paths are read back, in the
 * write queue (so a reload never interleaves with a save, and close waits for it). A file that
 * holds what we last wrote or read is our own save and is skipped; after a big import that is
 * thousands of files, compared in slices so the supervisor keeps answering the UI.
 */
import { API_FILE } from '../../../protocol/project/layout.js';
import { FolderWatcher } from './folder-watcher.js';
import type { ProjectIndex } from './project-index.js';
import { readText, type ProjectReader } from './project-reader.js';
import type { ProjectWriter } from './project-writer.js';
import { Slicer } from './slicer.js';

export class ProjectWatch {
  private watcher: FolderWatcher | null = null;

  constructor(
    private readonly index: ProjectIndex,
    private readonly reader: ProjectReader,
    private readonly writer: ProjectWriter,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts watching; `onChange` gets the ids whose files changed. Resolves once edits are being watched. */
  async start(onChange: (changed: string[]) => void): Promise<void> {
    if (this.watcher) return;
    this.watcher = new FolderWatcher(this.index.root, {
      accept: (path) => /\.ya?ml$/.test(path),
      onChange: (paths) => this.writer.enqueue(() => this.readBack(paths, onChange), 'reloading edited files'),
      log: (line) => this.log(line),
    });
    await this.watcher.ready();
  }

  async close(): Promise<void> {
    await this.watcher?.close();
    this.watcher = null;
  }

  private async readBack(paths: string[], onChange: (changed: string[]) => void): Promise<void> {
    const changed: string[] = [];
    const slicer = new Slicer();
    for (const path of paths) {
      const text = await readText(path);
      const gone = typeof text !== 'string';
      if (!gone && text === this.index.texts.get(path)) {
        if (slicer.due()) await slicer.turn();
        continue; // our own write
      }
      if (gone && !this.index.texts.has(path) && !this.index.isKnownPath(path, API_FILE)) continue;
      // Read again through the reader, which refuses a link out of the project.
      changed.push(...(await this.reader.reloadPath(path)));
      if (slicer.due()) await slicer.turn();
    }
    if (changed.length > 0) onChange(changed);
  }
}
