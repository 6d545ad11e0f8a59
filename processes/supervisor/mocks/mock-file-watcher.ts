/**
 * Watches a project's mocks/ folder for the files the project watcher leaves out (it reports
 * YAML only): response bodies and dispatch.ts. A hand edit of a body then reaches a running mock
 * just as an edit of its response file does.
 */
import { relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

const WATCHED = /(\.body\.(json|xml|txt)|[\\/]dispatch\.ts)$/;
const SETTLE_MS = 40;

export class MockFileWatcher {
  private readonly watcher: FSWatcher;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  /** `onChange` gets the tree ids (`m:<folder>`) of mocks whose files changed. */
  constructor(
    private readonly mocksDir: string,
    private readonly onChange: (ids: string[]) => void,
    log: (line: string) => void,
  ) {
    this.watcher = watch(mocksDir, {
      ignoreInitial: true,
      depth: 3,
      // Directories must pass so the watcher descends; files only when they are bodies or scripts.
      ignored: (path, stats) => stats?.isFile() === true && !WATCHED.test(path),
      awaitWriteFinish: { stabilityThreshold: SETTLE_MS, pollInterval: 20 },
    });
    const queue = (path: string) => {
      if (!WATCHED.test(path)) return;
      const folder = relative(this.mocksDir, path).split(sep)[0];
      if (!folder || folder === '..') return;
      this.pending.add(`m:${folder}`);
      this.timer ??= setTimeout(() => this.flush(), SETTLE_MS);
    };
    this.watcher.on('add', queue).on('change', queue).on('unlink', queue);
    this.watcher.on('error', (err) => log(`mock file watcher: ${(err as Error).message}`));
  }

  close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.watcher.close();
  }

  private flush(): void {
    this.timer = null;
    const ids = [...this.pending];
    this.pending = new Set();
    if (ids.length > 0) this.onChange(ids);
  }
}
