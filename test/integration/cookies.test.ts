/**
 * The workspace's cookie jar through the real supervisor and sender process, against a real
 * server on 127.0.0.1: a redirect chain that sets and deletes cookies on each hop, Secure over
 * http, a domain mismatch, 4 KB, the caps and their eviction order, a Cookie header set by hand,
 * a sender killed mid-send, and no cookie value in any project file, log or History entry.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { Request } from '../../protocol/model/request.js';
import type { Exchange } from '../../protocol/model/history.js';
import { hasCode } from '../../protocol/errors.js';
import { until } from '../support/until.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';

/** Every cookie value the server sets carries this mark: the scan at the end looks for it. */
const MARK = 'ckv9d41e7';

interface Seen {
  host: string;
  path: string;
  cookie: string | undefined;
}

let sup: Supervisor;
let call: UiCall;
let server: Server;
let base: string;
let home: string;
let projectDir: string;
let apiId: string;
const seen: Seen[] = [];
const logs: string[] = [];
const hanging = new Set<() => void>();

/** Sends an unsaved request for `url` (absolute, or a path on the test server). */
async function send(url: string, options: { sendCookies?: boolean; headers?: [string, string][] } = {}): Promise<Exchange> {
  const created = await call('request.create', { project: projectDir, parent: apiId, name: `r${Math.random()}`, method: 'GET', url: '/' });
  const request: Request = {
    ...created,
    url: url.startsWith('http') ? url : `${base}${url}`,
    headers: (options.headers ?? []).map(([name, value]) => ({ name, value, enabled: true })),
    settings: { ...created.settings, sendCookies: options.sendCookies ?? false },
  };
  return call('request.send', { project: projectDir, request });
}

const outcomes = (list: Exchange['response']['cookies']) => list?.map((o) => `${o.name}:${o.outcome}${o.reason ? `:${o.reason.code}` : ''}`);
const jarNames = async () => (await call('cookies.list', {})).cookies.map((c) => `${c.domain} ${c.name}`);

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-cookies-'));
  projectDir = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, log: (line) => logs.push(line) });
  call = handlerCaller(uiHandlers(sup));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const host = req.headers.host ?? '';
    seen.push({ host, path: url.pathname, cookie: req.headers.cookie });
    const set = (status: number, cookies: string[], headers: Record<string, string> = {}) => res.writeHead(status, { ...headers, 'Set-Cookie': cookies, 'Content-Type': 'text/plain' }).end('ok');
    switch (url.pathname) {
      case '/chain/1':
        return set(302, [`a=${MARK}-a; Path=/; Max-Age=3600`, `s=${MARK}-s; Path=/`], { Location: '/chain/2' });
      case '/chain/2':
        return set(302, ['a=; Path=/; Max-Age=0', `b=${MARK}-b; Path=/`], { Location: '/chain/3' });
      case '/chain/3':
        return set(200, [`c=${MARK}-c; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`, `d=${MARK}-d; Path=/`]);
      case '/rules':
        return set(200, [`sec=${MARK}; Secure; Path=/`, `dom=${MARK}; Domain=example.com; Path=/`, `__Host-h=${MARK}; Path=/`, `fits=${MARK}${'x'.repeat(4096 - 4 - MARK.length)}`, `big=${MARK}${'x'.repeat(4096 - 3 - MARK.length + 1)}`]);
      case '/many': {
        // n cookies named <prefix><i>; ages[i] is a Max-Age, or "s" for a session cookie.
        const prefix = url.searchParams.get('prefix') ?? 'm';
        const ages = (url.searchParams.get('ages') ?? '').split(',');
        return set(200, ages.map((age, i) => `${prefix}${i}=${MARK}; Path=/${age === 's' ? '' : `; Max-Age=${age}`}`));
      }
      case '/hang-after-cookie':
        return set(302, [`early=${MARK}-early; Path=/; Max-Age=3600`], { Location: '/hang' });
      case '/hang':
        hanging.add(() => res.destroy());
        return;
      default:
        return set(200, []);
    }
  });
  // As a proxy, the server answers for any host itself: CONNECT hands the tunnel back to it, so
  // one server on 127.0.0.1 plays site0.test ... site60.test for the jar's total cap.
  server.on('connect', (_req, socket: Socket, head: Buffer) => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    server.emit('connection', socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Cookies', baseUrl: base })).id;
}, 60_000);

