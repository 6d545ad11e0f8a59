import type { OAuth2Config } from './oauth2-config.js';
import { requestToken, type TokenGrant, type TokenRequestOptions } from './token-endpoint.js';

/** Trades a refresh token for a new access token (RFC 6749 section 6). */
export function refreshAccessToken(config: OAuth2Config, refreshToken: string, options: TokenRequestOptions): Promise<TokenGrant> {
  return requestToken(config, { grant_type: 'refresh_token', refresh_token: refreshToken }, options);
}
