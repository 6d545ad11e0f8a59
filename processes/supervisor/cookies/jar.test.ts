import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { hasCode } from '../../../protocol/errors.js';
import type { CookieInput } from '../../../protocol/model/cookies.js';
import { PROTOTYPE_NAMES } from '../../../test/support/prototype-names.js';
import { MAX_LIFETIME_MS, WorkspaceJar } from './jar.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const http = new URL('http://shop.example.com/cart/items');
const https = new URL('https://shop.example.com/cart/items');

// tough-cookie reads the clock itself when it matches cookies: the clock is set, not only passed.
beforeEach(() => void vi.useFakeTimers({ toFake: ['Date'], now: NOW }));
afterEach(() => void vi.useRealTimers());

function names(jar: WorkspaceJar): string[] {
  return jar.list(false, NOW).map((c) => `${c.domain}${c.path} ${c.name}`);
}

describe('WorkspaceJar.receive: one outcome per Set-Cookie', () => {
  it('stores a cookie under the host and the default path, and says so', () => {
    const jar = new WorkspaceJar();
    expect(jar.receive(http, ['sid=abc; HttpOnly'], NOW)).toEqual([{ name: 'sid', domain: 'shop.example.com', path: '/cart', outcome: 'stored', existed: false }]);
    expect(jar.list(true, NOW)).toMatchObject([{ domain: 'shop.example.com', path: '/cart', name: 'sid', value: 'abc', hostOnly: true, httpOnly: true, secure: false }]);
    expect(jar.list(false, NOW)[0]).not.toHaveProperty('value');
  });

  it('replaces a cookie of the same domain, path and name, keeping its creation time', () => {
    const jar = new WorkspaceJar();
    jar.receive(http, ['sid=one; Path=/'], NOW);
    const [outcome] = jar.receive(http, ['sid=two; Path=/; Max-Age=60'], later(10));
    expect(outcome).toMatchObject({ outcome: 'stored', existed: true, expires: later(70).toISOString() });
    expect(jar.list(true, later(10))).toMatchObject([{ value: 'two', created: NOW.toISOString() }]);
  });

  it('deletes on Max-Age=0 and on an expiry in the past, and says whether the cookie was there', () => {
    const jar = new WorkspaceJar();
    jar.receive(http, ['a=1; Path=/', 'b=2; Path=/'], NOW);
    const outcomes = jar.receive(http, ['a=; Path=/; Max-Age=0', 'b=x; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'c=; Path=/; Max-Age=-1'], NOW);
    expect(outcomes.map((o) => [o.name, o.outcome, o.reason?.code, o.existed])).toEqual([
      ['a', 'deleted', 'max-age', true],
      ['b', 'deleted', 'expired', true],
      ['c', 'deleted', 'max-age', false],
    ]);
    expect(outcomes[2]!.reason!.message).toContain('not in the jar');
    expect(names(jar)).toEqual([]);
  });

  it('ignores, with the reason: domain mismatch, public suffix, Secure over http, __Host- and __Secure- misuse, unparsable', () => {
    const jar = new WorkspaceJar();
    const outcomes = jar.receive(
      http,
      ['a=1; Domain=other.org', 'b=1; Domain=com', 'c=1; Secure', '__Host-d=1; Secure; Path=/', '__Secure-e=1', 'no-equals-sign', 'f=1; Domain=example.com', 'g=1; Domain=..example.com'],
      NOW,
    );
    expect(outcomes.map((o) => [o.name, o.outcome, o.reason?.code])).toEqual([
      ['a', 'ignored', 'domain-mismatch'],
      ['b', 'ignored', 'public-suffix'],
      ['c', 'ignored', 'secure-over-http'],
      ['__Host-d', 'ignored', 'secure-over-http'],
      ['__Secure-e', 'ignored', 'prefix'],
      ['', 'ignored', 'unparsable'],
      ['f', 'stored', undefined],
      ['g', 'ignored', 'domain-mismatch'],
    ]);
    expect(outcomes[0]!.reason!.message).toBe('Ignored: Domain=other.org does not match the host shop.example.com.');
    expect(names(jar)).toEqual(['example.com/cart f']);
  });

  it('refuses a Secure cookie over http on 127.0.0.1 and localhost too, and takes it over https', () => {
    const jar = new WorkspaceJar();
    expect(jar.receive(new URL('http://127.0.0.1:8080/'), ['s=1; Secure'], NOW)[0]!.reason?.code).toBe('secure-over-http');
    expect(jar.receive(new URL('http://localhost:8080/'), ['s=1; Secure'], NOW)[0]!.reason?.code).toBe('secure-over-http');
    expect(jar.receive(https, ['s=1; Secure; Path=/'], NOW)[0]!.outcome).toBe('stored');
    expect(jar.receive(https, ['__Host-h=1; Secure; Path=/'], NOW)[0]!.outcome).toBe('stored');
  });

  it('ignores a cookie whose name and value pass 4 KB, and stores one of exactly 4 KB', () => {
    const jar = new WorkspaceJar();
    const [fits, over] = jar.receive(http, [`big=${'x'.repeat(4096 - 3)}`, `big2=${'x'.repeat(4096 - 3)}`], NOW);
    expect(fits!.outcome).toBe('stored');
    expect(over).toMatchObject({ outcome: 'ignored', reason: { code: 'too-large' } });
    expect(over!.reason!.message).toContain('4,097 bytes');
    // Multi-byte characters count as their UTF-8 bytes.
    expect(jar.receive(http, [`u=${'é'.repeat(2048)}`], NOW)[0]!.reason?.code).toBe('too-large');
  });

  it('counts Max-Age from when the cookie arrived, not from its last use, and caps expiry at 400 days', () => {
    const jar = new WorkspaceJar();
    jar.receive(http, ['m=1; Path=/; Max-Age=100', 'far=1; Path=/; Expires=Fri, 01 Jan 2100 00:00:00 GMT'], NOW);
    vi.setSystemTime(later(50));
    expect(jar.cookieHeader(new URL('http://shop.example.com/'), later(50))).toBe('m=1; far=1');
    vi.setSystemTime(later(101));
    expect(jar.cookieHeader(new URL('http://shop.example.com/'), later(101))).toBe('far=1');
    expect(jar.list(false, later(101))).toMatchObject([{ name: 'far', expires: new Date(NOW.getTime() + MAX_LIFETIME_MS).toISOString() }]);
  });
});

describe('WorkspaceJar.cookieHeader: the cookies a request to a URL carries', () => {
  it('matches host-only and domain cookies, paths, and Secure only over https', () => {
    const jar = new WorkspaceJar();
    jar.receive(https, ['host=1; Path=/', 'dom=1; Domain=example.com; Path=/', 'deep=1; Path=/cart', 'sec=1; Secure; Path=/'], NOW);
    expect(jar.cookieHeader(new URL('https://shop.example.com/cart/x'), NOW)).toBe('deep=1; host=1; dom=1; sec=1');
    expect(jar.cookieHeader(new URL('http://shop.example.com/'), NOW)).toBe('host=1; dom=1');
    expect(jar.cookieHeader(new URL('https://api.example.com/'), NOW)).toBe('dom=1');
    expect(jar.cookieHeader(new URL('https://other.org/'), NOW)).toBe('');
  });
});

describe('WorkspaceJar caps: 50 per domain, 3,000 in all, soonest expiry first, session cookies last', () => {
  it('drops the cookie of the domain expiring soonest when a 51st arrives', () => {
    const jar = new WorkspaceJar();
    const headers = Array.from({ length: 50 }, (_, i) => `c${i}=1; Path=/; Max-Age=${1000 + i}`);
    headers[7] = 'c7=1; Path=/'; // a session cookie: dropped last
    headers[20] = 'c20=1; Path=/; Max-Age=500'; // expires soonest
    expect(jar.receive(http, headers, NOW).every((o) => o.outcome === 'stored')).toBe(true);
    const [outcome] = jar.receive(http, ['late=1; Path=/; Max-Age=5000'], NOW);
    expect(outcome).toMatchObject({ outcome: 'stored', evicted: [{ domain: 'shop.example.com', path: '/', name: 'c20' }] });
    expect(jar.size).toBe(50);
    const [next] = jar.receive(http, ['later=1; Path=/; Max-Age=6000'], NOW);
    expect(next!.evicted).toEqual([{ domain: 'shop.example.com', path: '/', name: 'c0' }]);
  });

  it('ignores a new cookie that would itself be the first to go', () => {
    const jar = new WorkspaceJar();
    jar.receive(http, Array.from({ length: 50 }, (_, i) => `c${i}=1; Path=/`), NOW);
    const [outcome] = jar.receive(http, ['brief=1; Path=/; Max-Age=5'], NOW);
    expect(outcome).toMatchObject({ outcome: 'ignored', reason: { code: 'evicted' } });
    expect(jar.size).toBe(50);
  });

  it('drops session cookies oldest first once only session cookies are left', () => {
    const jar = new WorkspaceJar();
    for (let i = 0; i < 50; i++) jar.receive(http, [`s${i}=1; Path=/`], later(i));
    const [outcome] = jar.receive(http, ['newest=1; Path=/'], later(60));
    expect(outcome!.evicted).toEqual([{ domain: 'shop.example.com', path: '/', name: 's0' }]);
  });

  it('keeps 3,000 cookies in the jar, dropping the soonest-expiring of any domain', () => {
    const jar = new WorkspaceJar();
    for (let d = 0; d < 60; d++) {
      const url = new URL(`http://site${d}.example.net/`);
      jar.receive(url, Array.from({ length: 50 }, (_, i) => `c${i}=1; Max-Age=${100_000 + d * 100 + i}`), NOW);
    }
    expect(jar.size).toBe(3000);
    const [outcome] = jar.receive(new URL('http://one-more.example.net/'), ['x=1'], NOW);
    expect(outcome!.evicted).toEqual([{ domain: 'site0.example.net', path: '/', name: 'c0' }]);
    expect(jar.size).toBe(3000);
  });
});

describe('WorkspaceJar edits by hand', () => {
  const input = (patch: Partial<CookieInput> = {}): CookieInput => ({ domain: 'api.example.com', path: '/', name: 'token', value: 'v1', hostOnly: true, secure: false, httpOnly: false, ...patch });

  it('adds, edits (renaming), deletes one cookie and a whole domain, and clears the jar', () => {
    const jar = new WorkspaceJar();
    jar.put(input(), undefined, NOW);
    jar.put(input({ name: 'other', expires: later(3600).toISOString() }), undefined, NOW);
    jar.receive(http, ['keep=1; Path=/'], NOW);
    const edited = jar.put(input({ name: 'renamed', value: 'v2' }), { domain: 'api.example.com', path: '/', name: 'token' }, NOW);
    expect(edited.cookie).toMatchObject({ name: 'renamed', value: 'v2' });
    expect(names(jar)).toEqual(['api.example.com/ other', 'api.example.com/ renamed', 'shop.example.com/ keep']);
    expect(jar.cookieHeader(new URL('http://api.example.com/'), NOW)).toBe('other=v1; renamed=v2');
    expect(jar.delete({ domain: 'api.example.com', path: '/', name: 'other' })).toBe(true);
    expect(jar.delete({ domain: 'api.example.com', path: '/', name: 'other' })).toBe(false);
    expect(jar.deleteDomain('api.example.com')).toBe(1);
    expect(names(jar)).toEqual(['shop.example.com/ keep']);
    expect(jar.clear()).toBe(1);
    expect(jar.size).toBe(0);
  });

  it('refuses what a server could not set either, and a past expiry, with a clear message', () => {
    const jar = new WorkspaceJar();
    const refused = (patch: Partial<CookieInput>) => {
      try {
        jar.put(input(patch), undefined, NOW);
      } catch (err) {
        expect(hasCode(err, 'bad-input')).toBe(true);
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ name: 'bad name' })).toContain('token');
    expect(refused({ value: 'a;b' })).toContain('semicolon');
    expect(refused({ value: 'x'.repeat(4096) })).toContain('over the 4 KB limit');
    expect(refused({ domain: 'co.uk', hostOnly: false })).toContain('public suffix');
    expect(refused({ domain: 'bad/host' })).toContain('not a host name');
    expect(refused({ path: 'relative' })).toContain('start with /');
    expect(refused({ expires: '2001-01-01T00:00:00Z' })).toContain('Use Delete');
    expect(refused({ name: '__Host-x', secure: true, path: '/app' })).toContain('__Host-');
    expect(jar.size).toBe(0);
    expect(() => jar.put(input(), { domain: 'gone.example', path: '/', name: 'x' }, NOW)).toThrow(/no longer in the jar/);
  });
});

describe('WorkspaceJar persistence records', () => {
  it('keeps only cookies with an expiry, and restores them, dropping expired ones', () => {
    const jar = new WorkspaceJar();
    jar.receive(https, ['sess=1; Path=/', 'keep=2; Path=/; Max-Age=3600; Secure; HttpOnly; SameSite=Lax', 'short=3; Path=/; Max-Age=10'], NOW);
    const records = jar.persistentRecords(NOW);
    expect(records.map((r) => r.name).sort()).toEqual(['keep', 'short']);
    const again = new WorkspaceJar();
    expect(again.restore(records, later(60))).toBe(1);
    expect(again.list(true, later(60))).toMatchObject([{ name: 'keep', value: '2', secure: true, httpOnly: true, sameSite: 'lax', expires: later(3600).toISOString() }]);
  });

  it('bumps the persistent revision only when a cookie with an expiry changes', () => {
    const jar = new WorkspaceJar();
    const start = jar.persistentRevision;
    jar.receive(http, ['sess=1'], NOW);
    expect(jar.persistentRevision).toBe(start);
    jar.receive(http, ['p=1; Max-Age=60'], NOW);
    expect(jar.persistentRevision).toBeGreaterThan(start);
  });
});

describe('WorkspaceJar bookkeeping', () => {
  it('keeps, sends and deletes cookies named, and with paths named, after Object.prototype members like any other', () => {
    const jar = new WorkspaceJar();
    const url = new URL('http://example.com/__proto__/x');
    const outcomes = jar.receive(url, [...PROTOTYPE_NAMES.map((name) => `${name}=v; Path=/${name}`), ...PROTOTYPE_NAMES.map((name) => `${name}=root; Path=/`)], NOW);
    expect(outcomes.every((o) => o.outcome === 'stored')).toBe(true);
    expect(jar.size).toBe(PROTOTYPE_NAMES.length * 2);
    expect(jar.cookieHeader(url, NOW)).toBe(['__proto__=v', ...PROTOTYPE_NAMES.map((name) => `${name}=root`)].join('; '));
    expect(jar.delete({ domain: 'example.com', path: '/constructor', name: 'constructor' })).toBe(true);
    expect(jar.delete({ domain: '__proto__', path: '__proto__', name: '__proto__' })).toBe(false);
    expect(jar.deleteDomain('constructor')).toBe(0);
    expect(jar.size).toBe(PROTOTYPE_NAMES.length * 2 - 1);
  });

  it('keeps its count equal to what it lists, whatever arrives and whatever is deleted (property)', () => {
    const header = fc
      .tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom('', '; Max-Age=0', '; Max-Age=5', '; Max-Age=-1', '; Expires=Thu, 01 Jan 1970 00:00:00 GMT'), fc.constantFrom('', '; Path=/', '; Path=/x', '; Domain=example.com', '; Domain=evil.org', '; Secure'))
      .map(([name, life, where]) => `${name}=v${life}${where}`);
    const step = fc.oneof(
      fc.record({ kind: fc.constant('receive' as const), host: fc.constantFrom('a.example.com', 'b.example.com', 'example.com'), headers: fc.array(header, { maxLength: 6 }), seconds: fc.integer({ min: 0, max: 10 }) }),
      fc.record({ kind: fc.constant('deleteDomain' as const), host: fc.constantFrom('a.example.com', 'example.com') }),
      fc.record({ kind: fc.constant('clear' as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const jar = new WorkspaceJar();
        let clock = NOW.getTime();
        for (const s of steps) {
          if (s.kind === 'receive') {
            clock += s.seconds * 1000;
            jar.receive(new URL(`http://${s.host}/x/y`), s.headers, new Date(clock));
          } else if (s.kind === 'deleteDomain') jar.deleteDomain(s.host);
          else jar.clear();
          const listed = jar.list(false, new Date(clock));
          expect(jar.size).toBe(listed.length);
        }
      }),
      { numRuns: 200 },
    );
  });
});
