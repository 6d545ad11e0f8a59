/**
 * The Authentication section's draft (SPEC "Credentials for fetching a definition"): every
 * field of every choice is kept, so trying another choice does not lose what was typed.
 */
import type { DefinitionSource } from '../../../../protocol/model/api.js';
import type { FetchCredentials } from '../../../../protocol/model/import.js';

/** `stored` re-uses the keychain credentials recorded with the API (definition update only). */
export type AuthMode = 'stored' | 'none' | 'basic' | 'bearer' | 'apikey' | 'kerberos';

export interface AuthDraft {
  mode: AuthMode;
  username: string;
  password: string;
  token: string;
  keyName: string;
  keyValue: string;
  keyIn: 'header' | 'query';
  /** Kerberos: the service principal; empty means HTTP@<the document's host>. */
  spn: string;
}

export const AUTH_MODE_LABELS: Record<AuthMode, string> = {
  stored: 'Use stored credentials',
  none: 'None',
  basic: 'Basic',
  bearer: 'Bearer token',
  apikey: 'API key',
  kerberos: 'Kerberos',
};

export function emptyAuth(mode: AuthMode = 'none'): AuthDraft {
  return { mode, username: '', password: '', token: '', keyName: 'X-API-Key', keyValue: '', keyIn: 'header', spn: '' };
}

/** What goes on the wire; undefined for None and for stored credentials (the supervisor adds those). */
export function toCredentials(draft: AuthDraft): FetchCredentials | undefined {
  switch (draft.mode) {
    case 'basic':
      return { type: 'basic', username: draft.username, password: draft.password };
    case 'bearer':
      return { type: 'bearer', token: draft.token };
    case 'apikey':
      return { type: 'apikey', name: draft.keyName.trim(), value: draft.keyValue, in: draft.keyIn };
    case 'kerberos':
      return draft.spn.trim() ? { type: 'kerberos', spn: draft.spn.trim() } : { type: 'kerberos' };
    default:
      return undefined;
  }
}

/** Why the credentials cannot be used as typed, or null. */
export function credentialsProblem(draft: AuthDraft): string | null {
  if (draft.mode === 'basic' && draft.username.trim() === '') return 'Basic authentication needs a username.';
  if (draft.mode === 'bearer' && draft.token === '') return 'Enter the bearer token.';
  if (draft.mode === 'apikey' && draft.keyName.trim() === '') return 'Name the header or query parameter that carries the API key.';
  if (draft.mode === 'apikey' && draft.keyValue === '') return 'Enter the API key.';
  return null;
}

export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** Rule 6: stored credentials are offered for a URL on the recorded source's origin, when there are any. */
export function storedCredentialsFor(url: string, recorded: DefinitionSource | undefined): boolean {
  return recorded?.kind === 'url' && recorded.credentials !== undefined && sameOrigin(url, recorded.location);
}

/** "Basic (alice)", "Bearer token", "API key X-Key in the query", for the recorded source line. */
export function describeRecordedCredentials(credentials: NonNullable<DefinitionSource['credentials']>): string {
  if (credentials.type === 'basic') return `Basic${credentials.username ? ` (${credentials.username})` : ''}`;
  if (credentials.type === 'bearer') return 'Bearer token';
  if (credentials.type === 'kerberos') return `Kerberos (your signed-in ticket${credentials.spn ? `, SPN ${credentials.spn}` : ''})`;
  return `API key ${credentials.name ?? ''} in the ${credentials.in === 'query' ? 'query' : 'header'}`.replace('  ', ' ');
}
