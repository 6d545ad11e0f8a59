/**
 * The engine's cookie part against a real server: Set-Cookie of every hop goes to the jar as the
 * hop's headers arrive, and the next hop carries what the jar now holds. The jar here is the
 * supervisor's own engine (WorkspaceJar) behind the port the sender process reaches it through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceJar } from '../../supervisor/cookies/jar.js';
import { closeDispatchers, send } from './index.js';
import { withJarCookies, type CookieJarPort } from './hop-cookies.js';
import { startHttp, type RunningServer } from './test-support/servers.js';
import { sendSpec, tempDir } from './test-support/spec.js';

let server: RunningServer;
const seen: { path: string; cookie: string | undefined }[] = [];
const spool = tempDir();

/** /hop/1 sets a, /hop/2 deletes a and sets b, /hop/3 sets c and answers; every hop records its Cookie header. */
beforeAll(async () => {
  server = await startHttp((req, res) => {
    const path = req.url ?? '/';
    seen.push({ path, cookie: req.headers.cookie });
    if (path === '/hop/1') res.writeHead(302, { Location: '/hop/2', 'Set-Cookie': ['a=1; Path=/', 'skip=1; Domain=elsewhere.org'] }).end();
    else if (path === '/hop/2') res.writeHead(302, { Location: '/hop/3', 'Set-Cookie': ['a=; Path=/; Max-Age=0', 'b=2; Path=/'] }).end();
    else if (path === '/hop/3') res.writeHead(200, { 'Set-Cookie': 'c=3; Path=/', 'Content-Type': 'text/plain' }).end('done');
    else res.writeHead(200).end();
  });
});

afterAll(async () => {
  await closeDispatchers();
  await server.close();
  spool.remove();
});

function portOf(jar: WorkspaceJar, calls: string[] = []): CookieJarPort {
  return {
    cookieHeader: async (url) => {
      calls.push(`header ${new URL(url).pathname}`);
      return jar.cookieHeader(new URL(url));
    },
    received: async (url, setCookies) => {
      calls.push(`received ${new URL(url).pathname} ${setCookies.length}`);
      return jar.receive(new URL(url), setCookies);
    },
  };
}

describe('cookies hop by hop', () => {
  it('stores each hop\'s cookies before the next hop and sends them there when Send cookies is on', async () => {
    seen.length = 0;
    const jar = new WorkspaceJar();
    const calls: string[] = [];
    const result = await send(sendSpec(`${server.url}/hop/1`, { cookies: { send: true } }), { spoolDir: spool.path, jar: portOf(jar, calls) });
    expect(seen.map((s) => [s.path, s.cookie])).toEqual([
      ['/hop/1', undefined],
      ['/hop/2', 'a=1'],
      ['/hop/3', 'b=2'],
    ]);
    expect(calls).toEqual(['header /hop/1', 'received /hop/1 2', 'header /hop/2', 'received /hop/2 2', 'header /hop/3', 'received /hop/3 1']);
    expect(result.hops.map((h) => h.cookies?.map((o) => `${o.name}:${o.outcome}`))).toEqual([
      ['a:stored', 'skip:ignored'],
      ['a:deleted', 'b:stored'],
    ]);
    expect(result.hops[0]!.cookies![1]!.reason!.code).toBe('domain-mismatch');
    expect(result.cookies!.map((o) => `${o.name}:${o.outcome}`)).toEqual(['c:stored']);
    expect(jar.cookieHeader(new URL(`${server.url}/`))).toBe('b=2; c=3');
    // The raw view shows the Cookie header the last hop really carried.
    expect(result.raw.request).toMatch(/^Cookie: b=2$/m);
    // The values of the jar's cookies sent on any hop, for the supervisor to mask (a hop's own a=1 too).
    expect(result.jarCookies).toEqual(['1', '2']);
  });

  it('still fills the jar but sends nothing from it when Send cookies is off', async () => {
    seen.length = 0;
    const jar = new WorkspaceJar();
    jar.receive(new URL(`${server.url}/`), ['old=1; Path=/']);
    const calls: string[] = [];
    const result = await send(sendSpec(`${server.url}/hop/1`, { cookies: { send: false } }), { spoolDir: spool.path, jar: portOf(jar, calls) });
    expect(seen.every((s) => s.cookie === undefined)).toBe(true);
    expect(calls.some((c) => c.startsWith('header'))).toBe(false);
    expect(result.jarCookies).toBeUndefined();
    expect(result.cookies).toHaveLength(1);
    expect(jar.cookieHeader(new URL(`${server.url}/`))).toBe('old=1; b=2; c=3');
  });

  it('sends a Cookie header set by hand, which wins over a jar cookie of the same name', async () => {
    seen.length = 0;
    const jar = new WorkspaceJar();
    jar.receive(new URL(`${server.url}/`), ['b=from-jar; Path=/', 'z=jar-only; Path=/']);
    await send(sendSpec(`${server.url}/plain`, { headers: [['Cookie', 'b=by-hand']], cookies: { send: true } }), { spoolDir: spool.path, jar: portOf(jar) });
    expect(seen[0]!.cookie).toBe('b=by-hand; z=jar-only');
  });

  it('leaves the jar alone when the spec does not ask for it', async () => {
    const jar = new WorkspaceJar();
    const calls: string[] = [];
    const result = await send(sendSpec(`${server.url}/hop/1`), { spoolDir: spool.path, jar: portOf(jar, calls) });
    expect(calls).toEqual([]);
    expect(result.cookies).toBeUndefined();
    expect(result.hops[0]!.cookies).toBeUndefined();
  });

  it('reports the cookies as not stored when the jar cannot be reached, and the send still succeeds', async () => {
    const broken: CookieJarPort = {
      cookieHeader: async () => '',
      received: async () => {
        throw new Error('peer closed');
      },
    };
    const result = await send(sendSpec(`${server.url}/hop/3`, { cookies: { send: true } }), { spoolDir: spool.path, jar: broken });
    expect(result.status).toBe(200);
    expect(result.cookies).toEqual([expect.objectContaining({ outcome: 'ignored', reason: { code: 'jar-unavailable', message: expect.stringContaining('peer closed') } })]);
  });
});

describe('withJarCookies', () => {
  it('adds a Cookie header, or appends to the one set by hand without the names it carries', () => {
    expect(withJarCookies([['Accept', '*/*']], '')).toEqual([['Accept', '*/*']]);
    expect(withJarCookies([['Accept', '*/*']], 'a=1; b=2')).toEqual([
      ['Accept', '*/*'],
      ['Cookie', 'a=1; b=2'],
    ]);
    expect(withJarCookies([['cookie', 'b=mine;']], 'a=1; b=2')).toEqual([['cookie', 'b=mine; a=1']]);
    expect(withJarCookies([['Cookie', 'a=x; b=y']], 'a=1; b=2')).toEqual([['Cookie', 'a=x; b=y']]);
    expect(withJarCookies([['Cookie', 'a=x'], ['Cookie', 'b=y']], 'a=1; b=2; c=3')).toEqual([
      ['Cookie', 'a=x; c=3'],
      ['Cookie', 'b=y'],
    ]);
  });
});
