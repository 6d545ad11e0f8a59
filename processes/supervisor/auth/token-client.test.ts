import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../../../protocol/errors.js';
import { authorizationHeader, OAuth2TokenClient, type OAuth2Config } from './index.js';
import { DESKTOP_CLIENT, MACHINE_CLIENT, startOidcServer, type OidcServer } from './test-support/oidc-server.js';
import { playBrowserSignIn, type SignInRun, type SignInScript } from './test-support/scripted-browser.js';

let oidc: OidcServer;
const TTL_SECONDS = 600;

beforeAll(async () => {
  oidc = await startOidcServer({ accessTokenTtlSeconds: TTL_SECONDS });
});

afterAll(async () => {
  await oidc.close();
});

function machineConfig(overrides: Partial<OAuth2Config> = {}): OAuth2Config {
  return {
    grant: 'client_credentials',
    tokenUrl: oidc.tokenUrl,
    authorizationUrl: '',
    clientId: MACHINE_CLIENT.id,
    clientSecret: MACHINE_CLIENT.secret,
    scope: 'api:read',
    usePkce: false,
    ...overrides,
  };
}

function desktopConfig(): OAuth2Config {
  return {
    grant: 'authorization_code',
    tokenUrl: oidc.tokenUrl,
    authorizationUrl: oidc.authorizationUrl,
    clientId: DESKTOP_CLIENT.id,
    clientSecret: '',
    scope: 'openid api:read',
    usePkce: true,
  };
}

/** A settable clock, so expiry is tested without waiting. */
function clock(): { now: () => number; advance: (ms: number) => void } {
  let time = Date.now();
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** An openBrowser that records the URL and plays the user in the background. */
function scriptedUser(script: SignInScript): { openBrowser: (url: string) => Promise<void>; urls: string[]; runs: Array<Promise<SignInRun>> } {
  const urls: string[] = [];
  const runs: Array<Promise<SignInRun>> = [];
  return {
    urls,
    runs,
    openBrowser: async (url) => {
      urls.push(url);
      const run = playBrowserSignIn(url, script);
      run.catch(() => undefined);
      runs.push(run);
    },
  };
}

const noBrowser = async (): Promise<void> => {
  throw new Error('the browser must not be needed here');
};

async function rejection(promise: Promise<unknown>): Promise<ParleyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParleyError);
  return error as ParleyError;
}

describe('client credentials', () => {
  it('gets a Bearer token with its expiry and reuses it until shortly before it expires', async () => {
    const time = clock();
    const client = new OAuth2TokenClient({ openBrowser: noBrowser, now: time.now });
    const before = oidc.tokenRequests.length;

    const token = await client.getToken('api-1', machineConfig());
    expect(token.tokenType).toBe('Bearer');
    expect(token.accessToken.length).toBeGreaterThan(10);
    expect(token.expiresAt).toBe(time.now() + TTL_SECONDS * 1000);
    expect(token.scope).toBe('api:read');
    expect(authorizationHeader(token)).toBe(`Bearer ${token.accessToken}`);

    time.advance((TTL_SECONDS - 60) * 1000);
    expect(await client.getToken('api-1', machineConfig())).toEqual(token);
    expect(oidc.tokenRequests.length).toBe(before + 1);

    // Inside the renewal margin (30 s by default): a new grant, as there is no refresh token.
    time.advance(45 * 1000);
    const renewed = await client.getToken('api-1', machineConfig());
    expect(renewed.accessToken).not.toBe(token.accessToken);
    expect(oidc.tokenRequests.slice(before)).toEqual(['client_credentials', 'client_credentials']);
  });

  it('keeps tokens apart per caller key and per config', async () => {
    const client = new OAuth2TokenClient({ openBrowser: noBrowser });
    const a = await client.getToken('request-a', machineConfig());
    const b = await client.getToken('request-b', machineConfig());
    const wider = await client.getToken('request-a', machineConfig({ scope: 'api:read api:write' }));
    expect(new Set([a.accessToken, b.accessToken, wider.accessToken]).size).toBe(3);
    expect(wider.scope).toBe('api:read api:write');
  });

  it('shares one grant between concurrent asks', async () => {
    const client = new OAuth2TokenClient({ openBrowser: noBrowser });
    const before = oidc.tokenRequests.length;
    const [one, two] = await Promise.all([client.getToken('same', machineConfig()), client.getToken('same', machineConfig())]);
    expect(one).toEqual(two);
    expect(oidc.tokenRequests.length).toBe(before + 1);
  });

  it('refuses a wrong secret with invalid_client, naming the endpoint and never the secret', async () => {
    const client = new OAuth2TokenClient({ openBrowser: noBrowser });
    const error = await rejection(client.getToken('bad', machineConfig({ clientSecret: 'not-the-secret-at-all' })));
    expect(error.code).toBe('oauth-error');
    expect(error.data).toMatchObject({ error: 'invalid_client', endpoint: oidc.tokenUrl });
    expect(error.message).toBe(`The token endpoint ${oidc.tokenUrl} refused the request: invalid_client.`);
    expect(JSON.stringify(error.toWire())).not.toContain('not-the-secret-at-all');
  });

  it('falls back to client_secret_post for a server that refuses Basic, and remembers it', async () => {
    const time = clock();
    const client = new OAuth2TokenClient({ openBrowser: noBrowser, now: time.now });
    const before = oidc.tokenCalls.length;
    const config = machineConfig({ tokenUrl: oidc.postOnlyTokenUrl });
    await client.getToken('post', config);
    time.advance(TTL_SECONDS * 1000);
    await client.getToken('post', config);
    expect(oidc.tokenCalls.slice(before)).toEqual(['basic 401', 'body 200', 'body 200']);
  });

  it('reports an unreachable token endpoint', async () => {
    const client = new OAuth2TokenClient({ openBrowser: noBrowser });
    const error = await rejection(client.getToken('down', machineConfig({ tokenUrl: 'http://127.0.0.1:1/token?key=hidden' })));
    expect(error.code).toBe('oauth-unreachable');
    expect(error.message).toBe('Could not reach the token endpoint http://127.0.0.1:1/token. Connection refused by 127.0.0.1:1: nothing is listening there.');
    expect(error.message).not.toContain('hidden');
  });
});

