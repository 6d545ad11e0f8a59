/**
 * The workspace's cookie jar in memory: tough-cookie's CookieJar does the parsing, the domain,
 * path and public-suffix rules, storage and matching; this class adds what SPEC asks beyond it:
 * an outcome with a reason for every Set-Cookie, deletes reported as deletes, the 4 KB limit,
 * the caps with their eviction order, and edits by hand. Synchronous, so one response's
 * cookies are applied as a whole between two other calls.
 */
import { Cookie, CookieJar, MemoryCookieStore, canonicalDomain, defaultPath } from 'tough-cookie';
import { ParleyError } from '../../../protocol/errors.js';
import { COOKIE_LIMITS, type CookieInput, type CookieKey, type CookieOutcome, type JarCookie } from '../../../protocol/model/cookies.js';
import { expiryOf, firstToGo } from './limits.js';
import { hostOf, isPublicSuffix, refusal, tooLarge } from './rules.js';

/** RFC 6265bis caps an expiry at 400 days from when the cookie is set; browsers do the same. */
export const MAX_LIFETIME_MS = 400 * 24 * 3600 * 1000;

/** A cookie as the jar file keeps it: only cookies with an expiry are kept. */
export interface JarRecord {
  name: string;
  value: string;
  domain: string;
  path: string;
  hostOnly: boolean;
  secure: boolean;
  httpOnly: boolean;
  sameSite?: string;
  /** Milliseconds since the epoch. */
  expires: number;
  created: number;
}

type Callback<T> = (err: Error | null, result?: T) => void;

/** MemoryCookieStore answers its callbacks synchronously; this reads the answer out. */
function sync<T>(run: (callback: Callback<T>) => unknown): T {
  let out: { err: Error | null; result?: T } | undefined;
  run((err, result) => (out = { err, result }));
  if (out === undefined) throw new ParleyError('internal', 'The cookie store did not answer synchronously.');
  if (out.err) throw out.err;
  return out.result as T;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\u0000-\u001f\u007f;]/;
const HOST = /^[a-z0-9.-]+$|^[0-9a-f:.]+$/;

export class WorkspaceJar {
  readonly #store = new MemoryCookieStore();
  // Secure on localhost over http is refused too: SPEC ignores a Secure cookie over http.
  readonly #jar = new CookieJar(this.#store, { rejectPublicSuffixes: true, looseMode: false, allowSpecialUseDomain: true, allowSecureOnLocal: false, prefixSecurity: 'strict' });
  /** Bumped whenever a cookie with an expiry is added, changed or removed: what the jar file holds. */
  persistentRevision = 0;
  /** How many cookies the store holds, kept by every add and remove (counting the store's index costs a walk). */
  #total = 0;
  /** No cookie expires before this (ms): until then, looking for expired cookies is skipped. */
  #nextExpiry = Infinity;

