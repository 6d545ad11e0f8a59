/**
 * The auth fields that hold a secret (a password, token, API key or client secret): what a save
 * moves to the secret store, and what the page marks as "stored when you save". One rule for the
 * supervisor and the page, over the one list of fields (AUTH_SECRET_FIELDS).
 */
import { AUTH_SECRET_FIELDS, type Auth } from '../model/auth.js';

/**
 * An auth field's value that may stay in a file as written: empty, or made only of `${...}`
 * references (Parley's own; names.ts's `isReferenceOnly` also takes Postman's `{{...}}`, which
 * an auth field sends as typed).
 */
export function isReferenceOrEmpty(value: string): boolean {
  return value === '' || /^(\$\{[^{}]+\})+$/.test(value.trim());
}

/** Literal secrets in an auth, by field name: what must not reach a file or a log. */
export function literalSecrets(auth: Auth): Map<string, string> {
  const out = new Map<string, string>();
  for (const field of AUTH_SECRET_FIELDS.get(auth.type) ?? []) {
    const value = Object.hasOwn(auth, field) ? (auth as Record<string, unknown>)[field] : undefined;
    if (typeof value === 'string' && !isReferenceOrEmpty(value)) out.set(field, value);
  }
  return out;
}
