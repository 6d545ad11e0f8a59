/**
 * The cookie jar on the bus: the jar tab's calls (served to UIs) and a send's hop-by-hop calls
 * (served to the sender process only).
 */
import type { Handlers } from '../../../protocol/peer.js';
import type { CookieService } from './cookie-service.js';

export function cookieUiHandlers(cookies: CookieService): Handlers {
  return {
    'cookies.list': async ({ values }) => ({ cookies: await cookies.list(values === true), status: await cookies.status() }),
    'cookies.save': ({ cookie, previous }) => cookies.put(cookie, previous),
    'cookies.delete': async (key) => ({ deleted: await cookies.delete(key) }),
    'cookies.deleteDomain': async ({ domain }) => ({ deleted: await cookies.deleteDomain(domain) }),
    'cookies.clear': async () => ({ deleted: await cookies.clear() }),
  };
}

export function cookieSenderHandlers(cookies: CookieService): Handlers {
  return {
    'jar.cookieHeader': async ({ url }) => ({ header: await cookies.cookieHeader(url) }),
    'jar.received': async ({ url, setCookies }) => ({ outcomes: await cookies.received(url, setCookies) }),
  };
}
