/**
 * Folder settings through the real supervisor and sender (docs/project-files.md "Folder
 * settings"): a folder's auth, headers and variables reach the wire for the requests in it, the
 * nearest folder first, a request's own winning; what a request inherits is reported with where
 * each value is set; a typed secret in a folder's auth goes to the keychain (a real Secret
 * Service via with-keyring) and stays there through a rename.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import type { Handlers } from '../../protocol/peer.js';
import type { Request } from '../../protocol/model/request.js';
import type { FolderSettings } from '../../protocol/model/project.js';
import { keyringMissing } from '../support/keyring.js';
import { until } from '../support/until.js';

const missingKeyring = await keyringMissing();
if (missingKeyring) console.warn(`Skipping keychain folder tests: ${missingKeyring}`);

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

let sup: Supervisor;
let handlers: Handlers;
let server: Server;
let home: string;
let projectDir: string;
let apiId: string;
let orders: string;
let drafts: string;
const seen: Seen[] = [];
const logs: string[] = [];

async function call<M extends keyof Handlers>(method: M, payload: Parameters<NonNullable<Handlers[M]>>[0]): Promise<Awaited<ReturnType<NonNullable<Handlers[M]>>>> {
  const handler = handlers[method] as (p: unknown, ctx: unknown) => unknown;
  return (await handler(payload, { signal: new AbortController().signal, chunk: () => {} })) as never;
}

async function requestIn(parent: string, patch: Partial<Request> = {}): Promise<Request> {
  const created = await call('request.create', { project: projectDir, parent, name: `r${seen.length}-${Math.random()}`, method: 'GET', url: '/echo?region=${region}' });
  return { ...created, ...patch };
}

async function sent(request: Request): Promise<Seen> {
  const before = seen.length;
  await call('request.send', { project: projectDir, request });
  expect(seen.length).toBe(before + 1);
  return seen.at(-1)!;
}

const settings = (patch: Partial<FolderSettings>): FolderSettings => ({ auth: { type: 'inherit' }, headers: [], variables: [], ...patch });

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-folders-'));
  projectDir = join(home, 'project');
  sup = await Supervisor.start({ dataDir: home, log: (line) => logs.push(line) });
  handlers = uiHandlers(sup);
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ url: req.url!, headers: req.headers });
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await sup.openProject(projectDir, { create: true });
  apiId = (await call('api.create', { project: projectDir, name: 'Shop', baseUrl: base })).id;
  const api = await call('api.get', { project: projectDir, id: apiId });
  await call('api.save', { project: projectDir, api: { ...api, auth: { type: 'bearer', token: '${apiToken}' } } });
  await call('project.setProperties', {
    project: projectDir,
    properties: [
      { name: 'apiToken', value: 'api-token', enabled: true },
      { name: 'ordersToken', value: 'orders-token', enabled: true },
      { name: 'region', value: 'project', enabled: true },
    ],
  });
  orders = (await call('tree.newFolder', { project: projectDir, parent: apiId, name: 'Orders' })).id;
  drafts = (await call('tree.newFolder', { project: projectDir, parent: orders, name: 'Drafts' })).id;
  await call('folder.save', {
    project: projectDir,
    id: orders,
    settings: settings({
      auth: { type: 'bearer', token: '${ordersToken}' },
      headers: [
        { name: 'X-Team', value: 'orders', enabled: true },
        { name: 'X-Trace', value: 'on', enabled: true },
        { name: 'X-Off', value: 'never', enabled: false },
      ],
      variables: [{ name: 'region', value: 'orders', enabled: true }],
    }),
  });
  await call('folder.save', {
    project: projectDir,
    id: drafts,
    settings: settings({ headers: [{ name: 'x-team', value: 'drafts', enabled: true }], variables: [{ name: 'region', value: 'drafts', enabled: true }] }),
  });
});

afterAll(async () => {
  await sup?.shutdown();
  server?.closeAllConnections();
  server?.close();
});

describe('a folder’s settings on the wire', () => {
  it('folder.yaml keeps the settings beside the folder’s place', async () => {
    const text = await readFile(join(projectDir, 'apis', 'Shop', 'requests', 'Orders', 'folder.yaml'), 'utf8');
    expect(text).toMatch(/^order: /m);
    expect(text).toContain('token: ${ordersToken}');
    expect(text).toContain('name: X-Team');
    expect(await call('folder.get', { project: projectDir, id: drafts })).toEqual({ id: drafts, name: 'Drafts', settings: settings({ headers: [{ name: 'x-team', value: 'drafts', enabled: true }], variables: [{ name: 'region', value: 'drafts', enabled: true }] }) });
  });

  it('a request in a nested folder: the nearest folder’s auth, headers and variables', async () => {
    const got = await sent(await requestIn(drafts));
    expect(got.headers.authorization).toBe('Bearer orders-token');
    expect(got.headers['x-team']).toBe('drafts');
    expect(got.headers['x-trace']).toBe('on');
    expect(got.headers['x-off']).toBeUndefined();
    expect(got.url).toBe('/echo?region=drafts');
  });

  it('a request’s own header and auth win over its folders’', async () => {
    const got = await sent(await requestIn(drafts, { headers: [{ name: 'X-TEAM', value: 'mine', enabled: true }], auth: { type: 'basic', username: 'ada', password: 'pw' } }));
    expect(got.headers['x-team']).toBe('mine');
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('ada:pw').toString('base64')}`);
  });

  it('a request outside the folders: the API’s auth, none of the folders’ headers or variables', async () => {
    const got = await sent(await requestIn(apiId));
    expect(got.headers.authorization).toBe('Bearer api-token');
    expect(got.headers['x-team']).toBeUndefined();
    expect(got.url).toBe('/echo?region=project');
  });

  it('the active environment wins over a folder’s variable', async () => {
    await call('environments.save', { environments: [{ id: 'e_1', name: 'Live', variables: [{ name: 'region', value: 'environment', enabled: true }] }], globals: [], activeEnvironment: 'e_1' });
    try {
      expect((await sent(await requestIn(drafts))).url).toBe('/echo?region=environment');
    } finally {
      await call('environments.save', { environments: [], globals: [], activeEnvironment: undefined });
    }
  });

  it('a folder with No auth sends none to what it holds, whatever is set above', async () => {
    const noAuth = (await call('tree.newFolder', { project: projectDir, parent: orders, name: 'Public' })).id;
    await call('folder.save', { project: projectDir, id: noAuth, settings: settings({ auth: { type: 'none' } }) });
    expect((await sent(await requestIn(noAuth))).headers.authorization).toBeUndefined();
  });

  it('a folder’s auth without its values refuses the send, naming the folder', async () => {
    const empty = (await call('tree.newFolder', { project: projectDir, parent: apiId, name: 'Half done' })).id;
    await call('folder.save', { project: projectDir, id: empty, settings: settings({ auth: { type: 'bearer', token: '' } }) });
    const before = seen.length;
    await expect(call('request.send', { project: projectDir, request: await requestIn(empty) })).rejects.toMatchObject({
      code: 'auth-incomplete',
      message: 'Not sent: Bearer auth (from the folder Half done) has no Token. Fill it in in the Folder settings of Half done, or choose No auth.',
    });
    expect(seen.length).toBe(before);
  });

  it('tree.inherited says what a request and a folder take, and from where', async () => {
    const request = await requestIn(drafts);
    const inherited = await call('tree.inherited', { project: projectDir, item: { kind: 'request', id: request.id } });
    expect(inherited.auth).toEqual({ auth: { type: 'bearer', token: '${ordersToken}' }, from: { kind: 'folder', id: orders, name: 'Orders' } });
    expect(inherited.headers).toEqual([
      { name: 'X-Trace', value: 'on', from: { kind: 'folder', id: orders, name: 'Orders' } },
      { name: 'x-team', value: 'drafts', from: { kind: 'folder', id: drafts, name: 'Drafts' } },
    ]);
    expect(inherited.variables).toEqual([{ name: 'region', value: 'drafts', from: { kind: 'folder', id: drafts, name: 'Drafts' } }]);
    // A folder inherits from the folders above it, not from itself.
    const ofOrders = await call('tree.inherited', { project: projectDir, item: { kind: 'folder', id: orders } });
    expect(ofOrders).toEqual({ auth: { auth: { type: 'bearer', token: '${apiToken}' }, from: { kind: 'api', id: apiId, name: 'Shop' } }, headers: [], variables: [] });
  });

  it('a moved request takes its new folder’s settings; a renamed folder keeps its own', async () => {
    const request = await requestIn(apiId);
    await call('tree.move', { project: projectDir, items: [{ kind: 'request', id: request.id }], parent: drafts, before: null });
    expect((await sent(request)).headers['x-team']).toBe('drafts');
    const { id: renamed } = await call('tree.rename', { project: projectDir, item: { kind: 'folder', id: orders }, name: 'Purchases' });
    orders = renamed;
    drafts = `${renamed}/Drafts`;
    const got = await sent(request);
    expect(got.headers.authorization).toBe('Bearer orders-token');
    expect(got.headers['x-team']).toBe('drafts');
    expect((await call('folder.get', { project: projectDir, id: orders })).settings.auth).toEqual({ type: 'bearer', token: '${ordersToken}' });
  });

  it('folder.yaml edited outside Parley (a git pull) is picked up by the next send', async () => {
    const request = await requestIn(drafts);
    const path = join(projectDir, 'apis', 'Shop', 'requests', 'Purchases', 'Drafts', 'folder.yaml');
    // The first `value: drafts` is the header's (the variable's comes after it).
    await writeFile(path, (await readFile(path, 'utf8')).replace('value: drafts', 'value: edited'));
    await until(async () => (await call('folder.get', { project: projectDir, id: drafts })).settings.headers[0]?.value === 'edited');
    expect((await sent(request)).headers['x-team']).toBe('edited');
  });
});

describe.skipIf(missingKeyring !== null)('a secret in a folder’s auth', () => {
  const SECRET = 'fold3r-s3cret-7c1d';
  it('goes to the keychain under the folder’s own id, kept through a rename; never in a file or a log', async () => {
    const id = (await call('tree.newFolder', { project: projectDir, parent: apiId, name: 'Vault' })).id;
    const saved = await call('folder.save', { project: projectDir, id, settings: settings({ auth: { type: 'basic', username: 'ops', password: SECRET } }) });
    const ref = /^\$\{secret:(folder\/f_[A-Za-z0-9_-]+\/password)\}$/.exec((saved.settings.auth as { password: string }).password);
    expect(ref).not.toBeNull();
    const { id: moved } = await call('tree.rename', { project: projectDir, item: { kind: 'folder', id }, name: 'Safe' });
    const got = await sent(await requestIn(moved));
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from(`ops:${SECRET}`).toString('base64')}`);
    // Saved again with the reference as it is: the same keychain entry, no new one.
    const again = await call('folder.save', { project: projectDir, id: moved, settings: saved.settings });
    expect(again.settings.auth).toEqual(saved.settings.auth);
    expect(await allText(projectDir)).not.toContain(SECRET);
    expect(logs.join('\n')).not.toContain(SECRET);
    expect(JSON.stringify(await call('history.list', { project: projectDir }))).not.toContain(SECRET);
  });
});

async function allText(dir: string): Promise<string> {
  let out = '';
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}
