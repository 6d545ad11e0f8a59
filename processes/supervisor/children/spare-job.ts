/**
 * One job child started ahead of its job. The Import dialog knows the source before the user
 * presses Import (it asks for the auto-detect badge), and an importer child takes about 0.2 s to
 * start (spawn, load, bus handshake) before a job's first progress: started then, that time
 * passes while the user reads the badge and the options (bench/README.md, "HAR import").
 * At most one is kept. One that is not what the job asks for (another heap cap, other flags), that
 * died while it waited, or that no job took within `idleMs` is stopped; a job then starts its own.
 */
import type { ChildProcessHandle, ChildSpec } from './child-process.js';

export type JobSpec = Omit<ChildSpec, 'log' | 'restart'>;

interface Spare {
  key: string;
  child: ChildProcessHandle;
  started: Promise<boolean>;
  timer: NodeJS.Timeout;
}

export class SpareJobChild {
  private spare: Spare | null = null;

  constructor(
    private readonly make: (spec: JobSpec) => ChildProcessHandle,
    private readonly idleMs: number,
  ) {}

  /** Starts a child for a job with `spec`, unless one is already waiting for it. */
  prepare(spec: JobSpec): void {
    const key = specKey(spec);
    if (this.spare?.key === key) {
      this.spare.timer.refresh();
      return;
    }
    void this.drop();
    const child = this.make(spec);
    // A spare that fails to start is only a lost head start: the job starts its own.
    const started = child.start().then(
      () => true,
      () => false,
    );
    const timer = setTimeout(() => void this.drop(), this.idleMs);
    timer.unref();
    this.spare = { key, child, started, timer };
  }

  /** The running spare for a job with `spec`, now the job's; null when there is none to give. */
  async take(spec: JobSpec): Promise<ChildProcessHandle | null> {
    const spare = this.spare;
    if (!spare) return null;
    this.spare = null;
    clearTimeout(spare.timer);
    if (spare.key === specKey(spec) && (await spare.started) && spare.child.state === 'running') return spare.child;
    // Not waited for: the job starts its own meanwhile.
    void spare.child.stop(200);
    return null;
  }

  /** The waiting spare's process id, if one is waiting (for tests and the log). */
  get pid(): number | undefined {
    return this.spare?.child.pid;
  }

  async drop(): Promise<void> {
    const spare = this.spare;
    if (!spare) return;
    this.spare = null;
    clearTimeout(spare.timer);
    await spare.child.stop(200);
  }
}

/** Two specs start the same child when their entry, arguments, flags, environment and bus limits match. */
function specKey(spec: JobSpec): string {
  return JSON.stringify([spec.name, spec.entry, spec.args ?? [], spec.execArgv ?? [], spec.env ?? {}, spec.maxMessage ?? 0, spec.maxFrame ?? 0]);
}
