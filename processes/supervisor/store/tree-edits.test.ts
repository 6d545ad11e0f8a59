/**
 * Order and tree management in the store (issue 28): keys kept in each item's own file, an old
 * project's name order kept until something moves, and New folder, rename, delete with its
 * restore, duplicate and move, each one commit, ids (and with them History and open tabs) kept.
 */
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectStore } from './project-store.js';
import { PROJECT_PARENT } from './project-index.js';
import { examplesDirOf } from '../../../protocol/project/examples.js';
import { requestsInTreeOrder } from '../../../protocol/project/tree-order.js';
import { outline } from '../../../test/support/tree-outline.js';

const open: ProjectStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function openAt(dir: string, create = false): Promise<ProjectStore> {
  const store = await ProjectStore.open(dir, create ? { create: true, name: 'Order' } : {});
  open.push(store);
  return store;
}

async function newProject(): Promise<{ dir: string; store: ProjectStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-order-'));
  return { dir, store: await openAt(dir, true) };
}

/** Every file under `dir` with its text. */
async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name).slice(dir.length + 1), await readFile(join(e.parentPath, e.name), 'utf8'));
  }
  return out;
}

/** Paths whose text differs between two snapshots (added and removed ones too). */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k)).sort();
}

/** A project written before keys: an API with requests and a folder, no `order:` anywhere. */
async function oldProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-old-'));
  await writeFile(join(dir, 'parley.yaml'), 'version: 1\nname: Old\nproperties: []\n');
  const api = join(dir, 'apis', 'Shop');
  await mkdir(join(api, 'requests', 'Admin'), { recursive: true });
  await writeFile(join(api, 'api.yaml'), 'version: 1\nid: a_shop\nname: Shop\nbaseUrl: https://shop.example\nauth:\n  type: none\n');
  const request = (id: string, name: string) => `version: 1\nid: ${id}\nname: ${name}\nmethod: GET\nurl: /${id}\npathParams: []\nquery: []\nheaders: []\nbody:\n  kind: none\n  raw:\n    language: json\n    text: ""\n  form: []\n  multipart: []\n  binary:\n    file: ""\n    contentType: application/octet-stream\nauth:\n  type: inherit\nsettings:\n  sendCookies: false\n  timeoutMs: 30000\n  httpVersion: "1.1"\n`;
  await writeFile(join(api, 'requests', 'Login.request.yaml'), request('r_login', 'Login'));
  await writeFile(join(api, 'requests', 'Create order.request.yaml'), request('r_create', 'Create order'));
  await writeFile(join(api, 'requests', 'Fetch order.request.yaml'), request('r_fetch', 'Fetch order'));
  await writeFile(join(api, 'requests', 'Admin', 'Stats.request.yaml'), request('r_stats', 'Stats'));
  return dir;
}

