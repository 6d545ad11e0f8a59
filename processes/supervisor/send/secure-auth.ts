/**
 * Keeps secrets out of project files: a secret typed into an auth field (a password, token,
 * API key or client secret) is moved to the keychain on save and replaced by its
 * `${secret:name}` reference. Values made only of `${...}` references are kept as written.
 */
import { ParleyError } from '../../../protocol/errors.js';
import { AUTH_SECRET_FIELDS, type Auth } from '../../../protocol/model/auth.js';
import type { SecretStore } from '../store/secrets.js';

export function isReferenceOnly(value: string): boolean {
  return value === '' || /^(\$\{[^{}]+\})+$/.test(value.trim());
}

/** Literal secrets in an auth, by field name: what must not reach a file or a log. */
export function literalSecrets(auth: Auth): Map<string, string> {
  const out = new Map<string, string>();
  for (const field of AUTH_SECRET_FIELDS.get(auth.type) ?? []) {
    const value = (auth as Record<string, string>)[field] ?? '';
    if (!isReferenceOnly(value)) out.set(field, value);
  }
  return out;
}

export async function moveSecretsToKeychain(auth: Auth, scope: string, secrets: SecretStore): Promise<{ auth: Auth; stored: string[] }> {
  const literals = literalSecrets(auth);
  if (literals.size === 0) return { auth, stored: [] };
  const reason = await secrets.unavailableReason();
  if (reason) {
    throw new ParleyError('no-secure-storage', `${reason} The secret typed into the auth was not saved.`);
  }
  const next = { ...auth } as Record<string, string>;
  const stored: string[] = [];
  for (const [field, value] of literals) {
    const name = `${scope}/${field}`;
    await secrets.set(name, value);
    next[field] = `\${secret:${name}}`;
    stored.push(name);
  }
  return { auth: next as unknown as Auth, stored };
}
