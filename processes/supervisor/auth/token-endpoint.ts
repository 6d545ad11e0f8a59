import type { Dispatcher } from 'undici';
import { ParleyError } from '../../../protocol/errors.js';
import { endpointName, type OAuth2Config, type OAuth2Token } from './oauth2-config.js';

/**
 * How the client proves itself at the token endpoint. client_secret_basic is the default (RFC
 * 6749 2.3.1: servers must support it); a server that answers invalid_client to it is asked
 * once more with client_secret_post, and the method that worked is remembered by the caller.
 * A client without a secret is public: it sends only its client_id.
 */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface TokenRequestOptions {
  /** The method that worked last time for this endpoint, if known. */
  authMethod?: ClientAuthMethod;
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  timeoutMs: number;
  now: () => number;
}

/** A token endpoint's answer: the token, the refresh token if any, and the auth method used. */
export interface TokenGrant {
  token: OAuth2Token;
  refreshToken?: string;
  authMethod: ClientAuthMethod;
}

/** Largest token response read; real ones are a few KB. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** POSTs a token request (grant-specific `params`) and returns the parsed token. */
export async function requestToken(config: OAuth2Config, params: Record<string, string>, options: TokenRequestOptions): Promise<TokenGrant> {
  const first: ClientAuthMethod = config.clientSecret === '' ? 'none' : (options.authMethod ?? 'client_secret_basic');
  try {
    return await postOnce(config, params, first, options);
  } catch (err) {
    const retry = first === 'client_secret_basic' && options.authMethod === undefined && err instanceof ParleyError && (err.data as { error?: string } | undefined)?.error === 'invalid_client';
    if (!retry) throw err;
    return await postOnce(config, params, 'client_secret_post', options);
  }
}

async function postOnce(config: OAuth2Config, params: Record<string, string>, authMethod: ClientAuthMethod, options: TokenRequestOptions): Promise<TokenGrant> {
  const endpoint = endpointName(config.tokenUrl);
  const form = new URLSearchParams(params);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (authMethod === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${formEncode(config.clientId)}:${formEncode(config.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', config.clientId);
    if (authMethod === 'client_secret_post') form.set('client_secret', config.clientSecret);
  }

  const signal = options.signal === undefined ? AbortSignal.timeout(options.timeoutMs) : AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  const requestedAt = options.now();
  let status: number;
  let text: string;
  try {
    // undici is loaded with the first token request: most supervisors never make one (about 150 ms of every start).
    const { request } = await import('undici');
    const response = await request(config.tokenUrl, { method: 'POST', headers, body: form.toString(), signal, ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}) });
    status = response.statusCode;
    text = await readLimited(response.body);
  } catch (err) {
    if (options.signal?.aborted) throw new ParleyError('cancelled', `The token request to ${endpoint} was cancelled.`, { endpoint });
    if (signal.aborted) throw new ParleyError('oauth-unreachable', `The token endpoint ${endpoint} did not answer within ${options.timeoutMs} ms.`, { endpoint });
    // In the sender's words (connection refused, host not found, TLS...), never undici's or Node's own.
    const { sendFailure } = await import('../../sender/engine/send-errors.js');
    const failure = sendFailure(err, { host: hostOf(config.tokenUrl), proxyHost: '', requestStarted: false });
    throw new ParleyError('oauth-unreachable', `Could not reach the token endpoint ${endpoint}. ${failure.message}`, { endpoint, reason: failure.code });
  }

  const body = parseJson(text);
  if (status < 200 || status > 299) {
    const error = oauthErrorCode(body);
    if (error !== undefined) throw new ParleyError('oauth-error', `The token endpoint ${endpoint} refused the request: ${error}.`, { endpoint, error, status });
    throw new ParleyError('oauth-http-error', `The token endpoint ${endpoint} answered HTTP ${status}.`, { endpoint, status });
  }
  const accessToken = body?.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new ParleyError('oauth-bad-response', `The token endpoint ${endpoint} answered without an access_token.`, { endpoint });
  }
  const tokenType = typeof body?.token_type === 'string' && body.token_type !== '' ? body.token_type : 'Bearer';
  const expiresIn = Number(body?.expires_in);
  const token: OAuth2Token = { accessToken, tokenType: tokenType.toLowerCase() === 'bearer' ? 'Bearer' : tokenType };
  // Counted from when the request left: the token cannot outlive what the server said.
  if (body?.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0) token.expiresAt = requestedAt + expiresIn * 1000;
  if (typeof body?.scope === 'string') token.scope = body.scope;
  const refreshToken = typeof body?.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : undefined;
  return refreshToken === undefined ? { token, authMethod } : { token, refreshToken, authMethod };
}

/** RFC 6749 2.3.1: id and secret are form-encoded before Basic encoding. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The OAuth error code only (never the description, which may echo input): a short safe token. */
export function oauthErrorCode(body: Record<string, unknown> | undefined): string | undefined {
  const error = body?.error;
  return typeof error === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(error) ? error : undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the token endpoint';
  }
}
