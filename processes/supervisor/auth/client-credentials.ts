import type { OAuth2Config } from './oauth2-config.js';
import { requestToken, type TokenGrant, type TokenRequestOptions } from './token-endpoint.js';

/** The client-credentials grant: the client itself is the party, no user and no browser. */
export function requestClientCredentials(config: OAuth2Config, options: TokenRequestOptions): Promise<TokenGrant> {
  const params: Record<string, string> = { grant_type: 'client_credentials' };
  if (config.scope !== '') params.scope = config.scope;
  return requestToken(config, params, options);
}
