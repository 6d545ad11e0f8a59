/**
 * Why the jar would refuse a parsed Set-Cookie, as a stable code and a sentence. tough-cookie
 * makes the decision (the jar stores through its CookieJar) but tells only by error text; these
 * checks run first with tough-cookie's own primitives, in its order, so the Cookies tab can say
 * why. `peer-check.test.ts` holds the two to agreement on a table of real headers.
 */
import { isIP } from 'node:net';
import { canonicalDomain, domainMatch, getPublicSuffix, type Cookie } from 'tough-cookie';
import { COOKIE_LIMITS, type CookieReasonCode } from '../../../protocol/model/cookies.js';

export interface Refusal {
  code: CookieReasonCode;
  message: string;
}

/** UTF-8 bytes of name plus value, what the 4 KB limit counts (as RFC 6265bis and browsers do). */
export function cookieBytes(name: string, value: string): number {
  return Buffer.byteLength(name) + Buffer.byteLength(value);
}

export function tooLarge(name: string, value: string): Refusal | undefined {
  const bytes = cookieBytes(name, value);
  if (bytes <= COOKIE_LIMITS.cookieBytes) return undefined;
  return { code: 'too-large', message: `Ignored: the cookie is ${bytes.toLocaleString('en')} bytes (name and value), over the 4 KB limit.` };
}

/** The host a request URL names, as the jar keys it (lower case, IPv6 without brackets). */
export function hostOf(url: URL): string {
  return canonicalDomain(url.hostname.replace(/^\[(.*)\]$/, '$1')) ?? url.hostname;
}

/** Whether a Domain value names a public suffix (com, co.uk, github.io...), where no site may set cookies. */
export function isPublicSuffix(domain: string): boolean {
  if (isIP(domain) !== 0) return false;
  try {
    return getPublicSuffix(domain, { allowSpecialUseDomain: true, ignoreError: true }) == null;
  } catch {
    return true;
  }
}

/** The reason `cookie`, received from `url`, may not be stored; undefined when it may. */
export function refusal(cookie: Cookie, url: URL): Refusal | undefined {
  const host = hostOf(url);
  if (cookie.domain) {
    const domain = cookie.cdomain() ?? '';
    // tough-cookie strips one leading dot and trims; what is left of "..a.b" or " . a.b" is not a
    // host name, and tough-cookie would keep the cookie under a key no request ever matches.
    if (/^[.\s]|\s/.test(cookie.domain)) {
      return { code: 'domain-mismatch', message: `Ignored: Domain=${cookie.domain.trim()} is not a host name.` };
    }
    if (isPublicSuffix(domain)) {
      return { code: 'public-suffix', message: `Ignored: Domain=${domain} is a public suffix, where no site may set cookies.` };
    }
    if (!domainMatch(host, domain, false)) {
      return { code: 'domain-mismatch', message: `Ignored: Domain=${domain} does not match the host ${host}.` };
    }
  }
  if (cookie.secure && url.protocol !== 'https:') {
    return { code: 'secure-over-http', message: `Ignored: a Secure cookie may only be set over https, and this response came over ${url.protocol.slice(0, -1)}.` };
  }
  if (cookie.key.startsWith('__Secure-') && !cookie.secure) {
    return { code: 'prefix', message: 'Ignored: a __Secure- cookie must carry the Secure attribute.' };
  }
  if (cookie.key.startsWith('__Host-') && !(cookie.secure && !cookie.domain && cookie.path === '/')) {
    return { code: 'prefix', message: 'Ignored: a __Host- cookie must be Secure, have no Domain and have Path=/.' };
  }
  return undefined;
}