describe('order kept in the project files', () => {
  it('an old project opens in its name order with nothing rewritten; moving one item rewrites only the files that must', async () => {
    const dir = await oldProject();
    const before = await files(dir);
    const store = await openAt(dir);
    expect(outline(store.tree())).toEqual(['<Shop>', '  [Admin]', '    Stats', '  Create order', '  Fetch order', '  Login']);
    await store.close();
    expect(changed(before, await files(dir))).toEqual([]);

    // Login to the end: only Login gets a key.
    const again = await openAt(dir);
    await again.edits.move([{ kind: 'request', id: 'r_login' }], { parent: 'a_shop', before: null });
    expect(changed(before, await files(dir))).toEqual(['apis/Shop/requests/Login.request.yaml']);
    expect(outline(again.tree())).toEqual(['<Shop>', '  [Admin]', '    Stats', '  Create order', '  Fetch order', '  Login']);
    // Login to the top: it and the items after it take keys; the folder before it keeps none.
    const beforeTop = await files(dir);
    await again.edits.move([{ kind: 'request', id: 'r_login' }], { parent: 'a_shop', before: 'r_create' });
    expect(outline(again.tree())).toEqual(['<Shop>', '  [Admin]', '    Stats', '  Login', '  Create order', '  Fetch order']);
    // (Login's new key happens to be the one it had: a0, with a1 and a2 after it.)
    expect(changed(beforeTop, await files(dir))).toEqual(['apis/Shop/requests/Create order.request.yaml', 'apis/Shop/requests/Fetch order.request.yaml']);
    expect(requestsInTreeOrder(again.tree()).map((r) => r.name)).toEqual(['Stats', 'Login', 'Create order', 'Fetch order']);
  });

  it('a move within a folder of keyed items rewrites the moved file alone, and the order survives a reopen', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const names = ['Login', 'Create order', 'Fetch order', 'Delete order'];
    const ids: string[] = [];
    for (const name of names) ids.push((await store.createRequest({ parent: api.id, name, method: 'GET', url: '/' })).id);
    expect(requestsInTreeOrder(store.tree()).map((r) => r.name)).toEqual(names);
    const before = await files(dir);
    await store.edits.move([{ kind: 'request', id: ids[3]! }], { parent: api.id, before: ids[1]! });
    expect(changed(before, await files(dir))).toEqual(['apis/Shop/requests/Delete order.request.yaml']);
    const diff = (await files(dir)).get('apis/Shop/requests/Delete order.request.yaml')!.split('\n').filter((l, i) => l !== before.get('apis/Shop/requests/Delete order.request.yaml')!.split('\n')[i]);
    expect(diff).toEqual([expect.stringMatching(/^order: a0[0-9A-Za-z]+$/)]);
    await store.close();
    const again = await openAt(dir);
    expect(requestsInTreeOrder(again.tree()).map((r) => r.name)).toEqual(['Login', 'Delete order', 'Create order', 'Fetch order']);
  });

  it('new items go last; Alt+Down-like moves step past one sibling; APIs keep a place among APIs', async () => {
    const { store } = await newProject();
    const zeta = await store.createApi({ name: 'Zeta', baseUrl: '' });
    const alpha = await store.createApi({ name: 'Alpha', baseUrl: '' });
    const folder = await store.edits.createFolder(zeta.id, 'Users');
    const login = await store.createRequest({ parent: zeta.id, name: 'Login', method: 'POST', url: '/login' });
    expect(outline(store.tree())).toEqual(['<Zeta>', '  [Users]', '  Login', '<Alpha>']);
    await store.edits.move([{ kind: 'request', id: login.id }], { parent: zeta.id, before: folder });
    await store.edits.move([{ kind: 'api', id: alpha.id }], { parent: PROJECT_PARENT, before: zeta.id });
    expect(outline(store.tree())).toEqual(['<Alpha>', '<Zeta>', '  Login', '  [Users]']);
    await expect(store.edits.move([{ kind: 'api', id: alpha.id }], { parent: zeta.id, before: null })).rejects.toMatchObject({ code: 'bad-input' });
  });
});