  /** Applies one response's Set-Cookie headers, received from `url`; one outcome per header, in order. */
  receive(url: URL, headers: string[], now = new Date()): CookieOutcome[] {
    this.#dropExpired(now);
    return headers.map((header) => this.#receiveOne(url, header, now));
  }

  #receiveOne(url: URL, header: string, now: Date): CookieOutcome {
    const cookie = Cookie.parse(header, { loose: false });
    if (!cookie) return { name: '', domain: '', path: '', outcome: 'ignored', reason: { code: 'unparsable', message: 'Ignored: the header is not a name=value cookie.' } };
    const domain = cookie.domain ? (cookie.cdomain() ?? '') : hostOf(url);
    const path = cookie.path?.startsWith('/') ? cookie.path : defaultPath(url.pathname);
    const at = { name: cookie.key, domain, path };
    const refused = tooLarge(cookie.key, cookie.value) ?? refusal(cookie, url);
    if (refused) return { ...at, outcome: 'ignored', reason: refused };
    // Kept under the canonical domain (an IDN as punycode, IPv6 without brackets), the form
    // requests are matched in; tough-cookie would keep the attribute as written.
    if (cookie.domain) cookie.domain = domain;
    const existing = this.#find(at);
    let stored: Cookie | undefined;
    try {
      stored = this.#jar.setCookieSync(cookie, url.href, { now, ignoreError: false });
    } catch (err) {
      return { ...at, outcome: 'ignored', reason: { code: 'refused', message: `Ignored: ${firstLine(err)}.` } };
    }
    if (!stored) return { ...at, outcome: 'ignored', reason: { code: 'refused', message: 'Ignored by the cookie rules.' } };
    if (!existing) this.#total++;
    const expiry = expiryOf(stored);
    if (expiry <= now.getTime()) {
      this.#remove(stored);
      if (existing && isPersistent(existing)) this.persistentRevision++;
      const maxAge = typeof stored.maxAge === 'number';
      return {
        ...at,
        outcome: 'deleted',
        existed: existing !== undefined,
        reason: maxAge
          ? { code: 'max-age', message: `Deleted from the jar: Max-Age=${String(stored.maxAge)}${existing ? '' : ' (it was not in the jar)'}.` }
          : { code: 'expired', message: `Deleted from the jar: its expiry is in the past${existing ? '' : ' (it was not in the jar)'}.` },
      };
    }
    fixExpiry(stored, now);
    this.#noteExpiry(stored);
    if (isPersistent(stored) || (existing && isPersistent(existing))) this.persistentRevision++;
    const evicted = this.#enforceCaps(stored);
    if (evicted.includes(stored)) {
      return { ...at, outcome: 'ignored', reason: { code: 'evicted', message: capMessage(stored, evicted.length > 1) } };
    }
    return {
      ...at,
      outcome: 'stored',
      existed: existing !== undefined,
      ...(isPersistent(stored) ? { expires: new Date(expiryOf(stored)).toISOString() } : {}),
      ...(evicted.length > 0 ? { evicted: evicted.map(keyOf) } : {}),
    };
  }

  /** The Cookie header value for a request to `url` ('' when no cookie matches), in RFC 6265 order. */
  cookieHeader(url: URL, now = new Date()): string {
    this.#dropExpired(now);
    // expire: false, because tough-cookie would remove expired cookies behind the jar's count;
    // #dropExpired has just done that, on the same clock as the filter.
    return this.#jar
      .getCookiesSync(url.href, { http: true, expire: false, sort: true })
      .filter((c) => expiryOf(c) > now.getTime())
      .map((c) => c.cookieString())
      .join('; ');
  }

  list(withValues: boolean, now = new Date()): JarCookie[] {
    this.#dropExpired(now);
    return this.#all()
      .map((c) => describe(c, withValues))
      .sort((a, b) => a.domain.localeCompare(b.domain) || a.path.localeCompare(b.path) || a.name.localeCompare(b.name));
  }

  get size(): number {
    return this.#total;
  }

