/**
 * One command run with a headless supervisor in this process: Ctrl+C or SIGTERM aborts the
 * signal the job runs with (its importer child is killed), then the supervisor shuts down and
 * the command exits 130 or 143. A second signal exits at once; the children exit by themselves
 * when their bus closes, so nothing is left running either way.
 */
import type { Writable } from 'node:stream';
import { ParleyError, hasCode } from '../../protocol/errors.js';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { defaultDataDir } from '../../processes/supervisor/store/workspace-store.js';
import { VAULT_PASSPHRASE_ENV } from '../../processes/supervisor/store/vault-secrets.js';

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
   * with `services` also its sender and checker (`parley run`). A workspace with a vault is
   * unlocked with PARLEY_VAULT_PASSPHRASE the first time a secret is needed.
   */
  async supervisor(log: ((line: string) => void) | undefined, options: { services?: boolean } = {}): Promise<Supervisor> {
    // Children log to the supervisor; without --verbose that stays out of the command's output.
    this.sup = await Supervisor.start({
      dataDir: defaultDataDir(),
      log: log ?? (() => {}),
      services: options.services ?? false,
      vaultPassphrase: () => process.env[VAULT_PASSPHRASE_ENV],
    });
    if (this.signal.aborted) throw new ParleyError('cancelled', 'Cancelled.');
    return this.sup;
  }

  /**
   * Whether the run was interrupted: a signal reached this process, or `err` says a child of it was
   * stopped by SIGINT or SIGTERM, which is then taken as this run's signal. Ctrl+C in a terminal
   * signals the whole foreground group, and a child dying of it (one still starting fails at once)
   * can be seen before this process's own handler has run; Parley stops its children with a
   * shutdown message or SIGKILL, never these.
   */
  wasInterrupted(err: unknown): boolean {
    if (!this.interrupted && hasCode(err, 'child-died')) {
      const signal = exitSignal((err as ParleyError).data);
      if (signal === 'SIGINT' || signal === 'SIGTERM') this.interrupted = signal;
    }
    return this.interrupted !== undefined;
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
 * Fetch credentials are kept in the secret store (keychain or vault) for later updates. Without
 * one the service would fail only after the fetch (and after making a new project folder), so ask first.
 */
export async function requireKeychain(sup: Supervisor): Promise<void> {
  const reason = await sup.secrets.unavailableReason();
  if (reason) {
    const code = (await sup.secrets.backend()) === 'vault' ? 'vault-locked' : 'no-secure-storage';
    throw new ParleyError(code, `${reason} The --auth-* credentials are stored there for later updates, so they cannot be used without it.`);
  }
}

/** What an import refused for want of a secret store can do instead: said after its message. */
export function noStorageAdvice(err: unknown): string {
  if (hasCode(err, 'vault-locked')) return ` Set ${VAULT_PASSPHRASE_ENV} to the vault's passphrase, or give --without-secrets to import without them.`;
  if (hasCode(err, 'no-secure-storage')) return ' Give --without-secrets to import without them, or make a vault in the app (parley ui) and set PARLEY_VAULT_PASSPHRASE.';
  return '';
}

function exitForSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** The signal a `child-died` error's exit record names (`{ exit: { signal } }`), if any. */
function exitSignal(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !Object.hasOwn(data, 'exit')) return undefined;
  const exit = (data as { exit: unknown }).exit;
  if (typeof exit !== 'object' || exit === null || !Object.hasOwn(exit, 'signal')) return undefined;
  const signal = (exit as { signal: unknown }).signal;
  return typeof signal === 'string' ? signal : undefined;
}
