import { createHash } from 'node:crypto';
import { ParleyError } from '../../../protocol/errors.js';

/** An OAuth 2 setup as the supervisor resolved it: the client secret already read from the keychain. */
export interface OAuth2Config {
  grant: 'client_credentials' | 'authorization_code';
  tokenUrl: string;
  /** Used by the authorization-code grant only. */
  authorizationUrl: string;
  clientId: string;
  /** Empty for a public client (the authorization-code grant with PKCE needs none). */
  clientSecret: string;
  /** Space-separated scopes, or empty for the server's default. */
  scope: string;
  /** Send a PKCE (S256) challenge with the authorization-code grant. */
  usePkce: boolean;
}

/** An access token ready to put on a request. */
export interface OAuth2Token {
  accessToken: string;
  /** As the server named it; 'bearer' in any case is written 'Bearer'. */
  tokenType: string;
  /** Epoch ms when it expires, or undefined when the server did not say. */
  expiresAt?: number;
  /** Scopes granted, when the server said. */
  scope?: string;
}

/** The Authorization header value for a token. */
export function authorizationHeader(token: OAuth2Token): string {
  return `${token.tokenType} ${token.accessToken}`;
}

/**
 * A digest of everything that makes a token valid for a config: a changed secret, scope or
 * endpoint gets a new token. The secret only goes into the digest, never into a readable key.
 */
export function configDigest(config: OAuth2Config): string {
  const fields = [config.grant, config.tokenUrl, config.authorizationUrl, config.clientId, config.clientSecret, config.scope, String(config.usePkce)];
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url');
}

/** An endpoint as errors may name it: origin and path, never a query string (it may carry a key). */
export function endpointName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'the OAuth endpoint';
  }
}

/** Refuses a config that cannot work before anything is sent. */
export function checkConfig(config: OAuth2Config): void {
  const urls: Array<[string, string]> = [['token URL', config.tokenUrl]];
  if (config.grant === 'authorization_code') urls.push(['authorization URL', config.authorizationUrl]);
  for (const [what, value] of urls) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new ParleyError('bad-input', `The OAuth 2 ${what} is not a valid http or https URL.`, { field: what });
    }
  }
  if (config.clientId === '') throw new ParleyError('bad-input', 'The OAuth 2 client ID is empty.', { field: 'client ID' });
  if (config.grant === 'client_credentials' && config.clientSecret === '') {
    throw new ParleyError('bad-input', 'The client credentials grant needs a client secret.', { field: 'client secret' });
  }
}
