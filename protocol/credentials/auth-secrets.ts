/**
 * The auth fields that hold a secret (a password, token, API key or client secret): what a save
 * moves to the secret store, and what the page marks as "stored when you save". One list for the
 * supervisor and the page.
 */
import type { Auth } from '../model/auth.js';

const SECRET_FIELDS: Partial<Record<Auth['type'], readonly string[]>> = {
  basic: ['password'],
  bearer: ['token'],
  apikey: ['value'],
  oauth2: ['clientSecret'],
};

/** An auth field's value that may stay in a file as written: empty, or made only of `${...}` references. */
export function isReferenceOnly(value: string): boolean {
  return value === '' || /^(\$\{[^{}]+\})+$/.test(value.trim());
}

/** Literal secrets in an auth, by field name: what must not reach a file or a log. */
export function literalSecrets(auth: Auth): Map<string, string> {
  const out = new Map<string, string>();
  for (const field of SECRET_FIELDS[auth.type] ?? []) {
    const value = Object.hasOwn(auth, field) ? (auth as Record<string, unknown>)[field] : undefined;
    if (typeof value === 'string' && !isReferenceOnly(value)) out.set(field, value);
  }
  return out;
}
