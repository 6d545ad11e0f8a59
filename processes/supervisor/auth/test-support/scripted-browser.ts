/**
 * Plays the user's browser against oidc-provider's dev interactions with plain HTTP requests
 * and a cookie jar: follows redirects, submits the login form and the consent form, and lands
 * on the app's loopback redirect exactly as a browser would.
 */
import { CookieJar } from 'tough-cookie';
import { request } from 'undici';

export interface SignInScript {
  login: string;
  /** Rewrites the final redirect to the app (to test a forged state). */
  tamperCallback?: (callback: URL) => URL;
  /** Answer the consent page with "abort" instead of consenting. */
  refuseConsent?: boolean;
}

export interface SignInRun {
  /** The page the loopback listener showed at the end. */
  finalStatus: number;
  finalPage: string;
}

export async function playBrowserSignIn(authorizeUrl: string, script: SignInScript): Promise<SignInRun> {
  const jar = new CookieJar();
  const redirectUri = new URL(authorizeUrl).searchParams.get('redirect_uri') ?? '';
  let url = new URL(authorizeUrl);
  let method: 'GET' | 'POST' = 'GET';
  let form: string | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.href.startsWith(redirectUri)) {
      const target = script.tamperCallback ? script.tamperCallback(url) : url;
      const landing = await request(target);
      return { finalStatus: landing.statusCode, finalPage: await landing.body.text() };
    }
    const headers: Record<string, string> = { cookie: await jar.getCookieString(url.href) };
    if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await request(url, { method, headers, ...(form === undefined ? {} : { body: form }) });
    for (const cookie of [response.headers['set-cookie'] ?? []].flat()) await jar.setCookie(cookie, url.href);
    const page = await response.body.text();
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      url = new URL(location, url);
      method = 'GET';
      form = undefined;
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (response.statusCode !== 200 || action === undefined || prompt === undefined) {
      throw new Error(`unexpected page at ${url.pathname}: HTTP ${response.statusCode}`);
    }
    if (prompt === 'consent' && script.refuseConsent) {
      const abort = /href="([^"]*\/abort)"/.exec(page)?.[1];
      if (abort === undefined) throw new Error('no abort link on the consent page');
      url = new URL(abort.replace(/&amp;/g, '&'), url);
      method = 'GET';
      form = undefined;
      continue;
    }
    url = new URL(action.replace(/&amp;/g, '&'), url);
    method = 'POST';
    form = prompt === 'login' ? new URLSearchParams({ prompt, login: script.login, password: 'any' }).toString() : new URLSearchParams({ prompt }).toString();
  }
  throw new Error('sign-in did not finish in 20 steps');
}
