/** The keychain's interface over a Map, for unit tests; the real Secret Service is in test/integration/cookies-keychain.test.ts. */
import { ParleyError } from '../../../../protocol/errors.js';
import type { SecretStore } from '../../store/secrets.js';

export class MapSecrets implements SecretStore {
  readonly map = new Map<string, string>();
  /** Set to make the keychain report no secure storage. */
  unavailable: string | null = null;
  /** Set to make every read fail, as a locked keychain does. */
  failReads = false;

  async get(name: string): Promise<string | null> {
    if (this.failReads) throw new ParleyError('keychain-failed', 'Could not read the secret in the system keychain (locked).');
    return this.map.get(name) ?? null;
  }
  async set(name: string, value: string): Promise<void> {
    this.map.set(name, value);
  }
  async delete(name: string): Promise<void> {
    this.map.delete(name);
  }
  async unavailableReason(): Promise<string | null> {
    return this.unavailable;
  }
}
