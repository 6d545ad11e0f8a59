/**
 * Keeps secrets out of project files: a secret typed into an auth field (a password, token,
 * API key or client secret) is moved to the workspace's secret store (keychain or vault) on save
 * and replaced by its `${secret:name}` reference. Values made only of `${...}` references are
 * kept as written. Without a store the save is refused, or, when the user chose to save without
 * the secret, the field is saved empty.
 */
import { ParleyError } from '../../../protocol/errors.js';
import type { Auth } from '../../../protocol/model/auth.js';
import type { SecretStore } from '../store/secrets.js';
import { literalSecrets } from '../../../protocol/credentials/auth-secrets.js';

export interface SecuredAuth {
  auth: Auth;
  /** Names stored. */
  stored: string[];
  /** Fields saved empty because nothing could store them (`leaveOut`). */
  leftOut: string[];
}

export async function moveSecretsToStore(auth: Auth, scope: string, secrets: SecretStore, options: { leaveOut?: boolean; refusal?: string } = {}): Promise<SecuredAuth> {
  const literals = literalSecrets(auth);
  if (literals.size === 0) return { auth, stored: [], leftOut: [] };
  const next = { ...auth } as Record<string, string>;
  const reason = await secrets.unavailableReason();
  if (reason) {
    if (!options.leaveOut) throw await noStorageError(secrets, reason, options.refusal ?? 'The secret typed into the auth was not saved.');
    for (const field of literals.keys()) next[field] = '';
    return { auth: next as unknown as Auth, stored: [], leftOut: [...literals.keys()] };
  }
  const stored: string[] = [];
  for (const [field, value] of literals) {
    const name = `${scope}/${field}`;
    await secrets.set(name, value);
    next[field] = `\${secret:${name}}`;
    stored.push(name);
  }
  return { auth: next as unknown as Auth, stored, leftOut: [] };
}

/** The refusal of a save that holds a secret nothing can store: `vault-locked` when a vault is there, else `no-secure-storage`. */
export async function noStorageError(secrets: SecretStore, reason: string, what: string): Promise<ParleyError> {
  const locked = (await secrets.backend?.()) === 'vault';
  return new ParleyError(locked ? 'vault-locked' : 'no-secure-storage', `${reason} ${what}`);
}