afterAll(async () => {
  for (const release of hanging) release();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await sup?.shutdown();
});

beforeEach(async () => {
  await call('cookies.clear', {});
  seen.length = 0;
});

describe('cookie jar, hop by hop', () => {
  it('takes each hop\'s Set-Cookie into the jar, deletes on Max-Age=0 and a past expiry, and says what became of each', async () => {
    const exchange = await send('/chain/1', { sendCookies: true });
    expect(exchange.response.status).toBe(200);
    expect(exchange.response.hops.map((h) => outcomes(h.cookies))).toEqual([
      ['a:stored', 's:stored'],
      ['a:deleted:max-age', 'b:stored'],
    ]);
    expect(outcomes(exchange.response.cookies)).toEqual(['c:deleted:expired', 'd:stored']);
    expect(exchange.response.hops[1]!.cookies![0]).toMatchObject({ existed: true });
    expect(exchange.response.cookies![0]!.reason!.message).toContain('not in the jar');
    // Each hop carried what the hops before it had set, and a deleted cookie no longer.
    expect(seen.map((s) => [s.path, s.cookie])).toEqual([
      ['/chain/1', undefined],
      ['/chain/2', `a=${MARK}-a; s=${MARK}-s`],
      ['/chain/3', `s=${MARK}-s; b=${MARK}-b`],
    ]);
    expect(await jarNames()).toEqual(['127.0.0.1 b', '127.0.0.1 d', '127.0.0.1 s']);
  });

  it('with Send cookies off, fills the jar all the same and sends none of it', async () => {
    await send('/chain/1', { sendCookies: false });
    expect(seen.map((s) => s.cookie)).toEqual([undefined, undefined, undefined]);
    expect(await jarNames()).toEqual(['127.0.0.1 b', '127.0.0.1 d', '127.0.0.1 s']);
    await send('/echo', { sendCookies: true });
    expect(seen.at(-1)!.cookie).toBe(`s=${MARK}-s; b=${MARK}-b; d=${MARK}-d`);
  });

  it('ignores a Secure cookie over http, a Domain that is not the host\'s, a broken __Host- cookie and one over 4 KB, each with its reason', async () => {
    const exchange = await send('/rules');
    expect(outcomes(exchange.response.cookies)).toEqual([
      'sec:ignored:secure-over-http',
      'dom:ignored:domain-mismatch',
      '__Host-h:ignored:prefix',
      'fits:stored',
      'big:ignored:too-large',
    ]);
    const reasons = exchange.response.cookies!.map((o) => o.reason?.message ?? '');
    expect(reasons[0]).toBe('Ignored: a Secure cookie may only be set over https, and this response came over http.');
    expect(reasons[1]).toBe('Ignored: Domain=example.com does not match the host 127.0.0.1.');
    expect(reasons[4]).toBe('Ignored: the cookie is 4,097 bytes (name and value), over the 4 KB limit.');
    expect(await jarNames()).toEqual(['127.0.0.1 fits']);
  });

  it('sends a Cookie header set by hand, which wins over a jar cookie of the same name', async () => {
    await send('/many?prefix=k&ages=s,s,s');
    await send('/echo', { sendCookies: true, headers: [['Cookie', 'k1=typed-by-hand']] });
    expect(seen.at(-1)!.cookie).toBe(`k1=typed-by-hand; k0=${MARK}; k2=${MARK}`);
  });
});

