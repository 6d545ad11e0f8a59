import { ParleyError } from '../../../protocol/errors.js';
import { startLoopbackCallback } from './loopback-callback.js';
import type { OAuth2Config } from './oauth2-config.js';
import { createPkcePair, createState } from './pkce.js';
import { requestToken, type TokenGrant, type TokenRequestOptions } from './token-endpoint.js';

export interface BrowserSignInOptions extends TokenRequestOptions {
  /** Opens the URL in the user's browser; injected by the host (Electron shell, `open`, a test). */
  openBrowser: (url: string) => Promise<void>;
  /** How long to wait for the browser to come back. */
  callbackTimeoutMs: number;
}

/**
 * The authorization-code grant for a desktop app (RFC 8252): the user signs in in their own
 * browser, which is redirected to a one-shot loopback listener; the code is then exchanged at
 * the token endpoint, with the PKCE verifier when PKCE is on.
 */
export async function signInWithBrowser(config: OAuth2Config, options: BrowserSignInOptions): Promise<TokenGrant> {
  const state = createState();
  const pkce = config.usePkce ? createPkcePair() : undefined;
  const callback = await startLoopbackCallback(state, options.callbackTimeoutMs, options.signal);
  try {
    const url = new URL(config.authorizationUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('redirect_uri', callback.redirectUri);
    url.searchParams.set('state', state);
    if (config.scope !== '') url.searchParams.set('scope', config.scope);
    if (pkce !== undefined) {
      url.searchParams.set('code_challenge', pkce.challenge);
      url.searchParams.set('code_challenge_method', pkce.method);
    }
    try {
      await options.openBrowser(url.href);
    } catch {
      throw new ParleyError('oauth-browser-failed', 'Could not open the browser for the OAuth 2 sign-in.');
    }
    const { code } = await callback.result;
    const params: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: callback.redirectUri };
    if (pkce !== undefined) params.code_verifier = pkce.verifier;
    return await requestToken(config, params, options);
  } finally {
    callback.close();
  }
}
