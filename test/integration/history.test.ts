/**
 * History through the real supervisor and sender process, against real servers on 127.0.0.1:
 * what a send records (every credential masked before anything is written), re-send (masked
 * values filled from the request, its current auth; another host sends the request instead),
 * Copy as cURL of an entry, and the per-project limit.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { Request } from '../../protocol/model/request.js';
import { MASK } from '../../protocol/credentials/index.js';
import { handlerCaller, type UiCall } from '../support/ui-calls.js';

interface Hit {
  server: 'A' | 'B';
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Values that must never reach History, a file or a log. */
const LITERALS = { apiKey: 'k-literal-123', queryToken: 'qt-999', password: 'pw-555', clientSecret: 'cs-777', bearer: 'bearer-tok-31', cookie: 'cookie-val-1', serverToken: 'srv-tok-1', sessionToken: 'st-2' };

let sup: Supervisor;
let call: UiCall;
let home: string;
let projectDir: string;
let apiId: string;
const servers: Server[] = [];
const hits: Hit[] = [];
const logs: string[] = [];
let baseA: string;
let baseB: string;

function serve(name: 'A' | 'B'): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ server: name, method: req.method!, url: req.url!, headers: req.headers, body });
      const to = new URL(req.url!, 'http://x').searchParams.get('to');
      if (to) {
        res.writeHead(302, { location: to }).end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.setHeader('set-cookie', `sid=${LITERALS.cookie}; Path=/; HttpOnly`);
      res.setHeader('x-session-token', LITERALS.sessionToken);
      res.end(JSON.stringify({ access_token: LITERALS.serverToken, ok: true, server: name }));
    });
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

async function newRequest(patch: Partial<Request>): Promise<Request> {
  const created = await call('request.create', { project: projectDir, parent: apiId, name: `r${Math.random()}`, method: 'POST', url: '/echo' });
  const saved = await call('request.save', { project: projectDir, request: { ...created, ...patch } });
  return saved as Request;
}

/** A request carrying a credential in every place History masks. */
function credentialed(): Partial<Request> {
  return {
    url: '${host}/login',
    query: [
      { name: 'access_token', value: LITERALS.queryToken, enabled: true },
      { name: 'page', value: '2', enabled: true },
    ],
    headers: [
      { name: 'X-Api-Key', value: LITERALS.apiKey, enabled: true },
      { name: 'Cookie', value: `theme=dark; session=${LITERALS.cookie}`, enabled: true },
      { name: 'X-Plain', value: 'seen', enabled: true },
    ],
    body: {
      kind: 'raw',
      raw: { language: 'json', text: `{\n  "user": "bob",\n  "password": "${LITERALS.password}",\n  "nested": {"client_secret": "${LITERALS.clientSecret}"}\n}` },
      form: [],
      multipart: [],
      binary: { file: '', contentType: '' },
    },
  };
}

async function everyFileUnder(dir: string): Promise<string> {
  let out = '';
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) if (entry.isFile()) out += await readFile(join(entry.parentPath, entry.name), 'utf8');
  return out;
}

const setHost = (host: string) => call('project.setProperties', { project: projectDir, properties: [{ name: 'host', value: host, enabled: true }] });

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-history-'));
  projectDir = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, log: (line) => logs.push(line) });
  call = handlerCaller(uiHandlers(sup));
  baseA = await serve('A');
  baseB = await serve('B');
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Echo', baseUrl: '' })).id;
  await setHost(baseA);
});

afterAll(async () => {
  await sup?.shutdown();
  for (const s of servers) await new Promise((r) => s.close(r));
});