describe('authorization code with PKCE', () => {
  it('signs in through the browser and the loopback redirect, then refreshes without the browser', async () => {
    const time = clock();
    const user = scriptedUser({ login: 'alice' });
    const client = new OAuth2TokenClient({ openBrowser: user.openBrowser, now: time.now });
    const before = oidc.tokenRequests.length;

    const token = await client.getToken('desktop', desktopConfig());
    expect(token.tokenType).toBe('Bearer');
    expect(token.expiresAt).toBe(time.now() + TTL_SECONDS * 1000);

    const asked = new URL(user.urls[0]!);
    expect(`${asked.origin}${asked.pathname}`).toBe(oidc.authorizationUrl);
    expect(asked.searchParams.get('response_type')).toBe('code');
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(asked.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const landing = await user.runs[0]!;
    expect(landing.finalStatus).toBe(200);
    expect(landing.finalPage).toContain('You can close this tab');

    // The listener is gone once the code arrived.
    const listenerGone = await request(asked.searchParams.get('redirect_uri')!).then(
      () => false,
      () => true,
    );
    expect(listenerGone).toBe(true);

    expect(await client.getToken('desktop', desktopConfig())).toEqual(token);
    time.advance(TTL_SECONDS * 1000);
    const refreshed = await client.getToken('desktop', desktopConfig());
    expect(refreshed.accessToken).not.toBe(token.accessToken);
    expect(user.urls).toHaveLength(1);
    expect(oidc.tokenRequests.slice(before)).toEqual(['authorization_code', 'refresh_token']);
  });

  it('signs in again through the browser when the refresh token is refused', async () => {
    // A second server whose refresh tokens live one second.
    const shortLived = await startOidcServer({ accessTokenTtlSeconds: TTL_SECONDS, refreshTokenTtlSeconds: 1 });
    try {
      const time = clock();
      const user = scriptedUser({ login: 'carol' });
      const client = new OAuth2TokenClient({ openBrowser: user.openBrowser, now: time.now });
      const config = { ...desktopConfig(), tokenUrl: shortLived.tokenUrl, authorizationUrl: shortLived.authorizationUrl };
      const first = await client.getToken('desktop', config);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      time.advance(TTL_SECONDS * 1000);
      const second = await client.getToken('desktop', config);
      expect(second.accessToken).not.toBe(first.accessToken);
      expect(user.urls).toHaveLength(2);
      expect(shortLived.tokenRequests).toEqual(['authorization_code', 'authorization_code']);
      expect(shortLived.tokenCalls).toEqual(['body 200', 'body 400', 'body 200']);
    } finally {
      await shortLived.close();
    }
  });

  it('refuses a callback whose state does not match, and closes the listener', async () => {
    const user = scriptedUser({
      login: 'mallory',
      tamperCallback: (callback) => {
        const forged = new URL(callback);
        forged.searchParams.set('state', 'forged-state');
        return forged;
      },
    });
    const client = new OAuth2TokenClient({ openBrowser: user.openBrowser });
    const error = await rejection(client.getToken('forged', desktopConfig()));
    expect(error.code).toBe('oauth-state-mismatch');
    const landing = await user.runs[0]!;
    expect(landing.finalStatus).toBe(400);
    expect(landing.finalPage).toContain('You can close this tab');
  });

  it('reports a refused consent with the OAuth error code', async () => {
    const user = scriptedUser({ login: 'bob', refuseConsent: true });
    const client = new OAuth2TokenClient({ openBrowser: user.openBrowser });
    const error = await rejection(client.getToken('refused', desktopConfig()));
    expect(error.code).toBe('oauth-authorization-failed');
    expect(error.data).toEqual({ error: 'access_denied' });
  });

  it('gives up when the browser never comes back, and on abort', async () => {
    const urls: string[] = [];
    const client = new OAuth2TokenClient({ openBrowser: async (url) => void urls.push(url), callbackTimeoutMs: 200 });
    const timeout = await rejection(client.getToken('idle', desktopConfig()));
    expect(timeout.code).toBe('oauth-callback-timeout');
    const timedOutListener = new URL(urls[0]!).searchParams.get('redirect_uri')!;
    expect(await request(timedOutListener).then(() => 'open', () => 'closed')).toBe('closed');

    const controller = new AbortController();
    const pending = client.getToken('aborted', desktopConfig(), controller.signal);
    setTimeout(() => controller.abort(), 50);
    const cancelled = await rejection(pending);
    expect(cancelled.code).toBe('cancelled');
  });
});
