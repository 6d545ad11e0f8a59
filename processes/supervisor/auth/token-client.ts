import type { Dispatcher } from 'undici';
import { ParleyError } from '../../../protocol/errors.js';
import { signInWithBrowser } from './authorization-code.js';
import { requestClientCredentials } from './client-credentials.js';
import { checkConfig, configDigest, type OAuth2Config, type OAuth2Token } from './oauth2-config.js';
import { refreshAccessToken } from './refresh-token.js';
import type { ClientAuthMethod, TokenGrant, TokenRequestOptions } from './token-endpoint.js';

export interface TokenClientOptions {
  /** Opens the sign-in page in the user's browser (authorization-code grant). */
  openBrowser: (url: string) => Promise<void>;
  /** Epoch ms; injected so expiry is testable. Default Date.now. */
  now?: () => number;
  /** For the token requests (a proxy or extra CA); default undici's global dispatcher. */
  dispatcher?: Dispatcher;
  /** How long the loopback listener waits for the browser. Default 5 minutes. */
  callbackTimeoutMs?: number;
  /** A token this close to expiry is renewed instead of used. Default 30 s. */
  renewBeforeExpiryMs?: number;
  /** Limit for one token endpoint request. Default 30 s. */
  requestTimeoutMs?: number;
}

interface CachedToken {
  token: OAuth2Token;
  refreshToken?: string;
}

/**
 * Gets access tokens for OAuth 2 auth at send time and keeps them: one per caller key (a
 * request or API id) and config digest. A kept token is reused until shortly before it expires,
 * then renewed with its refresh token when there is one, else by a new grant. Concurrent asks
 * for the same token share one grant. Nothing here logs a token.
 */
export class OAuth2TokenClient {
  readonly #options: Required<Omit<TokenClientOptions, 'dispatcher'>> & { dispatcher?: Dispatcher };
  readonly #cache = new Map<string, CachedToken>();
  readonly #pending = new Map<string, Promise<OAuth2Token>>();
  /** Client auth method that worked, per config digest. */
  readonly #authMethods = new Map<string, ClientAuthMethod>();

  constructor(options: TokenClientOptions) {
    this.#options = {
      openBrowser: options.openBrowser,
      now: options.now ?? Date.now,
      callbackTimeoutMs: options.callbackTimeoutMs ?? 5 * 60_000,
      renewBeforeExpiryMs: options.renewBeforeExpiryMs ?? 30_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    };
  }

  /** A usable access token for `key` under `config`: the kept one, a refreshed one, or a new grant. */
  async getToken(key: string, config: OAuth2Config, signal?: AbortSignal): Promise<OAuth2Token> {
    checkConfig(config);
    const digest = configDigest(config);
    const cacheKey = `${key}\n${digest}`;
    const kept = this.#cache.get(cacheKey);
    if (kept !== undefined && this.#usable(kept.token)) return kept.token;
    const pending = this.#pending.get(cacheKey);
    if (pending !== undefined) return pending;
    const obtaining = this.#obtain(key, cacheKey, digest, config, kept, signal).finally(() => this.#pending.delete(cacheKey));
    this.#pending.set(cacheKey, obtaining);
    return obtaining;
  }

  /** Drops the kept tokens of `key` (e.g. after the API answered 401 to one). */
  forget(key: string): void {
    for (const cacheKey of this.#cache.keys()) if (cacheKey.startsWith(`${key}\n`)) this.#cache.delete(cacheKey);
  }

  clear(): void {
    this.#cache.clear();
  }

  #usable(token: OAuth2Token): boolean {
    return token.expiresAt === undefined || this.#options.now() < token.expiresAt - this.#options.renewBeforeExpiryMs;
  }

  async #obtain(key: string, cacheKey: string, digest: string, config: OAuth2Config, kept: CachedToken | undefined, signal?: AbortSignal): Promise<OAuth2Token> {
    const requestOptions: TokenRequestOptions = {
      timeoutMs: this.#options.requestTimeoutMs,
      now: this.#options.now,
      ...(signal ? { signal } : {}),
      ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
      ...(this.#authMethods.has(digest) ? { authMethod: this.#authMethods.get(digest) } : {}),
    };
    let grant: TokenGrant | undefined;
    if (kept?.refreshToken !== undefined) {
      try {
        grant = await refreshAccessToken(config, kept.refreshToken, requestOptions);
        // A server may keep the refresh token and not send it again.
        grant.refreshToken ??= kept.refreshToken;
      } catch (err) {
        // A refused refresh token (expired, revoked) means a new grant; anything else is reported.
        if (!(err instanceof ParleyError && err.code === 'oauth-error')) throw err;
      }
    }
    grant ??=
      config.grant === 'client_credentials'
        ? await requestClientCredentials(config, requestOptions)
        : await signInWithBrowser(config, { ...requestOptions, openBrowser: this.#options.openBrowser, callbackTimeoutMs: this.#options.callbackTimeoutMs });
    this.#authMethods.set(digest, grant.authMethod);
    // One kept token per key: a changed config replaces the old one.
    this.forget(key);
    this.#cache.set(cacheKey, grant.refreshToken === undefined ? { token: grant.token } : { token: grant.token, refreshToken: grant.refreshToken });
    return grant.token;
  }
}