describe('History', () => {
  let request: Request;
  let entryId: string;
  let first: Hit;

  it('records a send with every credential masked, in the request and the response, before anything is written', async () => {
    request = await newRequest(credentialed());
    // A token typed into the draft (not saved): masked too.
    const draft: Request = { ...request, auth: { type: 'bearer', token: LITERALS.bearer } };
    hits.length = 0;
    const exchange = await call('request.send', { project: projectDir, request: draft });
    first = hits[0]!;
    expect(first.headers.authorization).toBe(`Bearer ${LITERALS.bearer}`);
    expect(first.headers.accept).toBe('*/*');
    const list = await call('history.list', { project: projectDir, requestId: request.id });
    expect(list[0]!.id).toBe(exchange.id);
    entryId = exchange.id;
    const entry = await call('history.get', { project: projectDir, id: entryId });
    expect(entry.redacted).toBe(true);
    const enc = encodeURIComponent(MASK);
    expect(entry.request.url).toBe(`${baseA}/login?access_token=${enc}&page=2`);
    expect(Object.fromEntries(entry.request.headers)).toMatchObject({
      'X-Api-Key': MASK,
      Cookie: `theme=${MASK}; session=${MASK}`,
      'X-Plain': 'seen',
      Authorization: 'Bearer ${secret:unsaved-token}',
      Accept: '*/*',
    });
    expect(JSON.parse(entry.request.body)).toEqual({ user: 'bob', password: MASK, nested: { client_secret: MASK } });
    expect(entry.request.bodyKind).toBe('text');
    expect(JSON.parse(entry.response!.body)).toEqual({ access_token: MASK, ok: true, server: 'A' });
    expect(Object.fromEntries(entry.response!.headers.map(([n, v]) => [n.toLowerCase(), v]))).toMatchObject({ 'set-cookie': `sid=${MASK}; Path=/; HttpOnly`, 'x-session-token': MASK });
    expect(entry.response!.url).toBe(`${baseA}/login?access_token=${LITERALS.queryToken}&page=2`.replace(LITERALS.queryToken, enc));
    // History's files and the logs hold none of them (the project file keeps what the user typed into its rows).
    const written = (await everyFileUnder(join(home, 'history'))) + logs.join('\n');
    for (const [what, value] of Object.entries(LITERALS)) expect({ what, found: written.includes(value) }).toEqual({ what, found: false });
  });

  it('re-sends an entry through its request: masked values filled from the request, the request’s current auth', async () => {
    hits.length = 0;
    const again = await call('history.resend', { project: projectDir, id: entryId, request: { ...request, auth: { type: 'bearer', token: LITERALS.bearer } } });
    expect(again.from).toBe('entry');
    const hit = hits[0]!;
    expect({ url: hit.url, body: hit.body, key: hit.headers['x-api-key'], cookie: hit.headers.cookie, auth: hit.headers.authorization }).toEqual({
      url: first.url,
      body: first.body,
      key: first.headers['x-api-key'],
      cookie: first.headers.cookie,
      auth: first.headers.authorization,
    });
    // The auth as the request has it now, not as the entry recorded it.
    hits.length = 0;
    await call('history.resend', { project: projectDir, id: entryId, request: { ...request, auth: { type: 'bearer', token: 'a-new-token-77' } } });
    expect(hits[0]!.headers.authorization).toBe('Bearer a-new-token-77');
    expect(hits[0]!.url).toBe(first.url);
    // The re-send is itself in History.
    expect((await call('history.list', { project: projectDir, requestId: request.id })).length).toBe(3);
  });

  it('re-sends from the request when a masked value has nothing to be filled from, and says why', async () => {
    hits.length = 0;
    const noPassword: Request = { ...request, auth: { type: 'bearer', token: LITERALS.bearer }, body: { ...request.body, raw: { language: 'json', text: '{"user":"carol"}' } } };
    const result = await call('history.resend', { project: projectDir, id: entryId, request: noPassword });
    expect(result.from).toBe('request');
    expect(result.reason).toMatch(/masked value in the body/);
    expect(hits[0]!.body).toBe('{"user":"carol"}');
  });

  it('re-sends from the request when the entry went to another host (another environment) or ended on one (a redirect)', async () => {
    await setHost(baseB);
    hits.length = 0;
    const moved = await call('history.resend', { project: projectDir, id: entryId, request: { ...request, auth: { type: 'bearer', token: LITERALS.bearer } } });
    expect(moved.from).toBe('request');
    expect(moved.reason).toContain(baseA);
    expect(hits.map((h) => h.server)).toEqual(['B']);
    await setHost(baseA);

    const redirecting = await newRequest({ method: 'GET', url: `${baseA}/hop`, query: [{ name: 'to', value: `${baseB}/landed`, enabled: true }] });
    hits.length = 0;
    const exchange = await call('request.send', { project: projectDir, request: redirecting });
    expect(hits.map((h) => h.server)).toEqual(['A', 'B']);
    const entry = await call('history.get', { project: projectDir, id: exchange.id });
    expect(entry.response!.url).toBe(`${baseB}/landed`);
    const result = await call('history.resend', { project: projectDir, id: exchange.id });
    expect(result.from).toBe('request');
    expect(result.reason).toContain(baseB);
  });

  it('copies an entry as cURL with its masks kept', async () => {
    const { command } = await call('history.curl', { project: projectDir, id: entryId, showSecrets: false });
    expect(command).toContain(`-H 'X-Api-Key: ${MASK}'`);
    expect(command).toContain('"password": "••••••"');
    for (const value of Object.values(LITERALS)) expect(command).not.toContain(value);
  });

  it('keeps the newest entries up to the limit set in Preferences', async () => {
    await call('workspace.setPreferences', { historyLimit: 10 });
    const small = await newRequest({ method: 'GET', url: '${host}/small' });
    for (let i = 0; i < 12; i++) await call('request.send', { project: projectDir, request: small });
    expect(await call('history.list', { project: projectDir })).toHaveLength(10);
    await expect(call('history.get', { project: projectDir, id: entryId })).rejects.toMatchObject({ code: 'not-found' });
  });
});