describe('cookie jar caps', () => {
  it('keeps 50 cookies per domain, dropping the one expiring soonest first and session cookies last', async () => {
    const ages = Array.from({ length: 50 }, (_, i) => String(1000 + i));
    ages[3] = 's';
    ages[10] = '500';
    await send(`/many?prefix=m&ages=${ages.join(',')}`);
    expect((await call('cookies.list', {})).cookies).toHaveLength(50);
    const more = await send('/many?prefix=n&ages=2000,s');
    expect(more.response.cookies!.map((o) => [o.name, o.outcome, o.evicted?.map((e) => e.name)])).toEqual([
      ['n0', 'stored', ['m10']],
      ['n1', 'stored', ['m0']],
    ]);
    // Only session cookies left to choose from: the oldest of them goes.
    await send(`/many?prefix=p&ages=${Array.from({ length: 49 }, () => 's').join(',')}`);
    const names = (await call('cookies.list', {})).cookies.map((c) => c.name);
    expect(names).toHaveLength(50);
    expect(names).toContain('n1');
    expect(names).not.toContain('m3');
    // A cookie that would itself be first to go is ignored, with the reason.
    const brief = await send('/many?prefix=q&ages=1');
    expect(brief.response.cookies![0]).toMatchObject({ outcome: 'ignored', reason: { code: 'evicted' } });
  });

  it('keeps 3,000 cookies in the jar, dropping the soonest-expiring of any domain', async () => {
    await call('workspace.setPreferences', { proxy: base });
    try {
      for (let site = 0; site < 60; site++) {
        const ages = Array.from({ length: 50 }, (_, i) => String(100_000 + site * 100 + i));
        const exchange = await send(`http://site${site}.test/many?prefix=c&ages=${ages.join(',')}`);
        expect(exchange.response.cookies!.every((o) => o.outcome === 'stored')).toBe(true);
      }
      expect((await call('cookies.list', {})).cookies).toHaveLength(3000);
      const last = await send('http://site60.test/many?prefix=x&ages=s');
      expect(last.response.cookies![0]).toMatchObject({ outcome: 'stored', evicted: [{ domain: 'site0.test', path: '/', name: 'c0' }] });
      expect((await call('cookies.list', {})).cookies).toHaveLength(3000);
      expect(seen.at(-1)!.host).toBe('site60.test');
    } finally {
      await call('workspace.setPreferences', { proxy: '' });
    }
    // 61 sends through the real sender: about 10 s here, far more on a loaded machine.
  }, 180_000);
});

describe('cookie jar and the sender process', () => {
  it('keeps what the hops before a kill -9 of the sender stored, and the restarted sender sends it', async () => {
    const pid = sup.sender.pid!;
    const sending = send('/hang-after-cookie', { sendCookies: true }).then(
      () => null,
      (err: unknown) => err,
    );
    await until(() => seen.some((s) => s.path === '/hang'));
    sup.sender.kill('SIGKILL');
    const failure = await sending;
    expect(hasCode(failure, 'child-died')).toBe(true);
    expect(await jarNames()).toEqual(['127.0.0.1 early']);
    await until(() => sup.sender.state === 'running' && sup.sender.pid !== pid, 20_000);
    await send('/echo', { sendCookies: true });
    expect(seen.at(-1)!.cookie).toBe(`early=${MARK}-early`);
  }, 60_000);
});

describe('cookie values stay out of files, logs and History', () => {
  it('no project file, log line, History entry or workspace file holds a cookie value in the clear', async () => {
    await send('/chain/1', { sendCookies: true });
    await send('/echo', { sendCookies: true, headers: [['Cookie', `hand=${MARK}-hand`]] });
    await sup.cookies.flush();
    const found: string[] = [];
    for (const dir of [projectDir, home]) {
      for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        if ((await readFile(path)).includes(Buffer.from(MARK))) found.push(path);
      }
    }
    expect(found).toEqual([]);
    const history = await call('history.list', { project: projectDir });
    expect(history.length).toBeGreaterThan(5);
    expect(JSON.stringify(history)).not.toContain(MARK);
    expect(logs.join('\n')).not.toContain(MARK);
    // The History entry still says a Set-Cookie came, with its value masked.
    const chain = await call('history.get', { project: projectDir, id: history.find((e) => e.url.endsWith('/chain/1'))!.id });
    expect(JSON.stringify(chain)).not.toContain(MARK);
    expect(chain.response!.headers.filter(([n]) => n.toLowerCase() === 'set-cookie').map(([, v]) => v.split('=')[0])).toEqual(['c', 'd']);
  });
});
