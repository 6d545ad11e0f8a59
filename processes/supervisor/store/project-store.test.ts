import { mkdtemp, readFile, writeFile, mkdir, readdir, rename, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { asHttp } from '../../../protocol/kinds/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectStore } from './project-store.js';
import { nodeFs, type FsOps } from './atomic.js';
import { blankRequest } from '../../../protocol/model/request.js';
import { fileNameKey } from '../../../protocol/project/file-names.js';
import { until } from '../../../test/support/until.js';

const open: ProjectStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function newProject(): Promise<{ dir: string; store: ProjectStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-project-'));
  const store = await ProjectStore.open(dir, { create: true, name: 'Test' });
  open.push(store);
  return { dir, store };
}

describe('ProjectStore', () => {
  it('creates, saves and reloads APIs, folders and requests', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Payments', baseUrl: 'https://pay.example' });
    const request = await store.createRequest({ parent: `${api.id}/cards/refunds`, name: 'Refund', method: 'post', url: '/refunds' });
    expect(request.method).toBe('POST');
    const again = await ProjectStore.open(dir);
    open.push(again);
    const tree = again.tree();
    expect(tree.items.map((i) => `${i.kind}:${i.name}`)).toEqual(['api:Payments', 'folder:cards', 'folder:refunds', 'request:Refund']);
    expect(again.getRequest(request.id).url).toBe('/refunds');
  });

  it('writes a request with assertions as version 2 and one without as version 1, and reads both as written', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const plain = await store.createRequest({ parent: api.id, name: 'Plain', method: 'GET', url: '/a' });
    expect(plain.version).toBe(1);
    const asserted = await store.saveRequest({ ...plain, assertions: [{ enabled: true, source: 'status', path: '', op: 'equals', value: '200' }] });
    const file = join(dir, 'apis', 'A', 'requests', 'Plain.request.yaml');
    expect(await readFile(file, 'utf8')).toMatch(/^version: 2\n[\s\S]*assertions:\n {2}- enabled: true\n/);
    expect(asserted).toMatchObject({ version: 2, assertions: [{ op: 'equals', value: '200' }] });
    const again = await ProjectStore.open(dir);
    open.push(again);
    expect(again.getRequest(plain.id)).toMatchObject({ version: 2, assertions: [{ source: 'status' }] });
    const cleared = await store.saveRequest({ ...asserted, assertions: [] });
    expect(cleared.version).toBe(1);
    expect(cleared.assertions).toBeUndefined();
    expect(await readFile(file, 'utf8')).toMatch(/^version: 1\n/);
    expect(await readFile(file, 'utf8')).not.toContain('assertions');
  });

  it('writes a request with captures as version 3, reads version 1 and 2 files as they were (migrated to 3), and goes back down when its captures are gone', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const login = await store.createRequest({ parent: api.id, name: 'Login', method: 'POST', url: '/login' });
    const file = join(dir, 'apis', 'A', 'requests', 'Login.request.yaml');
    const assertions = [{ enabled: true, source: 'status' as const, path: '', op: 'equals' as const, value: '200' }];
    const captures = [{ enabled: true, name: 'token', source: 'jsonpath' as const, expression: '$.token', scope: 'session' as const }];
    const captured = await store.saveRequest({ ...login, assertions, captures });
    expect(captured).toMatchObject({ version: 3, captures });
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^version: 3\n/);
    expect(text).toContain('captures:\n  - enabled: true\n    name: token\n    source: jsonpath\n    expression: $.token\n    scope: session\n');
    // Written by the release before captures: a version 2 file with assertions, read as it was.
    await writeFile(file, text.replace(/^version: 3\n/, 'version: 2\n').replace(/captures:\n(?: {2}.*\n| {4}.*\n)+/, ''));
    const older = await ProjectStore.open(dir);
    open.push(older);
    expect(older.tree().problems).toEqual([]);
    expect(older.getRequest(login.id)).toMatchObject({ version: 2, assertions });
    expect(asHttp(older.getRequest(login.id), 'test').captures).toBeUndefined();
    const cleared = await older.saveRequest({ ...asHttp(older.getRequest(login.id), 'test'), captures: [] });
    expect(cleared.version).toBe(2);
    expect(await readFile(file, 'utf8')).not.toContain('captures');
    // A file newer than this release is refused, not read without what it holds.
    await writeFile(file, text.replace(/^version: 3\n/, 'version: 5\n'));
    const newer = await ProjectStore.open(dir);
    open.push(newer);
    expect(newer.tree().problems).toMatchObject([{ rule: 'version-too-new' }]);
  });

  it('saves a typed multi-line body as a literal block, one line per line, and reads it back exact on a reopen', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const created = await store.createRequest({ parent: api.id, name: 'Post', method: 'POST', url: '/a' });
    const file = join(dir, 'apis', 'A', 'requests', 'Post.request.yaml');
    expect(await readFile(file, 'utf8')).toContain('text: ""');
    const text = '{\n  "a": 1,\n\t"b": "${user}",\n  "c": "# not a comment"\n}\n';
    const saved = asHttp(await store.saveRequest({ ...created, body: { ...created.body, kind: 'raw', raw: { language: 'json', text } } }), 'test');
    expect(saved.body.raw.text).toBe(text);
    expect(await readFile(file, 'utf8')).toContain('    text: |\n      {\n        "a": 1,\n      \t"b": "${user}",\n        "c": "# not a comment"\n      }\n');
    const again = await ProjectStore.open(dir);
    open.push(again);
    expect(asHttp(again.getRequest(created.id), 'test').body.raw.text).toBe(text);
    // CRLF text cannot be a block: it is a quoted string, read back exact.
    const crlf = 'a\r\nb\r\n';
    await store.saveRequest({ ...saved, body: { ...saved.body, raw: { language: 'text', text: crlf } } });
    expect(await readFile(file, 'utf8')).toContain('text: "a\\r\\nb\\r\\n"');
    const third = await ProjectStore.open(dir);
    open.push(third);
    expect(asHttp(third.getRequest(created.id), 'test').body.raw.text).toBe(crlf);
  });

  it('reports the file, the line and the rule of a broken file and loads the rest', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    await store.createRequest({ parent: api.id, name: 'Good', method: 'GET', url: '/ok' });
    const folder = join(dir, 'apis', 'A', 'requests');
    await writeFile(join(folder, 'bad.request.yaml'), 'version: 1\nid: r_bad\nname: Bad\nmethod: GET\nurl: 42\n');
    await writeFile(join(folder, 'syntax.request.yaml'), 'version: 1\nname: [unclosed\n');
    await writeFile(join(folder, 'future.request.yaml'), 'version: 7\nid: r_f\n');
    const again = await ProjectStore.open(dir);
    open.push(again);
    const tree = again.tree();
    expect(tree.items.filter((i) => i.kind === 'request').map((i) => i.name)).toEqual(['Good']);
    const byFile = Object.fromEntries(tree.problems.map((p) => [p.file.split('/').pop(), p]));
    expect(byFile['bad.request.yaml']).toMatchObject({ rule: 'schema', line: expect.any(Number) });
    expect(byFile['syntax.request.yaml']).toMatchObject({ rule: 'yaml-syntax' });
    expect(byFile['syntax.request.yaml']!.line).toBeGreaterThanOrEqual(2);
    expect(byFile['future.request.yaml']).toMatchObject({ rule: 'version-too-new', line: 1 });
    expect(byFile['future.request.yaml']!.message).toContain('reads up to version 4');
  });

  it('names the line of the offending key', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const r = await store.createRequest({ parent: api.id, name: 'R', method: 'GET', url: '/x' });
    const file = join(dir, 'apis', 'A', 'requests', 'R.request.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('timeoutMs: 30000', 'timeoutMs: soon'));
    const again = await ProjectStore.open(dir);
    open.push(again);
    const problem = again.tree().problems[0]!;
    const expectedLine = text.split('\n').findIndex((l) => l.includes('timeoutMs')) + 1;
    expect(problem).toMatchObject({ rule: 'schema', line: expectedLine });
    expect(problem.message).toContain('/settings/timeoutMs');
    expect(() => again.getRequest(r.id)).toThrow(/No request/);
  });

  it('refuses to make a project of a file, saying so, and leaves the file as it was', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parley-project-')), 'notes.txt');
    await writeFile(file, 'mine');
    await expect(ProjectStore.open(file, { create: true })).rejects.toThrow(`${file} is a file, not a folder`);
    expect(await readFile(file, 'utf8')).toBe('mine');
  });

  it('refuses folder names that escape the project', async () => {
    const { store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    await expect(store.createRequest({ parent: `${api.id}/../../x`, name: 'R', method: 'GET', url: '' })).rejects.toMatchObject({ code: 'path-escape' });
  });

  it('keeps comments and key order of a hand-edited file when saving', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const r = await store.createRequest({ parent: api.id, name: 'R', method: 'GET', url: '/x' });
    const file = join(dir, 'apis', 'A', 'requests', 'R.request.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, `# owned by the payments team\n${text.replace('url: /x', 'url: /x # the path')}`);
    await until(() => store.getRequest(r.id) && true);
    const again = await ProjectStore.open(dir);
    open.push(again);
    await again.saveRequest({ ...again.getRequest(r.id), name: 'Renamed' });
    const saved = await readFile(file, 'utf8');
    expect(saved.startsWith('# owned by the payments team\n')).toBe(true);
    expect(saved).toContain('url: /x # the path');
    expect(saved).toContain('name: Renamed');
  });

  it('picks up external edits without a restart', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const r = await store.createRequest({ parent: api.id, name: 'R', method: 'GET', url: '/x' });
    const changes: string[][] = [];
    await store.watch((ids) => changes.push(ids));
    const file = join(dir, 'apis', 'A', 'requests', 'R.request.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('url: /x', 'url: /edited'));
    await until(() => store.getRequest(r.id).url === '/edited');
    expect(changes.flat()).toContain(r.id);
    await mkdir(join(dir, 'apis', 'A', 'requests', 'new-folder'));
    await writeFile(join(dir, 'apis', 'A', 'requests', 'new-folder', 'n.request.yaml'), (await readFile(file, 'utf8')).replace(r.id, 'r_external').replace('name: R', 'name: External'));
    await until(() => store.tree().items.find((i) => i.name === 'External'));
    // A folder moved out in one step (no event per file) takes its requests with it.
    await rename(join(dir, 'apis', 'A', 'requests', 'new-folder'), join(dir, '..', `${basename(dir)}-moved-out`));
    await until(() => !store.tree().items.some((i) => i.name === 'External'));
    expect(store.getRequest(r.id).url).toBe('/edited');
  });

  it('holds a request as its text: asked for, it is parsed from the text it was last read from, a broken outside edit keeps the last good one', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const r = await store.createRequest({ parent: api.id, name: 'R', method: 'GET', url: '/x' });
    const first = store.getRequest(r.id);
    // The last few asked for are kept: asked again, the same object.
    expect(store.getRequest(r.id)).toBe(first);
    await store.saveRequest({ ...first, url: '/saved' });
    expect(store.getRequest(r.id).url).toBe('/saved');
    await store.watch(() => {});
    const file = join(dir, 'apis', 'A', 'requests', 'R.request.yaml');
    await writeFile(file, 'version: 1\nid: [not, an, id\n');
    await until(() => store.tree().problems.length > 0);
    expect(store.getRequest(r.id)).toMatchObject({ name: 'R', url: '/saved' });
    expect(store.tree().items).toContainEqual(expect.objectContaining({ kind: 'request', id: r.id, name: 'R', method: 'GET' }));
    await expect(store.saveRequest({ ...first, url: '/over-the-broken-file' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('reports an outside edit that lands between a save\'s write and its read-back (the read would make it look like ours)', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const r = await store.createRequest({ parent: api.id, name: 'R', method: 'GET', url: '/x' });
    await store.close();
    const file = join(dir, 'apis', 'A', 'requests', 'R.request.yaml');
    let editOnce = true;
    const racing: FsOps = {
      ...nodeFs,
      rename: async (from, to) => {
        await nodeFs.rename(from, to);
        if (to === file && editOnce) {
          editOnce = false;
          await writeFile(file, (await readFile(file, 'utf8')).replace('url: /saved', 'url: /edited-outside'));
        }
      },
    };
    const racy = await ProjectStore.open(dir, { fs: racing });
    open.push(racy);
    const changes: string[][] = [];
    await racy.watch((ids) => changes.push(ids));
    // The save reads back the text it wrote, not the disk: the outside edit is never taken for
    // ours, and the watcher reports it like any other edit made outside.
    await racy.saveRequest({ ...racy.getRequest(r.id), url: '/saved' });
    await until(() => changes.flat().includes(r.id));
    expect(racy.getRequest(r.id).url).toBe('/edited-outside');
  });

  it('a closed store never starts watching (a late watcher kept `parley update-definition` from exiting)', async () => {
    const { dir, store } = await newProject();
    await store.close();
    const changes: string[][] = [];
    await store.watch((ids) => changes.push(ids));
    await writeFile(join(dir, 'parley.yaml'), (await readFile(join(dir, 'parley.yaml'), 'utf8')).replace(/name: .*/, 'name: Edited'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toEqual([]);
    expect(store.name).not.toBe('Edited');
  });

  it('does not read a project file that is a symbolic link out of the folder', async () => {
    const { dir, store } = await newProject();
    await store.createApi({ name: 'A', baseUrl: 'https://inside.example' });
    await store.close();
    const outside = join(await mkdtemp(join(tmpdir(), 'parley-outside-')), 'api.yaml');
    await writeFile(outside, (await readFile(join(dir, 'apis', 'A', 'api.yaml'), 'utf8')).replace('inside', 'outside'));
    await unlink(join(dir, 'apis', 'A', 'api.yaml'));
    await symlink(outside, join(dir, 'apis', 'A', 'api.yaml'));
    const again = await ProjectStore.open(dir);
    open.push(again);
    expect(again.listApis()).toEqual([]);
    expect(again.tree().problems).toEqual([{ file: 'apis/A/api.yaml', rule: 'path-escape', message: expect.stringContaining('through a symbolic link') }]);
  });

  it('a failed save leaves the files and the loaded request exactly as they were', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const r = await store.createRequest({ parent: api.id, name: 'R', method: 'GET', url: '/x' });
    const file = join(dir, 'apis', 'A', 'requests', 'R.request.yaml');
    const before = await readFile(file, 'utf8');
    const broken: FsOps = { ...nodeFs, rename: async () => Promise.reject(Object.assign(new Error('disk full'), { code: 'ENOSPC' })) };
    const fragile = await ProjectStore.open(dir, { fs: broken });
    open.push(fragile);
    await expect(fragile.saveRequest({ ...fragile.getRequest(r.id), url: '/changed' })).rejects.toMatchObject({ code: 'save-failed' });
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(fragile.getRequest(r.id).url).toBe('/x');
    expect((await readdir(join(dir, 'apis', 'A', 'requests'))).sort()).toEqual(['R.request.yaml']);
  });
});

describe('file names made from names', () => {
  const requestFiles = async (dir: string) => (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.request.yaml')).sort();

  it('gives requests named Pets and pets in one folder two files that do not clash on a case-insensitive disk', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    const upper = await store.createRequest({ parent: api.id, name: 'Pets', method: 'GET', url: '/a' });
    const lower = await store.createRequest({ parent: api.id, name: 'pets', method: 'GET', url: '/b' });
    const files = await requestFiles(join(dir, 'apis', 'Shop', 'requests'));
    expect(files).toEqual(['Pets.request.yaml', 'pets 2.request.yaml']);
    expect(new Set(files.map(fileNameKey)).size).toBe(2);
    const again = await ProjectStore.open(dir);
    open.push(again);
    expect([again.getRequest(upper.id).name, again.getRequest(lower.id).name]).toEqual(['Pets', 'pets']);
  });

  it('keeps names apart that differ only in Unicode normalisation, and two creates queued at once', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    await Promise.all([
      store.createRequest({ parent: api.id, name: 'Caf\u00e9', method: 'GET', url: '/a' }),
      store.createRequest({ parent: api.id, name: 'Cafe\u0301', method: 'GET', url: '/b' }),
      store.createRequest({ parent: api.id, name: 'New request', method: 'GET', url: '/c' }),
      store.createRequest({ parent: api.id, name: 'New request', method: 'GET', url: '/d' }),
    ]);
    const files = await requestFiles(join(dir, 'apis', 'Shop', 'requests'));
    expect(files).toEqual(['Caf\u00e9 2.request.yaml', 'Caf\u00e9.request.yaml', 'New request 2.request.yaml', 'New request.request.yaml']);
    // Names that sort as equal go by code units (the page applying a delta places them alike).
    expect(store.tree().items.filter((i) => i.kind === 'request').map((i) => i.name)).toEqual(['Cafe\u0301', 'Caf\u00e9', 'New request', 'New request']);
  });

  it('never names a file or folder after a Windows device, and keeps the name the user typed', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'NUL', baseUrl: '' });
    const con = await store.createRequest({ parent: api.id, name: 'CON', method: 'GET', url: '/a' });
    await store.createRequest({ parent: `${api.id}/aux`, name: 'com1.txt', method: 'GET', url: '/b' });
    await store.createRequest({ parent: api.id, name: 'a:b?. ', method: 'GET', url: '/c' });
    expect(await readdir(join(dir, 'apis'))).toEqual(['NUL_']);
    expect(await requestFiles(join(dir, 'apis', 'NUL_', 'requests'))).toEqual(['CON_.request.yaml', 'a-b-.request.yaml', 'aux_/com1_.txt.request.yaml']);
    expect(store.getRequest(con.id).name).toBe('CON');
    expect(store.getApi(api.id).name).toBe('NUL');
    expect(store.tree().items.filter((i) => i.kind === 'folder').map((i) => i.name)).toEqual(['aux_']);
  });

  it('puts folders differing only in case apart within one batch, and reuses a folder that exists by its exact name', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'Shop', baseUrl: '' });
    await store.createRequest({ parent: `${api.id}/Pets`, name: 'List', method: 'GET', url: '/pets' });
    const claims = store.nameClaims();
    const request = (id: string, name: string) => blankRequest({ id, name, method: 'GET', url: `/${id}` });
    await store.commit([
      store.newRequestChange(api.id, 'Pets', request('r_1', 'Add'), claims),
      store.newRequestChange(api.id, 'pets', request('r_2', 'Add'), claims),
      store.newRequestChange(api.id, 'pets/Cats', request('r_3', 'List'), claims),
      store.newRequestChange(api.id, 'pets/cats', request('r_4', 'List'), claims),
    ]);
    expect(await requestFiles(join(dir, 'apis', 'Shop', 'requests'))).toEqual([
      'Pets/Add.request.yaml',
      'Pets/List.request.yaml',
      'pets 2/Add.request.yaml',
      'pets 2/Cats/List.request.yaml',
      'pets 2/cats 2/List.request.yaml',
    ]);
  });

  it('keeps loading and saving a project whose files already have names Windows refuses', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    const r = await store.createRequest({ parent: api.id, name: 'R', method: 'GET', url: '/x' });
    await store.close();
    await rename(join(dir, 'apis', 'A'), join(dir, 'apis', 'aux'));
    await mkdir(join(dir, 'apis', 'aux', 'requests', 'CON'));
    await rename(join(dir, 'apis', 'aux', 'requests', 'R.request.yaml'), join(dir, 'apis', 'aux', 'requests', 'CON', 'nul.request.yaml'));
    const again = await ProjectStore.open(dir);
    open.push(again);
    expect(again.tree().problems).toEqual([]);
    await again.saveRequest({ ...again.getRequest(r.id), url: '/saved' });
    await again.createRequest({ parent: `${api.id}/CON`, name: 'More', method: 'GET', url: '/more' });
    expect(await requestFiles(join(dir, 'apis', 'aux', 'requests'))).toEqual(['CON/More.request.yaml', 'CON/nul.request.yaml']);
  });
});
