/**
 * A send through the real supervisor and sender process: `${...}` expansion, every auth kind
 * (OAuth 2 against a real oidc-provider), refusal before the network, and secrets kept out of
 * project files, history, logs and error messages (a real Secret Service via with-keyring).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { Handlers } from '../../protocol/peer.js';
import type { Request } from '../../protocol/model/request.js';
import type { Auth } from '../../protocol/model/auth.js';
import { MACHINE_CLIENT, startOidcServer, type OidcServer } from '../../processes/supervisor/auth/test-support/oidc-server.js';
import { keyringMissing } from '../support/keyring.js';

const missingKeyring = await keyringMissing();
if (missingKeyring) console.warn(`Skipping keychain send tests: ${missingKeyring}`);

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let sup: Supervisor;
let handlers: Handlers;
let server: Server;
let base: string;
let home: string;
let projectDir: string;
let apiId: string;
let oidc: OidcServer;
const seen: Seen[] = [];
const logs: string[] = [];

const SECRET = 'sk_live_4f9c2a7e1b3d5f60'; // what must never reach a file, a log or an error

async function call<M extends keyof Handlers>(method: M, payload: Parameters<NonNullable<Handlers[M]>>[0]): Promise<Awaited<ReturnType<NonNullable<Handlers[M]>>>> {
  const handler = handlers[method] as (p: unknown, ctx: unknown) => unknown;
  return (await handler(payload, { signal: new AbortController().signal, chunk: () => {} })) as never;
}

async function newRequest(patch: Partial<Request>): Promise<Request> {
  const created = await call('request.create', { project: projectDir, parent: apiId, name: `r${Math.random()}`, method: 'GET', url: '/echo' });
  return { ...created, ...patch };
}

async function allProjectText(dir: string): Promise<string> {
  let out = '';
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-send-'));
  projectDir = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, log: (line) => logs.push(line) });
  handlers = uiHandlers(sup);
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Echo', baseUrl: '${host}' })).id;
  await call('project.setProperties', { project: projectDir, properties: [{ name: 'host', value: base, enabled: true }, { name: 'who', value: 'project', enabled: true }] });
  oidc = await startOidcServer();
});

afterAll(async () => {
  await sup?.shutdown();
  server?.closeAllConnections();
  server?.close();
  await oidc?.close();
});

describe('sending through the supervisor', () => {
  it('expands ${name} from the active environment, then the project, then the globals', async () => {
    await call('environments.save', {
      environments: [{ id: 'e_staging', name: 'Staging', variables: [{ name: 'who', value: 'environment', enabled: true }] }],
      globals: [{ name: 'who', value: 'global', enabled: true }, { name: 'onlyGlobal', value: 'g', enabled: true }],
      activeEnvironment: 'e_staging',
    });
    const request = await newRequest({ url: '/echo/{id}', pathParams: [{ name: 'id', value: '${onlyGlobal}' }], query: [{ name: 'who', value: '${who}', enabled: true }, { name: 'off', value: 'x', enabled: false }] });
    const exchange = await call('request.send', { project: projectDir, request });
    expect(exchange.response.status).toBe(200);
    expect(seen.at(-1)!.url).toBe('/echo/g?who=environment');
    await call('environments.setActive', {});
    await call('request.send', { project: projectDir, request });
    expect(seen.at(-1)!.url).toBe('/echo/g?who=project');
  });

  it('refuses an unresolved {path} or ${name} before anything reaches the server, naming each', async () => {
    const before = seen.length;
    const request = await newRequest({ url: '/echo/{id}', headers: [{ name: 'X-Key', value: '${nowhere}', enabled: true }] });
    await expect(call('request.send', { project: projectDir, request })).rejects.toMatchObject({
      code: 'unresolved',
      message: expect.stringMatching(/Not sent: path parameter \{id\} has no value; \$\{nowhere\} is not defined/),
    });
    expect(seen.length).toBe(before);
  });

  const authCases: [string, Auth, (h: IncomingHttpHeaders, url: string) => void][] = [
    ['Basic', { type: 'basic', username: 'ada', password: 'pw' }, (h) => expect(h.authorization).toBe(`Basic ${Buffer.from('ada:pw').toString('base64')}`)],
    ['Bearer', { type: 'bearer', token: 'tok' }, (h) => expect(h.authorization).toBe('Bearer tok')],
    ['API key header', { type: 'apikey', name: 'X-Api-Key', value: 'k1', in: 'header' }, (h) => expect(h['x-api-key']).toBe('k1')],
    ['API key query', { type: 'apikey', name: 'api_key', value: 'k2', in: 'query' }, (_h, url) => expect(url).toContain('api_key=k2')],
  ];
  it.each(authCases)('applies %s auth', async (_name, auth, check) => {
    const request = await newRequest({ auth });
    await call('request.send', { project: projectDir, request });
    check(seen.at(-1)!.headers, seen.at(-1)!.url);
  });

  it('gets an OAuth 2 client-credentials token from a real OAuth server and sends it', async () => {
    const auth: Auth = { type: 'oauth2', grant: 'client_credentials', tokenUrl: oidc.tokenUrl, authorizationUrl: '', clientId: MACHINE_CLIENT.id, clientSecret: MACHINE_CLIENT.secret, scope: '', usePkce: false };
    const request = await newRequest({ auth });
    await call('request.send', { project: projectDir, request });
    const header = seen.at(-1)!.headers.authorization ?? '';
    expect(header).toMatch(/^Bearer \S{10,}$/);
    expect(oidc.tokenRequests).toContain('client_credentials');
    await call('request.send', { project: projectDir, request });
    expect(seen.at(-1)!.headers.authorization).toBe(header); // cached, not asked again
  });
});

describe.skipIf(missingKeyring !== null)('secrets', () => {
  // Saving an API's token moves it to the keychain: this needs the real Secret Service.
  it('Inherit uses the API auth (its token read back from the keychain), and a request auth overrides it', async () => {
    const api = await call('api.get', { project: projectDir, id: apiId });
    const saved = await call('api.save', { project: projectDir, api: { ...api, auth: { type: 'bearer', token: 'from-api' } } });
    expect(saved.auth).toEqual({ type: 'bearer', token: `\${secret:api/${apiId}/token}` });
    expect(await allProjectText(projectDir)).not.toContain('from-api');
    await call('request.send', { project: projectDir, request: await newRequest({}) });
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer from-api');
    await call('request.send', { project: projectDir, request: await newRequest({ auth: { type: 'none' } }) });
    expect(seen.at(-1)!.headers.authorization).toBeUndefined();
    await call('api.save', { project: projectDir, api: { ...api, auth: { type: 'none' } } });
  });

  it('a typed secret goes to the keychain on save; files, history, logs and errors never hold it', async () => {
    const created = await newRequest({ auth: { type: 'bearer', token: SECRET } });
    const saved = await call('request.save', { project: projectDir, request: created });
    expect(saved.auth).toEqual({ type: 'bearer', token: `\${secret:request/${created.id}/token}` });
    const exchange = await call('request.send', { project: projectDir, request: saved });
    expect(seen.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.stringify(exchange.request)).not.toContain(SECRET);
    expect(exchange.redacted).toBe(true);

    // An environment secret used in a URL, and a send that fails: the error must not quote it.
    const { ref } = await call('secret.set', { name: 'env/token', value: SECRET });
    const failing = await newRequest({ url: `http://127.0.0.1:1/x?key=${ref}` });
    await expect(call('request.send', { project: projectDir, request: failing })).rejects.toSatisfy((err: Error) => !err.message.includes(SECRET));

    await new Promise((r) => setTimeout(r, 100));
    expect(await allProjectText(projectDir)).not.toContain(SECRET);
    expect(await allProjectText(home).then((t) => t.includes(SECRET))).toBe(false);
    expect(logs.join('\n')).not.toContain(SECRET);
    const history = await call('history.list', { project: projectDir });
    expect(history.length).toBeGreaterThan(0);
    expect(JSON.stringify(history)).not.toContain(SECRET);
  });
});
