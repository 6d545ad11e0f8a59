/**
 * Send history, one JSON Lines file per project in the workspace folder (history holds
 * responses, so it stays out of the project folder and its git). Entries are already
 * redacted when they arrive here. The newest MAX_ENTRIES per project are kept.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryEntry } from '../../../protocol/model/history.js';
import { commitFiles, recoverCommits } from './atomic.js';

export const MAX_ENTRIES = 500;

export class HistoryStore {
  private queue: Promise<unknown> = Promise.resolve();
  private counts = new Map<string, number>();

  constructor(private readonly dir: string) {
    // A trim cut short by a crash is finished or undone before the first read.
    this.queue = recoverCommits(join(dir, 'history')).catch(() => {});
  }

  private file(projectRoot: string): string {
    return join(this.dir, 'history', `${createHash('sha256').update(projectRoot).digest('hex').slice(0, 16)}.jsonl`);
  }

  add(projectRoot: string, entry: HistoryEntry): Promise<void> {
    const run = async () => {
      const file = this.file(projectRoot);
      await mkdir(join(this.dir, 'history'), { recursive: true });
      await appendFile(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      const count = (this.counts.get(file) ?? (await this.read(projectRoot)).length - 1) + 1;
      this.counts.set(file, count);
      if (count > MAX_ENTRIES * 1.2) {
        const kept = (await this.read(projectRoot)).slice(-MAX_ENTRIES);
        await commitFiles([{ path: file, content: kept.map((e) => JSON.stringify(e)).join('\n') + '\n' }], { journalDir: join(this.dir, 'history') });
        this.counts.set(file, kept.length);
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  async list(projectRoot: string, requestId?: string): Promise<HistoryEntry[]> {
    await this.queue;
    const all = await this.read(projectRoot);
    return (requestId ? all.filter((e) => e.requestId === requestId) : all).reverse();
  }

  private async read(projectRoot: string): Promise<HistoryEntry[]> {
    const text = await readFile(this.file(projectRoot), 'utf8').catch(() => '');
    const out: HistoryEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as HistoryEntry);
      } catch {
        // A torn last line from a crash mid-append: skip it, keep the rest.
      }
    }
    return out;
  }
}
