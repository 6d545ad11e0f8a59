/**
 * The secret store's interface, and its keychain backend: the OS keychain (Secret Service on
 * Linux, Keychain on macOS, Credential Manager on Windows) through @napi-rs/keyring. Files only
 * ever hold `${secret:name}`, and the name there is the name in the store (docs/secrets.md). The
 * supervisor calls WorkspaceSecrets (workspace-secrets.ts), which picks this backend or the vault.
 * Without a keychain callers are told "No secure storage on this system" and what to do, not
 * the D-Bus error.
 */
import { createHash } from 'node:crypto';
import { ParleyError, quote } from '../../../protocol/errors.js';

export interface SecretStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** Null when usable, else why not. */
  unavailableReason(): Promise<string | null>;
  /** Which backend answers (the workspace's store says; a single backend need not). */
  backend?(): Promise<'keychain' | 'vault' | 'none'>;
}

const SERVICE = 'parley';
const NAME = /^[A-Za-z0-9_.:/-]{1,200}$/;

/** Letters, digits and `. _ - : /`, up to 200 characters (docs/secrets.md), in every backend. */
export function checkSecretName(name: string): void {
  if (!NAME.test(name)) throw new ParleyError('bad-input', `Secret name ${quote(name, 40)} is not allowed: use letters, digits and . _ - : /`);
}

/** What a user reads when there is no keychain: what is wrong and what to do, per system. */
export function noSecureStorageMessage(platform: NodeJS.Platform = process.platform): string {
  const what =
    platform === 'darwin'
      ? 'Check that your login keychain exists and is unlocked (Keychain Access), then try again.'
      : platform === 'win32'
        ? 'Check that Windows Credential Manager is available to your account, then try again.'
        : 'On Linux, install and start a Secret Service in your session (gnome-keyring, or KeePassXC with its Secret Service integration on), then try again.';
  return `No secure storage on this system: Parley keeps secrets in the system keychain and found none it can use. ${what} Or keep them in a vault: a file in Parley's data folder, encrypted with a passphrase you give once per session (Parley offers to create one when you save a secret).`;
}

/** Keychain errors that mean there is no usable keychain at all, rather than a failed call. */
const NO_SERVICE = /d-?bus|org\.freedesktop|secret ?service|no such (interface|object)|service ?unknown|platform secure storage|not (available|supported)/i;

export class KeychainSecrets implements SecretStore {
  private readonly scope: string;
  private probe: Promise<string | null> | null = null;
  /** The keychain's own words when the probe failed, kept in errors' data for a bug report. */
  private probeDetail = '';

  /** `workspaceDir` scopes the entries, so two workspaces never read each other's secrets. */
  constructor(workspaceDir: string) {
    this.scope = createHash('sha256').update(workspaceDir).digest('hex').slice(0, 12);
  }

  async get(name: string): Promise<string | null> {
    const entry = await this.entry(name);
    try {
      return await entry.getPassword();
    } catch (err) {
      throw keychainError('read', name, err);
    }
  }

  async set(name: string, value: string): Promise<void> {
    const entry = await this.entry(name);
    try {
      await entry.setPassword(value);
    } catch (err) {
      throw keychainError('store', name, err);
    }
  }

  async delete(name: string): Promise<void> {
    const entry = await this.entry(name);
    try {
      await entry.deleteCredential();
    } catch (err) {
      throw keychainError('delete', name, err);
    }
  }

  unavailableReason(): Promise<string | null> {
    this.probe ??= (async () => {
      try {
        const { AsyncEntry } = await import('@napi-rs/keyring');
        const entry = new AsyncEntry(SERVICE, `${this.scope}:probe`, { linux: { store: 'secret-service' } });
        await entry.getPassword();
        return null;
      } catch (err) {
        this.probeDetail = firstLine(err);
        return noSecureStorageMessage();
      }
    })();
    return this.probe;
  }

  private async entry(name: string) {
    checkSecretName(name);
    const reason = await this.unavailableReason();
    if (reason) throw new ParleyError('no-secure-storage', reason, { detail: this.probeDetail });
    const { AsyncEntry } = await import('@napi-rs/keyring');
    // Pin Secret Service: the default silently falls back to the kernel keyring, lost at reboot.
    return new AsyncEntry(SERVICE, `${this.scope}:${name}`, { linux: { store: 'secret-service' } });
  }
}

function keychainError(action: string, name: string, err: unknown): ParleyError {
  const detail = firstLine(err);
  if (NO_SERVICE.test(detail)) return new ParleyError('no-secure-storage', noSecureStorageMessage(), { detail });
  return new ParleyError('keychain-failed', `Could not ${action} the secret ${name} in the system keychain (it said: ${detail}).`, { detail });
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
}

/** `${secret:name}` references in a text, in order of appearance. */
export function secretRefs(text: string): string[] {
  return [...text.matchAll(/\$\{secret:([^}]+)\}/g)].map((m) => m[1]!);
}
