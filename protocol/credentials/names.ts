/**
 * SPEC "Credentials in imported captures": which names look like credentials. The one rule every
 * place uses (History, examples, Copy as cURL, the mock log, importers).
 */

/** What a masked value reads as. */
export const MASK = '••••••';

const CREDENTIAL_PARTS = ['token', 'secret', 'password', 'passwd', 'apikey', 'auth', 'session', 'csrf', 'xsrf', 'signature', 'subscriptionkey', 'accesskey', 'privatekey'];
const EXACT = new Set(['key', 'sig']);
/** Headers that carry credentials whatever the rule says of their names. */
const CREDENTIAL_HEADERS = new Set(['cookie', 'setcookie']);

const verdicts = new Map<string, boolean>();

/** Ignoring case, `_` and `-`: contains one of the parts, or is exactly `key` or `sig`. */
export function isCredentialName(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    const n = name.toLowerCase().replace(/[_-]/g, '');
    verdict = EXACT.has(n) || CREDENTIAL_PARTS.some((p) => n.includes(p));
    // Names repeat from request to request; the bound keeps odd clients from growing it.
    if (verdicts.size > 4096) verdicts.clear();
    verdicts.set(name, verdict);
  }
  return verdict;
}

/** A header whose value is a credential: the rule, plus Cookie and Set-Cookie (Authorization matches `auth`). */
export function isCredentialHeader(name: string): boolean {
  return isCredentialName(name) || CREDENTIAL_HEADERS.has(name.toLowerCase().replace(/[_-]/g, ''));
}

const REFERENCE = /\$\{[^{}]+\}|\{\{[^{}]+\}\}/g;

/** A value made only of `${...}` or `{{...}}` references (and white space) holds no secret itself. */
export function isReferenceOnly(value: string): boolean {
  const trimmed = value.trim();
  return trimmed !== '' && trimmed.replace(REFERENCE, '').trim() === '';
}
