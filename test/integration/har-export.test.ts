/**
 * HAR export true to the wire, through the real supervisor and sender process against a real
 * server on 127.0.0.1: a 302 -> 301 -> 200 chain whose first hop sets a cookie exports as one
 * entry per hop, each with the request headers exactly as the server received them (the jar's
 * Cookie on the later hops, its value masked), its own status, headers and Location, the last
 * hop's body, and timings whose sum is `time`; the document is valid against the HAR 1.2 JSON
 * schema (the `har-schema` package); and it imports back into Parley as the requests that went out.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as AjvModule from 'ajv';
import type { AnySchemaObject, ErrorObject } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { MapSecrets } from '../../processes/supervisor/cookies/test-support/map-secrets.js';
import { MASK } from '../../protocol/credentials/index.js';
import type { Request } from '../../protocol/model/request.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';

/** Long enough to be looked for by value, so its absence from the export means something. */
const SESSION = 'ck-session-5e0b9d41c7a2';
const TOKEN = 'tk-bearer-0c9a7e31f55d';

interface HarHeader {
  name: string;
  value: string;
}
interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: HarHeader[]; cookies: { name: string; value: string }[]; bodySize: number };
  response: { status: number; headers: HarHeader[]; cookies: { name: string; value: string; path?: string }[]; content: { size: number; mimeType: string; text?: string }; redirectURL: string; bodySize: number };
  timings: Record<'blocked' | 'dns' | 'connect' | 'ssl' | 'send' | 'wait' | 'receive', number>;
}
interface Received {
  path: string;
  rawHeaders: string[];
  socket: Socket;
}

let sup: Supervisor;
let call: UiCall;
let handlers: ReturnType<typeof uiHandlers>;
let server: Server;
let base: string;
let home: string;
let projectDir: string;
let apiId: string;
const received: Received[] = [];

/** The HAR 1.2 JSON schema of `har-schema` (the one har-validator checks with), compiled by Ajv. */
function harValidator(): (data: unknown) => boolean {
  const require = createRequire(import.meta.url);
  const schemas = require('har-schema') as Record<string, AnySchemaObject>;
  const { Ajv } = require('ajv') as typeof AjvModule;
  const addFormats = require('ajv-formats') as (ajv: InstanceType<typeof Ajv>) => void;
  // The package's schemas say draft-06 and use a `min` keyword of their own: Ajv 8 reads draft-06
  // with its meta-schema added, and `strict: false` lets the unknown keyword pass unenforced
  // (the test checks timings' lower bound itself).
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as AnySchemaObject);
  addFormats(ajv);
  for (const [name, schema] of Object.entries(schemas)) if (name !== 'har') ajv.addSchema(schema);
  const validate = ajv.compile(schemas['har']!);
  return (data) => {
    if (validate(data) === true) return true;
    throw new Error(`Not valid HAR 1.2: ${ajv.errorsText(validate.errors as ErrorObject[] | null)}`);
  };
}