  /** Adds a cookie typed by hand, or replaces `previous` with it; returns what the caps dropped. */
  put(input: CookieInput, previous: CookieKey | undefined, now = new Date()): { cookie: JarCookie; evicted: CookieKey[] } {
    const cookie = cookieFromInput(input, now);
    const old = previous ? this.#find(previous) : undefined;
    if (previous && !old) throw new ParleyError('not-found', `The cookie ${previous.name} of ${previous.domain} is no longer in the jar.`);
    if (old) this.#remove(old);
    const replaced = this.#find(keyOf(cookie));
    cookie.creation = (replaced ?? old)?.creation ?? now;
    sync((cb) => this.#store.putCookie(cookie, cb));
    if (!replaced) this.#total++;
    this.#noteExpiry(cookie);
    if (isPersistent(cookie) || (old && isPersistent(old)) || (replaced && isPersistent(replaced))) this.persistentRevision++;
    const evicted = this.#enforceCaps(cookie);
    if (evicted.includes(cookie)) throw new ParleyError('bad-input', capMessage(cookie, evicted.length > 1));
    return { cookie: describe(cookie, true), evicted: evicted.map(keyOf) };
  }

  /** Removes one cookie; false when it was not there. */
  delete(key: CookieKey): boolean {
    const cookie = this.#find(key);
    if (!cookie) return false;
    this.#remove(cookie);
    if (isPersistent(cookie)) this.persistentRevision++;
    return true;
  }

  /** Removes every cookie kept under `domain`; how many went. */
  deleteDomain(domain: string): number {
    const gone = this.#all().filter((c) => c.domain === domain);
    for (const cookie of gone) this.#remove(cookie);
    if (gone.some(isPersistent)) this.persistentRevision++;
    return gone.length;
  }

  clear(): number {
    const count = this.#total;
    sync((cb) => this.#store.removeAllCookies(cb));
    this.#total = 0;
    this.#nextExpiry = Infinity;
    this.persistentRevision++;
    return count;
  }

  /** The cookies with an expiry, for the jar file. */
  persistentRecords(now = new Date()): JarRecord[] {
    this.#dropExpired(now);
    return this.#all()
      .filter(isPersistent)
      .map((c) => ({
        name: c.key,
        value: c.value,
        domain: c.domain ?? '',
        path: c.path ?? '/',
        hostOnly: c.hostOnly === true,
        secure: c.secure,
        httpOnly: c.httpOnly,
        ...(c.sameSite ? { sameSite: c.sameSite } : {}),
        expires: expiryOf(c),
        created: c.creation instanceof Date ? c.creation.getTime() : now.getTime(),
      }));
  }

  /** Puts back cookies read from the jar file; expired ones and ones past the caps are left out, and with `keepExisting` ones the jar already holds. */
  restore(records: JarRecord[], now = new Date(), keepExisting = false): number {
    let kept = 0;
    for (const r of records) {
      if (r.expires <= now.getTime()) continue;
      const cookie = new Cookie({ key: r.name, value: r.value, domain: r.domain, path: r.path, hostOnly: r.hostOnly, secure: r.secure, httpOnly: r.httpOnly, expires: new Date(r.expires), creation: new Date(r.created) });
      if (r.sameSite) cookie.sameSite = r.sameSite;
      const existing = this.#find(keyOf(cookie));
      if (existing && keepExisting) continue;
      if (!existing) this.#total++;
      sync((cb) => this.#store.putCookie(cookie, cb));
      this.#noteExpiry(cookie);
      if (!this.#enforceCaps(cookie).includes(cookie)) kept++;
    }
    return kept;
  }

  /** Every cookie, straight off the store's index (its getAllCookies also sorts them, which no caller needs). */
  #all(): Cookie[] {
    const out: Cookie[] = [];
    for (const paths of Object.values(this.#store.idx)) {
      for (const keys of Object.values(paths ?? {})) for (const cookie of Object.values(keys ?? {})) if (cookie) out.push(cookie);
    }
    return out;
  }

  #find(key: CookieKey): Cookie | undefined {
    return sync<Cookie | null | undefined>((cb) => this.#store.findCookie(key.domain, key.path, key.name, cb)) ?? undefined;
  }

  /** Removes a cookie that is in the store. */
  #remove(cookie: Cookie): void {
    sync((cb) => this.#store.removeCookie(cookie.domain ?? '', cookie.path ?? '', cookie.key, cb));
    this.#total--;
  }

  #noteExpiry(cookie: Cookie): void {
    this.#nextExpiry = Math.min(this.#nextExpiry, expiryOf(cookie));
  }

  #dropExpired(now: Date): void {
    if (now.getTime() < this.#nextExpiry) return;
    let next = Infinity;
    for (const cookie of this.#all()) {
      const expiry = expiryOf(cookie);
      if (expiry <= now.getTime()) {
        this.#remove(cookie);
        this.persistentRevision++;
      } else next = Math.min(next, expiry);
    }
    this.#nextExpiry = next;
  }

  /** Drops what passes a cap now that `added` is in; may drop `added` itself when it expires soonest. */
  #enforceCaps(added: Cookie): Cookie[] {
    const domain = added.domain ?? '';
    const inDomain = this.#inDomain(domain);
    const dropped = firstToGo(inDomain, inDomain.length - COOKIE_LIMITS.perDomain);
    for (const cookie of dropped) this.#remove(cookie);
    if (this.#total > COOKIE_LIMITS.total) {
      const more = firstToGo(this.#all(), this.#total - COOKIE_LIMITS.total);
      for (const cookie of more) this.#remove(cookie);
      dropped.push(...more);
    }
    if (dropped.some(isPersistent)) this.persistentRevision++;
    return dropped;
  }

  #inDomain(domain: string): Cookie[] {
    const paths = this.#store.idx[domain];
    return paths ? Object.values(paths).flatMap((keys) => Object.values(keys ?? {}).filter((c): c is Cookie => c !== undefined)) : [];
  }
}

function isPersistent(cookie: Cookie): boolean {
  return expiryOf(cookie) !== Infinity;
}

/**
 * RFC 6265's expiry: Max-Age counts from when the cookie is received (tough-cookie counts it from
 * the last access, which would keep a cookie alive for as long as it is used), capped at 400 days.
 */
function fixExpiry(cookie: Cookie, now: Date): void {
  const expiry = expiryOf(cookie);
  if (expiry === Infinity) return;
  cookie.expires = new Date(Math.min(expiry, now.getTime() + MAX_LIFETIME_MS));
  cookie.maxAge = null;
}

function keyOf(cookie: Cookie): CookieKey {
  return { domain: cookie.domain ?? '', path: cookie.path ?? '/', name: cookie.key };
}

function describe(cookie: Cookie, withValue: boolean): JarCookie {
  const expiry = expiryOf(cookie);
  return {
    ...keyOf(cookie),
    ...(withValue ? { value: cookie.value } : {}),
    hostOnly: cookie.hostOnly === true,
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    ...(cookie.sameSite ? { sameSite: cookie.sameSite } : {}),
    ...(expiry === Infinity ? {} : { expires: new Date(expiry).toISOString() }),
    created: (cookie.creation instanceof Date ? cookie.creation : new Date(0)).toISOString(),
  };
}

function capMessage(cookie: Cookie, others: boolean): string {
  const cap = `the jar keeps at most ${COOKIE_LIMITS.perDomain} cookies per domain and ${COOKIE_LIMITS.total.toLocaleString('en')} in all`;
  return `Ignored: ${cap}, and this cookie expires sooner than every other cookie of ${cookie.domain}${others ? ' that had to go' : ''}.`;
}

/** Checks a cookie typed by hand the way a received one is checked; refuses with the reason. */
function cookieFromInput(input: CookieInput, now: Date): Cookie {
  const bad = (message: string) => new ParleyError('bad-input', message);
  if (!TOKEN.test(input.name)) throw bad('The cookie name must be a token: letters, digits and ! # $ % & \' * + - . ^ _ ` | ~, no spaces.');
  if (BAD_VALUE.test(input.value)) throw bad('The cookie value may not contain a semicolon or control characters.');
  const large = tooLarge(input.name, input.value);
  if (large) throw bad(large.message.replace('Ignored: the', 'The'));
  const domain = canonicalDomain(input.domain.trim()) ?? '';
  if (!HOST.test(domain) || domain.startsWith('.') || domain.endsWith('.')) throw bad(`"${input.domain.slice(0, 80)}" is not a host name.`);
  if (!input.hostOnly && isPublicSuffix(domain)) throw bad(`${domain} is a public suffix: a cookie for it and its subdomains is refused (a browser would refuse it too).`);
  if (!input.path.startsWith('/')) throw bad('The path must start with /.');
  if (input.name.startsWith('__Secure-') && !input.secure) throw bad('A __Secure- cookie must be Secure.');
  if (input.name.startsWith('__Host-') && !(input.secure && input.hostOnly && input.path === '/')) throw bad('A __Host- cookie must be Secure, for this host only, with path /.');
  let expires: Date | 'Infinity' = 'Infinity';
  if (input.expires !== undefined) {
    const at = Date.parse(input.expires);
    if (Number.isNaN(at)) throw bad(`The expiry "${input.expires.slice(0, 40)}" is not a date.`);
    if (at <= now.getTime()) throw bad('The expiry is in the past: that would delete the cookie. Use Delete instead.');
    expires = new Date(Math.min(at, now.getTime() + MAX_LIFETIME_MS));
  }
  return new Cookie({ key: input.name, value: input.value, domain, path: input.path, hostOnly: input.hostOnly, secure: input.secure, httpOnly: input.httpOnly, expires });
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
}