describe('tree edits', () => {
  it('an editor saving a copy from before a move keeps the moved place (the order is the tree\'s)', async () => {
    const { store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const first = await store.createRequest({ parent: api.id, name: 'First', method: 'GET', url: '/1' });
    const second = await store.createRequest({ parent: api.id, name: 'Second', method: 'GET', url: '/2' });
    const stale = store.getRequest(second.id);
    await store.edits.move([{ kind: 'request', id: second.id }], { parent: api.id, before: first.id });
    await store.saveRequest({ ...stale, url: '/2/edited' });
    expect(outline(store.tree())).toEqual(['<Shop>', '  Second', '  First']);
    const staleApi = store.getApi(api.id);
    const other = await store.createApi({ name: 'Other', baseUrl: '' });
    await store.edits.move([{ kind: 'api', id: other.id }], { parent: PROJECT_PARENT, before: api.id });
    await store.edits.move([{ kind: 'api', id: api.id }], { parent: PROJECT_PARENT, before: other.id });
    await store.saveApi({ ...staleApi, baseUrl: 'https://x.example' });
    expect(outline(store.tree())[0]).toBe('<Shop>');
  });

  it('New folder makes an empty folder that stays (folder.yaml), nested too', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const outer = await store.edits.createFolder(api.id, 'Orders');
    const inner = await store.edits.createFolder(outer, 'Refunds');
    expect(inner).toBe(`${api.id}/Orders/Refunds`);
    expect(await readFile(join(dir, 'apis/Shop/requests/Orders/Refunds/folder.yaml'), 'utf8')).toBe('version: 1\norder: a0\n');
    await store.close();
    expect(outline((await openAt(dir)).tree())).toEqual(['<Shop>', '  [Orders]', '    [Refunds]']);
  });

  it('a request moved into another folder and another API keeps its id and examples; the old folder goes when empty', async () => {
    const { dir, store } = await newProject();
    const shop = await store.createApi({ name: 'Shop', baseUrl: '' });
    const admin = await store.createApi({ name: 'Admin', baseUrl: '' });
    const request = await store.createRequest({ parent: `${shop.id}/Old`, name: 'Login', method: 'POST', url: '/login' });
    const examples = join(dir, 'apis/Shop/requests/Old/Login.examples');
    await mkdir(examples);
    await writeFile(join(examples, '200.example.yaml'), 'version: 1\nstatus: 200\n');
    await writeFile(join(examples, '200.body.json'), '{"token":"x"}');
    const target = await store.edits.createFolder(admin.id, 'Auth');
    const [moved] = await store.edits.move([{ kind: 'request', id: request.id }], { parent: target, before: null });
    expect(moved).toEqual({ from: request.id, to: request.id });
    expect(store.getRequest(request.id).name).toBe('Login');
    expect(store.apiOf(request.id).id).toBe(admin.id);
    const now = await files(dir);
    expect([...now.keys()].filter((k) => k.includes('Login')).sort()).toEqual([
      'apis/Admin/requests/Auth/Login.examples/200.body.json',
      'apis/Admin/requests/Auth/Login.examples/200.example.yaml',
      'apis/Admin/requests/Auth/Login.request.yaml',
    ]);
    expect(now.get('apis/Admin/requests/Auth/Login.examples/200.body.json')).toBe('{"token":"x"}');
    expect(outline(store.tree())).toEqual(['<Shop>', '<Admin>', '  [Auth]', '    Login']);
    await store.close();
    expect(outline((await openAt(dir)).tree())).toEqual(['<Shop>', '<Admin>', '  [Auth]', '    Login']);
  });

  it('a folder moves (and renames) with everything in it, ids kept; never into itself', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const orders = await store.edits.createFolder(api.id, 'Orders');
    const inner = await store.createRequest({ parent: `${api.id}/Orders/Items`, name: 'List items', method: 'GET', url: '/items' });
    const archive = await store.edits.createFolder(api.id, 'Archive');
    await expect(store.edits.move([{ kind: 'folder', id: orders }], { parent: `${api.id}/Orders/Items`, before: null })).rejects.toMatchObject({ code: 'bad-input' });
    const [moved] = await store.edits.move([{ kind: 'folder', id: orders }], { parent: archive, before: null });
    expect(moved).toEqual({ from: orders, to: `${api.id}/Archive/Orders` });
    expect(outline(store.tree())).toEqual(['<Shop>', '  [Archive]', '    [Orders]', '      [Items]', '        List items']);
    const renamed = await store.edits.renameFolder(`${api.id}/Archive`, 'Old orders');
    expect(renamed).toBe(`${api.id}/Old orders`);
    expect(store.getRequest(inner.id).url).toBe('/items');
    expect(store.requestFile(inner.id)).toBe(join(dir, 'apis/Shop/requests/Old orders/Orders/Items/List items.request.yaml'));
    await expect(store.edits.createFolder(api.id, 'Other').then((id) => store.edits.renameFolder(id, 'Old orders'))).rejects.toMatchObject({ code: 'conflict' });
    await store.close();
    expect(outline((await openAt(dir)).tree())).toEqual(['<Shop>', '  [Old orders]', '    [Orders]', '      [Items]', '        List items', '  [Other]']);
  });

  it('a delete takes a folder with everything in it, and restore puts back every byte', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const kept = await store.createRequest({ parent: api.id, name: 'Kept', method: 'GET', url: '/' });
    const folder = await store.edits.createFolder(api.id, 'Orders');
    const gone = await store.createRequest({ parent: folder, name: 'Create', method: 'POST', url: '/orders' });
    await writeFile(store.requestFile(gone.id), (await readFile(store.requestFile(gone.id), 'utf8')) + '# a comment by hand\n');
    await mkdir(join(dir, 'apis/Shop/requests/Orders/Create.examples'));
    await writeFile(join(dir, 'apis/Shop/requests/Orders/Create.examples/201.body.bin'), new Uint8Array([0, 255, 7]));
    await store.close();
    const reopened = await openAt(dir);
    const before = await files(dir);
    const removed = await reopened.edits.delete([{ kind: 'folder', id: folder }, { kind: 'request', id: gone.id }]);
    expect(removed.files.map((f) => f.path.slice(dir.length + 1))).toEqual(['apis/Shop/requests/Orders/Create.examples/201.body.bin', 'apis/Shop/requests/Orders/Create.request.yaml', 'apis/Shop/requests/Orders/folder.yaml']);
    expect(outline(reopened.tree())).toEqual(['<Shop>', '  Kept']);
    expect(await readdir(join(dir, 'apis/Shop/requests'))).toEqual(['Kept.request.yaml']);
    await reopened.edits.restore(removed);
    expect(changed(before, await files(dir))).toEqual([]);
    expect(new Uint8Array(await readFile(join(dir, 'apis/Shop/requests/Orders/Create.examples/201.body.bin')))).toEqual(new Uint8Array([0, 255, 7]));
    expect(outline(reopened.tree())).toEqual(['<Shop>', '  Kept', '  [Orders]', '    Create']);
    expect(reopened.getRequest(gone.id).name).toBe('Create');
    expect(reopened.getRequest(kept.id).name).toBe('Kept');
    // Made again meanwhile: nothing is put back.
    const second = await reopened.edits.delete([{ kind: 'request', id: gone.id }]);
    await reopened.createRequest({ parent: folder, name: 'Create', method: 'GET', url: '/' });
    await expect(reopened.edits.restore(second)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('an API deleted and restored comes back with its definition and requests', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: 'https://shop.example' });
    await store.createRequest({ parent: api.id, name: 'Login', method: 'POST', url: '/login' });
    await store.commit([{ path: join(dir, 'apis/Shop/definition/openapi.yaml'), content: 'openapi: 3.1.0\n' }]);
    const before = await files(dir);
    const removed = await store.edits.delete([{ kind: 'api', id: api.id }]);
    expect(store.listApis()).toEqual([]);
    expect(await readdir(join(dir, 'apis'))).toEqual([]);
    await store.edits.restore(removed);
    expect(changed(before, await files(dir))).toEqual([]);
    expect(outline(store.tree())).toEqual(['<Shop>', '  Login']);
  });

  it('duplicates a request right after it, and a folder with new ids for what it holds', async () => {
    const { store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const login = await store.createRequest({ parent: api.id, name: 'Login', method: 'POST', url: '/login' });
    await store.createRequest({ parent: api.id, name: 'Logout', method: 'POST', url: '/logout' });
    // Examples as a save writes them, beside the request: a copy carries them.
    const example = 'version: 1\nstatus: 200\nstatusText: OK\nname: OK\nrecordedAt: 2025-01-02T03:04:05.000Z\nheaders: []\nbody: 200.body.json\nsize: 8\n';
    const loginExamples = examplesDirOf(store.requestFile(login.id));
    await mkdir(loginExamples, { recursive: true });
    await writeFile(join(loginExamples, '200.example.yaml'), example);
    await writeFile(join(loginExamples, '200.body.json'), '{"ok":1}');
    const copy = await store.edits.duplicate({ kind: 'request', id: login.id });
    expect(copy).not.toBe(login.id);
    const copyExamples = examplesDirOf(store.requestFile(copy));
    await expect(readFile(join(copyExamples, '200.example.yaml'), 'utf8')).resolves.toBe(example);
    await expect(readFile(join(copyExamples, '200.body.json'), 'utf8')).resolves.toBe('{"ok":1}');
    await expect(readFile(join(loginExamples, '200.body.json'), 'utf8')).resolves.toBe('{"ok":1}');
    const folder = await store.edits.createFolder(api.id, 'Orders');
    const inside = await store.createRequest({ parent: folder, name: 'Create', method: 'POST', url: '/orders' });
    const insideExamples = examplesDirOf(store.requestFile(inside.id));
    await mkdir(insideExamples, { recursive: true });
    await writeFile(join(insideExamples, '200.example.yaml'), example);
    await writeFile(join(insideExamples, '200.body.json'), '{"ok":2}');
    const folderCopy = await store.edits.duplicate({ kind: 'folder', id: folder });
    expect(outline(store.tree())).toEqual(['<Shop>', '  Login', '  Login copy', '  Logout', '  [Orders]', '    Create', '  [Orders copy]', '    Create']);
    const ids = store.tree().items.filter((i) => i.kind === 'request' && i.parent === folderCopy).map((i) => i.id);
    expect(ids).toHaveLength(1);
    expect(ids[0]).not.toBe(inside.id);
    await expect(readFile(join(examplesDirOf(store.requestFile(ids[0]!)), '200.body.json'), 'utf8')).resolves.toBe('{"ok":2}');
  });

  it('renames an API, a request and the project in their files', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const login = await store.createRequest({ parent: api.id, name: 'Login', method: 'POST', url: '/login' });
    await store.edits.renameApi(api.id, 'Store');
    await store.edits.renameRequest(login.id, 'Sign in');
    await store.edits.renameProject('Renamed');
    expect(outline(store.tree())).toEqual(['<Store>', '  Sign in']);
    expect(store.name).toBe('Renamed');
    expect(await readFile(join(dir, 'parley.yaml'), 'utf8')).toContain('name: Renamed');
    await expect(store.edits.renameApi(api.id, '  ')).rejects.toMatchObject({ code: 'bad-input' });
  });
});