async function exportHar(): Promise<{ text: string; entries: HarEntry[] }> {
  const { rows } = await call('httpLog.list', {});
  const pieces: string[] = [];
  await handlers['httpLog.har']!({ ids: rows.map((r) => r.id) }, { signal: new AbortController().signal, chunk: (c: { text: string }) => pieces.push(c.text) });
  const text = pieces.join('');
  return { text, entries: (JSON.parse(text) as { log: { entries: HarEntry[] } }).log.entries };
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-har-export-'));
  projectDir = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, secrets: new MapSecrets(), log: () => {} });
  handlers = uiHandlers(sup);
  call = handlerCaller(handlers);
  server = createServer((req: IncomingMessage, res) => {
    received.push({ path: req.url ?? '', rawHeaders: req.rawHeaders, socket: req.socket });
    if (req.url === '/login') {
      res.writeHead(302, 'Found', { Location: '/moved?step=2', 'Set-Cookie': `session=${SESSION}; Path=/; HttpOnly`, 'Content-Type': 'text/plain' });
      res.end('Found. Redirecting to /moved');
    } else if (req.url === '/moved?step=2') {
      res.writeHead(301, 'Moved Permanently', { Location: '/home' });
      res.end();
    } else {
      res.writeHead(200, 'OK', { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ home: true, signedIn: (req.headers.cookie ?? '').includes('session=') }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Site', baseUrl: base })).id;
});

afterAll(async () => {
  await sup?.shutdown();
  await new Promise((r) => server.close(r));
  await rm(home, { recursive: true, force: true });
});

describe('HAR export of a redirect chain', () => {
  let exported: { text: string; entries: HarEntry[] };
  let sent: Request;

  it('exports one entry per hop, each with its request headers as the server received them', async () => {
    const created = await call('request.create', { project: projectDir, parent: apiId, name: 'login', method: 'GET', url: '/login' });
    sent = await call('request.save', {
      project: projectDir,
      request: { ...created, headers: [{ name: 'X-Client', value: 'har-test', enabled: true }], auth: { type: 'bearer', token: TOKEN }, settings: { ...created.settings, sendCookies: true } },
    });
    const exchange = await call('request.send', { project: projectDir, request: sent });
    expect(exchange.response.status).toBe(200);
    expect(exchange.response.hops.map((h) => h.status)).toEqual([302, 301]);
    expect(received.map((r) => r.path)).toEqual(['/login', '/moved?step=2', '/home']);

    exported = await exportHar();
    const { entries } = exported;
    const token = (sent.auth as { token: string }).token;
    expect(token).toMatch(/^\$\{secret:.+\}$/);
    expect(entries.map((e) => [e.request.method, e.request.url, e.response.status])).toEqual([
      ['GET', `${base}/login`, 302],
      ['GET', `${base}/moved?step=2`, 301],
      ['GET', `${base}/home`, 200],
    ]);

    // Every hop's headers, in the order and with the names the server got; the jar's Cookie on
    // the hops after the one that set it, and Authorization, with their values masked.
    for (const [i, entry] of entries.entries()) {
      const raw = received[i]!.rawHeaders;
      const onWire: [string, string][] = [];
      for (let k = 0; k < raw.length; k += 2) onWire.push([raw[k]!, raw[k + 1]!]);
      const masked = onWire.map(([name, value]): [string, string] => {
        // A token saved in the request is a keychain secret: it is recorded as its reference.
        if (name.toLowerCase() === 'authorization') return [name, `Bearer ${token}`];
        if (name.toLowerCase() === 'cookie') return [name, `session=${MASK}`];
        return [name, value];
      });
      expect(entry.request.headers.map((h) => [h.name, h.value])).toEqual(masked);
    }
    const cookieOf = (e: HarEntry) => e.request.headers.filter((h) => h.name.toLowerCase() === 'cookie').map((h) => h.value);
    expect(entries.map(cookieOf)).toEqual([[], [`session=${MASK}`], [`session=${MASK}`]]);
    expect(entries[1]!.request.cookies).toEqual([{ name: 'session', value: MASK }]);
    // The server did get the real cookie on those hops.
    expect(received.slice(1).map((r) => r.rawHeaders.includes(`session=${SESSION}`))).toEqual([true, true]);
    expect(exported.text).not.toContain(SESSION);
    expect(exported.text).not.toContain(TOKEN);
  });

  it('gives each hop its own response: redirects with their Location and no body, the last hop the body', () => {
    const [login, moved, home] = exported.entries as [HarEntry, HarEntry, HarEntry];
    expect(login.response.redirectURL).toBe('/moved?step=2');
    expect(login.response.content).toMatchObject({ size: 0, mimeType: 'text/plain' });
    expect(login.response.content.text).toBeUndefined();
    expect(login.response.bodySize).toBe(-1);
    expect(login.response.cookies).toEqual([{ name: 'session', value: MASK, path: '/', httpOnly: true, secure: false }]);
    expect(login.response.headers.find((h) => h.name.toLowerCase() === 'set-cookie')?.value).toBe(`session=${MASK}; Path=/; HttpOnly`);
    expect(moved.response.redirectURL).toBe('/home');
    expect(home.response.redirectURL).toBe('');
    expect(JSON.parse(home.response.content.text!)).toEqual({ home: true, signedIn: true });
    expect(home.response.content.mimeType).toBe('application/json');
    // Hops start one after another.
    const starts = exported.entries.map((e) => Date.parse(e.startedDateTime));
    expect(starts[1]).toBeGreaterThanOrEqual(starts[0]!);
    expect(starts[2]).toBeGreaterThanOrEqual(starts[1]!);
  });

  it('makes `time` the sum of the timings that are known, -1 where a phase did not happen', () => {
    for (const [i, entry] of exported.entries.entries()) {
      const t = entry.timings;
      for (const value of Object.values(t)) expect(value).toBeGreaterThanOrEqual(-1);
      const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].filter((ms) => ms >= 0).reduce((a, b) => a + b, 0);
      expect(Math.abs(entry.time - sum)).toBeLessThan(0.002);
      // Plain http: no TLS on any hop.
      expect(t.ssl).toBe(-1);
      // A hop on the connection an earlier hop opened paid no set-up: dns and connect are -1.
      const reused = received.slice(0, i).some((r) => r.socket === received[i]!.socket);
      if (reused) expect([t.dns, t.connect]).toEqual([-1, -1]);
      else expect(Math.min(t.dns, t.connect)).toBeGreaterThanOrEqual(0);
    }
    expect(exported.entries[0]!.timings.dns).toBeGreaterThanOrEqual(0);
  });

  it('is valid against the HAR 1.2 schema', () => {
    const valid = harValidator();
    expect(valid(JSON.parse(exported.text))).toBe(true);
    // The schema does catch what HAR requires: an entry without `time`, a content size that is not an integer.
    const [first] = exported.entries as [HarEntry];
    const document = (entry: unknown) => ({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [entry] } });
    expect(() => valid(document({ ...first, time: undefined }))).toThrow(/time/);
    expect(() => valid(document({ ...first, response: { ...first.response, content: { ...first.response.content, size: 0.5 } } }))).toThrow(/integer/);
  });

  it('imports back into Parley as the requests that went out', async () => {
    const done = await call('import.run', { source: { kind: 'paste', text: exported.text }, format: 'auto', options: {}, into: { kind: 'new', path: join(home, 'reimported') } });
    expect(done.detection?.format).toBe('har');
    expect(done.apis).toEqual([expect.objectContaining({ baseUrl: base, requests: 3 })]);
    const tree = await call('project.tree', { project: done.project! });
    const requests = await Promise.all(tree.items.filter((item) => item.kind === 'request').map((item) => call('request.get', { project: done.project!, id: item.id })));
    const byUrl = new Map(requests.map((r) => [r.url, r]));
    expect([...byUrl.keys()].sort()).toEqual(['/home', '/login', '/moved?step=2']);
    // The request as the user sent it: method, URL, its own header, its auth (the token's keychain reference).
    const login = byUrl.get('/login')!;
    expect(login.method).toBe(sent.method);
    expect(login.headers.map((h) => [h.name, h.value])).toEqual(expect.arrayContaining([['X-Client', 'har-test']]));
    expect(login.auth).toEqual(sent.auth);
    // The hops after it: the same header went on each, and the Cookie stays with the jar.
    for (const r of requests) {
      expect(r.method).toBe('GET');
      expect(r.headers.map((h) => h.name.toLowerCase())).not.toContain('cookie');
      expect(r.headers.map((h) => [h.name, h.value])).toEqual(expect.arrayContaining([['X-Client', 'har-test']]));
    }
  });
});
