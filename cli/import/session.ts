/**
 * One command run with a headless supervisor in this process: Ctrl+C or SIGTERM aborts the
 * signal the job runs with (its importer child is killed), then the supervisor shuts down and
 * the command exits 130 or 143. A second signal exits at once; the children exit by themselves
 * when their bus closes, so nothing is left running either way.
 */
import type { Writable } from 'node:stream';
import { ParleyError } from '../../protocol/errors.js';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { defaultDataDir } from '../../processes/supervisor/store/workspace-store.js';

export class CliSession {
  private readonly controller = new AbortController();
  private interrupted: NodeJS.Signals | undefined;
  private sup: Supervisor | undefined;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.interrupted) process.exit(exitForSignal(signal));
    this.interrupted = signal;
    this.controller.abort();
  };

  constructor() {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interruptedBy(): NodeJS.Signals | undefined {
    return this.interrupted;
  }

  /**
   * The supervisor, on the workspace `parley ui` uses (PARLEY_HOME or the user's data folder);
   * with `services` also its sender and checker (`parley run`).
   */
  async supervisor(log: ((line: string) => void) | undefined, options: { services?: boolean } = {}): Promise<Supervisor> {
    // Children log to the supervisor; without --verbose that stays out of the command's output.
    this.sup = await Supervisor.start({ dataDir: defaultDataDir(), log: log ?? (() => {}), services: options.services ?? false });
    if (this.signal.aborted) throw new ParleyError('cancelled', 'Cancelled.');
    return this.sup;
  }

  /** The exit code for a signal that arrived, whatever the work did meanwhile; else `code`. */
  exitCode(code: number): number {
    return this.interrupted ? exitForSignal(this.interrupted) : code;
  }

  /** Reports the cancellation and gives its exit code. */
  cancelled(command: string, stderr: Writable): number {
    stderr.write(`parley ${command}: cancelled.\n`);
    return exitForSignal(this.interrupted ?? 'SIGINT');
  }

  async close(): Promise<void> {
    try {
      await this.sup?.shutdown();
    } finally {
      process.off('SIGINT', this.onSignal);
      process.off('SIGTERM', this.onSignal);
    }
  }
}

/**
 * Fetch credentials are kept in the system keychain for later updates. Without one the service
 * would fail only after the fetch (and after making a new project folder), so ask first.
 */
export async function requireKeychain(sup: Supervisor): Promise<void> {
  const reason = await sup.secrets.unavailableReason();
  if (reason) throw new ParleyError('no-secure-storage', `${reason} The --auth-* credentials are stored there for later updates, so they cannot be used without it.`);
}

function exitForSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}