describe('folder settings in folder.yaml', () => {
  const auth = { type: 'bearer' as const, token: '${secret:folder/f_orig/token}' };
  const headers = [{ name: 'X-Team', value: 'orders', enabled: true }];
  const variables = [{ name: 'region', value: 'eu', enabled: false }];

  it('are kept beside the place and the comments of the file, through a move, a rename and a reopen', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const orders = await store.edits.createFolder(api.id, 'Orders');
    const path = join(dir, 'apis/Shop/requests/Orders/folder.yaml');
    await store.commit([{ path, content: `# the team's folder\n${await readFile(path, 'utf8')}` }]);
    await store.saveFolder(orders, { auth, headers, variables }, 'f_orig');
    const text = await readFile(path, 'utf8');
    expect(text).toMatch(/^# the team's folder\n/);
    expect(text).toMatch(/^order: a0$/m);
    const archive = await store.edits.createFolder(api.id, 'Archive');
    const [moved] = await store.edits.move([{ kind: 'folder', id: orders }], { parent: archive, before: null });
    const renamed = await store.edits.renameFolder(moved!.to, 'Old orders');
    await store.close();
    const reopened = await openAt(dir);
    expect(reopened.getFolder(renamed)).toEqual({ name: 'Old orders', settings: { auth, headers, variables }, secretId: 'f_orig' });
    expect(await readFile(join(dir, 'apis/Shop/requests/Archive/Old orders/folder.yaml'), 'utf8')).toMatch(/^# the team's folder\n/);
    // Cleared settings leave the file as it was before them: its place only.
    await reopened.saveFolder(renamed, { auth: { type: 'inherit' }, headers: [], variables: [] });
    expect(await readFile(join(dir, 'apis/Shop/requests/Archive/Old orders/folder.yaml'), 'utf8')).toBe(`# the team's folder\nversion: 1\norder: a0\nid: f_orig\n`);
  });

  it('a duplicate keeps the settings and leaves out the keychain id, nested folders too', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const orders = await store.edits.createFolder(api.id, 'Orders');
    const inner = await store.edits.createFolder(orders, 'Drafts');
    await store.saveFolder(orders, { auth, headers, variables }, 'f_orig');
    await store.saveFolder(inner, { auth, headers: [], variables: [] }, 'f_inner');
    const copy = await store.edits.duplicate({ kind: 'folder', id: orders });
    expect(store.getFolder(copy)).toEqual({ name: 'Orders copy', settings: { auth, headers, variables } });
    expect(store.getFolder(`${copy}/Drafts`)).toEqual({ name: 'Drafts', settings: { auth, headers: [], variables: [] } });
    expect(await readFile(join(dir, 'apis/Shop/requests/Orders copy/folder.yaml'), 'utf8')).not.toContain('id:');
    expect(store.getFolder(orders).secretId).toBe('f_orig');
  });

  it('a folder.yaml whose settings break the schema is a problem of that file, and is not saved over; a broken value is not saved', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const orders = await store.edits.createFolder(api.id, 'Orders');
    await store.createRequest({ parent: orders, name: 'List', method: 'GET', url: '/orders' });
    await writeFile(join(dir, 'apis/Shop/requests/Orders/folder.yaml'), 'version: 1\nauth:\n  type: bearer\n');
    await store.close();
    const reopened = await openAt(dir);
    expect(reopened.tree().problems).toContainEqual(expect.objectContaining({ file: 'apis/Shop/requests/Orders/folder.yaml', rule: 'schema' }));
    await expect(reopened.saveFolder(orders, { auth: { type: 'none' }, headers: [], variables: [] })).rejects.toMatchObject({ code: 'conflict' });
    // A value the load would refuse is never written.
    const other = await reopened.edits.createFolder(api.id, 'Other');
    await expect(reopened.saveFolder(other, { auth: { type: 'bearer' } as never, headers: [], variables: [] })).rejects.toMatchObject({ code: 'schema-violation', message: expect.stringContaining('/auth') });
  });
});
