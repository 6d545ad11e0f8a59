/**
 * Reads curl commands in an importer child process, kept running between reads (the Import cURL
 * dialog previews as the user types) and stopped after a minute unused. Not on the supervisor's
 * loop: curlconverter's bash reader takes time quadratic in the pieces one word is glued from
 * (`'it'"'"'s'`), 20 s for a 400 KB command of such pieces. Not on a worker thread: terminating
 * one inside tree-sitter's native code aborts the whole process. A read past its deadline kills
 * the child (the next read starts another) and says why.
 */
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { ResOf } from '../../../protocol/messages.js';
import { MAX_COMMAND_LENGTH } from '../../importer/engine/curl/parse-command.js';
import { ChildProcessHandle } from '../children/child-process.js';
import { distEntry } from '../paths.js';

export const READ_DEADLINE_MS = 10_000;
const IDLE_MS = 60_000;

export interface CurlReaderOptions {
  log?: (line: string) => void;
  deadlineMs?: number;
  /** The importer entry (dist/importer.js). */
  entry?: string;
}

export class CurlReader {
  private child: ChildProcessHandle | null = null;
  private starting: Promise<ChildProcessHandle> | null = null;
  private idle: NodeJS.Timeout | null = null;
  private reads = 0;
  private closed = false;
  private readonly deadlineMs: number;

  constructor(private readonly options: CurlReaderOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? READ_DEADLINE_MS;
  }

  async read(command: string, fields: { id: string; name?: string }): Promise<ResOf<'importer.readCurl'>> {
    // Refused here, before a large text travels to the child.
    if (command.length > MAX_COMMAND_LENGTH) throw new ParleyError('import-too-large', `The curl command is ${Math.round(command.length / 1024)} KB; commands over ${MAX_COMMAND_LENGTH / 1024 / 1024} MB are not imported.`);
    if (this.closed) throw new ParleyError('shutting-down', 'Parley is stopping.');
    this.reads++;
    if (this.idle) clearTimeout(this.idle);
    try {
      const readInChild = async () => (await this.ensureChild()).call('importer.readCurl', { command, ...fields }, { budgetMs: this.deadlineMs });
      try {
        return await readInChild();
      } catch (err) {
        // A read changes nothing, so one that met a child already dying (killed between reads,
        // its exit not yet seen) is read again in a fresh child; a command that kills it twice fails.
        if (!hasCode(err, 'child-died')) throw err;
        await this.stopChild();
        return await readInChild();
      }
    } catch (err) {
      if (hasCode(err, 'budget-exceeded') || hasCode(err, 'child-died')) {
        await this.stopChild();
        if (hasCode(err, 'budget-exceeded')) {
          throw new ParleyError(
            'import-too-slow',
            `Reading this curl command took longer than ${this.deadlineMs / 1000} s and was stopped: it may glue very many quoted pieces into one argument. Quote the long argument once (for example as $'...'), or shorten it.`,
          );
        }
      }
      throw err;
    } finally {
      if (--this.reads === 0 && !this.closed) {
        this.idle = setTimeout(() => void this.stopChild(), IDLE_MS);
        this.idle.unref();
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopChild();
  }

  private ensureChild(): Promise<ChildProcessHandle> {
    if (this.child?.state === 'running') return Promise.resolve(this.child);
    return (this.starting ??= (async () => {
      try {
        const child = new ChildProcessHandle({ name: 'curl reader (an importer process)', entry: this.options.entry ?? distEntry('importer.js'), restart: false, ...(this.options.log ? { log: this.options.log } : {}) });
        await child.start();
        this.child = child;
        return child;
      } finally {
        this.starting = null;
      }
    })());
  }

  private async stopChild(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const child = this.child;
    this.child = null;
    await child?.stop(200);
  }
}
