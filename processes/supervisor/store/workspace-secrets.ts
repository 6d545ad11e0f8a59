/**
 * The workspace's one secret store, which the rest of the supervisor calls (sends, saves,
 * imports, the cookie jar's key): it hands each call to the backend this workspace uses.
 *
 * - **The vault** when the workspace has a vault file: the user chose it, and the secrets stored
 *   so far are in it (a keychain that appears later does not take over).
 * - Otherwise **the system keychain**, when there is a usable one.
 * - Otherwise **none**: nothing can be stored, and the UI offers to create a vault.
 *
 * docs/secrets.md explains the choice to users.
 */
import { ParleyError } from '../../../protocol/errors.js';
import type { SecretStorage } from '../../../protocol/model/workspace.js';
import type { FsOps } from './atomic.js';
import { KeychainSecrets, checkSecretName, noSecureStorageMessage, type SecretStore } from './secrets.js';
import { VaultSecrets } from './vault-secrets.js';
import type { KdfParams } from './vault-file.js';

export interface WorkspaceSecretsOptions {
  /** The keychain backend (tests give a Map-backed one). */
  keychain?: SecretStore;
  fs?: FsOps;
  /** `PARLEY_VAULT_PASSPHRASE` for commands without a UI. */
  vaultPassphrase?: () => string | undefined;
  kdf?: KdfParams;
}

export class WorkspaceSecrets implements SecretStore {
  readonly vault: VaultSecrets;
  readonly #keychain: SecretStore;
  /** Whether the workspace has a vault file: looked at once, then changed only by createVault. */
  #hasVault: Promise<boolean> | null = null;
  readonly #listeners = new Set<(status: SecretStorage) => void>();

  constructor(dataDir: string, options: WorkspaceSecretsOptions = {}) {
    this.#keychain = options.keychain ?? new KeychainSecrets(dataDir);
    this.vault = new VaultSecrets(dataDir, {
      ...(options.fs ? { fs: options.fs } : {}),
      ...(options.vaultPassphrase ? { passphrase: options.vaultPassphrase } : {}),
      ...(options.kdf ? { kdf: options.kdf } : {}),
    });
  }

  /** Where secrets go in this workspace. */
  async backend(): Promise<SecretStorage['backend']> {
    this.#hasVault ??= this.vault.file.exists();
    if (await this.#hasVault) return 'vault';
    return (await this.#keychain.unavailableReason()) === null ? 'keychain' : 'none';
  }

  async status(): Promise<SecretStorage> {
    const backend = await this.backend();
    if (backend === 'keychain') return { backend, locked: false, available: true };
    if (backend === 'none') return { backend, locked: false, available: false, reason: noSecureStorageMessage(), vaultFile: this.vault.file.path };
    const reason = await this.vault.unavailableReason();
    return { backend, locked: !this.vault.unlocked, available: reason === null, ...(reason !== null ? { reason } : {}), vaultFile: this.vault.file.path };
  }

  /** Told after the vault is created, unlocked or locked. */
  onChange(listener: (status: SecretStorage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async get(name: string): Promise<string | null> {
    return (await this.#store(name)).get(name);
  }

  async set(name: string, value: string): Promise<void> {
    return (await this.#store(name)).set(name, value);
  }

  async delete(name: string): Promise<void> {
    return (await this.#store(name)).delete(name);
  }

  async unavailableReason(): Promise<string | null> {
    return (await this.backend()) === 'vault' ? this.vault.unavailableReason() : this.#keychain.unavailableReason();
  }

  /** Which of `names` the store holds; `unknown` while the vault is locked (or the store fails). */
  async has(names: readonly string[]): Promise<{ found: string[]; missing: string[]; unknown: string[] }> {
    const out = { found: [] as string[], missing: [] as string[], unknown: [] as string[] };
    const backend = await this.backend();
    for (const name of names) {
      if (backend === 'none') out.missing.push(name);
      else {
        const held = await (backend === 'vault' ? this.vault.has(name) : this.#keychain.get(name).then((v) => v !== null)).catch(() => null);
        (held === null ? out.unknown : held ? out.found : out.missing).push(name);
      }
    }
    return out;
  }

  /** Makes the workspace's vault, chosen when there is no keychain; it is unlocked at once. */
  async createVault(passphrase: string): Promise<SecretStorage> {
    const backend = await this.backend();
    if (backend === 'keychain') throw new ParleyError('bad-input', 'Secrets go to the system keychain on this system: a vault is for systems without one.');
    if (backend === 'vault') throw new ParleyError('vault-exists', `There is already a vault at ${this.vault.file.path}: unlock it with its passphrase instead.`, { file: this.vault.file.path });
    await this.vault.create(passphrase);
    this.#hasVault = Promise.resolve(true);
    return this.#changed();
  }

  async unlockVault(passphrase: string): Promise<SecretStorage> {
    if ((await this.backend()) !== 'vault') throw new ParleyError('vault-missing', `There is no vault at ${this.vault.file.path} to unlock.`, { file: this.vault.file.path });
    await this.vault.unlock(passphrase);
    return this.#changed();
  }

  async lockVault(): Promise<SecretStorage> {
    this.vault.lock();
    return this.#changed();
  }

  async #changed(): Promise<SecretStorage> {
    const status = await this.status();
    for (const listener of this.#listeners) listener(status);
    return status;
  }

  async #store(name: string): Promise<SecretStore> {
    checkSecretName(name);
    return (await this.backend()) === 'vault' ? this.vault : this.#keychain;
  }
}
