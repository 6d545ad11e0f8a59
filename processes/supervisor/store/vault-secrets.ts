/**
 * The vault as a secret store (vault-file.ts has the format): locked until its passphrase is
 * given once per session, then the key and the entries are held in this process's memory only,
 * and forgotten by `lock` (at quit). Every write reads the file again with the key it holds, so
 * another Parley process's write (`parley import` while the app runs) is kept, and a file that
 * was damaged or replaced meanwhile is refused, never overwritten.
 */
import { ParleyError } from '../../../protocol/errors.js';
import type { FsOps } from './atomic.js';
import type { SecretStore } from './secrets.js';
import { VaultFile, zeroKey, type KdfParams, type OpenedVault } from './vault-file.js';

export interface VaultOptions {
  fs?: FsOps;
  /**
   * Where a command without a UI gets the passphrase (`PARLEY_VAULT_PASSPHRASE`): asked the
   * first time a locked vault is needed, never written anywhere.
   */
  passphrase?: () => string | undefined;
  /** scrypt's cost for a new vault (tests use a cheaper one; the header records it). */
  kdf?: KdfParams;
}

export const VAULT_PASSPHRASE_ENV = 'PARLEY_VAULT_PASSPHRASE';

export class VaultSecrets implements SecretStore {
  readonly file: VaultFile;
  readonly #options: VaultOptions;
  #opened: OpenedVault | null = null;
  /** The file as this process last read or wrote it: another stamp means another process wrote. */
  #stamp: string | null = null;
  /** One read or write of the file at a time. */
  #queue: Promise<unknown> = Promise.resolve();
  /** The passphrase from the environment was tried and failed: said once, not derived again per secret. */
  #envFailure: ParleyError | null = null;

  constructor(dataDir: string, options: VaultOptions = {}) {
    this.file = new VaultFile(dataDir, options.fs);
    this.#options = options;
  }

  get unlocked(): boolean {
    return this.#opened !== null;
  }

  /** Makes the vault and keeps it unlocked. */
  create(passphrase: string): Promise<void> {
    return this.#serial(async () => {
      const opened = await this.file.create(passphrase, this.#options.kdf);
      this.#take(opened, await this.file.stamp());
    });
  }

  /** Unlocks with `passphrase`; a wrong one throws `vault-passphrase` and leaves everything as it was. */
  unlock(passphrase: string): Promise<void> {
    return this.#serial(async () => {
      const opened = await this.file.unlock(passphrase);
      this.#take(opened, await this.file.stamp());
      this.#envFailure = null;
    });
  }

  /** Forgets the key and the entries (at quit, or Lock vault). */
  lock(): void {
    if (this.#opened) zeroKey(this.#opened.key);
    this.#opened = null;
    this.#stamp = null;
  }

  async unavailableReason(): Promise<string | null> {
    try {
      await this.#ensureUnlocked();
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  get(name: string): Promise<string | null> {
    return this.#serial(async () => {
      const opened = await this.#current();
      return opened.entries.get(name) ?? null;
    });
  }

  set(name: string, value: string): Promise<void> {
    return this.#change((entries) => entries.set(name, value));
  }

  delete(name: string): Promise<void> {
    return this.#change((entries) => entries.delete(name));
  }

  /** Whether `name` is in the vault; null while it is locked. */
  async has(name: string): Promise<boolean | null> {
    if (!this.#opened && !(await this.#tryEnvironment())) return null;
    return (await this.get(name)) !== null;
  }

  #change(apply: (entries: Map<string, string>) => void): Promise<void> {
    return this.#serial(async () => {
      const opened = await this.#current();
      const next = new Map(opened.entries);
      apply(next);
      // The old file stays until the new one is complete: a failed write leaves both the file and these entries as they were.
      await this.file.write(opened.key, next);
      opened.entries = next;
      this.#stamp = await this.file.stamp();
    });
  }

  /** The unlocked vault with the entries on disk now (read again when another process wrote). */
  async #current(): Promise<OpenedVault> {
    const opened = await this.#ensureUnlocked();
    const stamp = await this.file.stamp();
    if (stamp !== this.#stamp) {
      opened.entries = await this.file.reread(opened.key);
      this.#stamp = stamp;
    }
    return opened;
  }

  async #ensureUnlocked(): Promise<OpenedVault> {
    if (this.#opened) return this.#opened;
    if (await this.#tryEnvironment()) return this.#opened!;
    throw this.#lockedError();
  }

  /** Unlocks with the passphrase from the environment, when one is given; false when there is none. */
  async #tryEnvironment(): Promise<boolean> {
    if (this.#opened) return true;
    if (this.#envFailure) throw this.#envFailure;
    const passphrase = this.#options.passphrase?.();
    if (passphrase === undefined || passphrase === '') return false;
    try {
      const opened = await this.file.unlock(passphrase);
      this.#take(opened, await this.file.stamp());
      return true;
    } catch (err) {
      const e = err as ParleyError;
      this.#envFailure =
        e.code === 'vault-passphrase'
          ? new ParleyError('vault-passphrase', `${VAULT_PASSPHRASE_ENV} does not unlock the vault ${this.file.path}: wrong passphrase.`, { file: this.file.path })
          : e;
      throw this.#envFailure;
    }
  }

  #lockedError(): ParleyError {
    const how = this.#options.passphrase
      ? `set ${VAULT_PASSPHRASE_ENV} to its passphrase to unlock it`
      : 'unlock it with its passphrase (Unlock vault… in the status bar or the command palette)';
    return new ParleyError('vault-locked', `Secrets are kept in the vault ${this.file.path}, which is locked: ${how}.`, { file: this.file.path });
  }

  #take(opened: OpenedVault, stamp: string | null): void {
    if (this.#opened && this.#opened !== opened) zeroKey(this.#opened.key);
    this.#opened = opened;
    this.#stamp = stamp;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
