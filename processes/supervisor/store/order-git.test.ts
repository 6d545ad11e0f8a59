/**
 * The order in git (issue 28): keys live in each item's own file, so two people who each add a
 * request to one folder merge without a conflict and both requests show, in a stable order; a
 * move is a one-line change of the moved file, and checking out the files of another commit
 * brings back that commit's order, on reopen and in a project open meanwhile.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { requestsInTreeOrder } from '../../../protocol/project/tree-order.js';
import { until } from '../../../test/support/until.js';
import { ProjectStore } from './project-store.js';

const run = promisify(execFile);
const dirs: string[] = [];
const open: ProjectStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** git in `dir`, with an identity and no user or system configuration read. */
async function git(dir: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.invalid' };
  const { stdout } = await run('git', ['-c', 'init.defaultBranch=main', '-c', 'core.autocrlf=false', ...args], { cwd: dir, env, timeout: 30_000 });
  return stdout;
}

async function openAt(dir: string, create = false): Promise<ProjectStore> {
  const store = await ProjectStore.open(dir, create ? { create: true, name: 'Shop' } : {});
  open.push(store);
  return store;
}

const names = (store: ProjectStore) => requestsInTreeOrder(store.tree()).map((r) => r.name);

/** A project in a git repository: an API with a folder of two requests, committed on main. */
async function repo(): Promise<{ dir: string; apiId: string; folder: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-order-git-'));
  dirs.push(dir);
  const store = await openAt(dir, true);
  const api = await store.createApi({ name: 'Shop', baseUrl: '' });
  const folder = await store.edits.createFolder(api.id, 'Orders');
  await store.createRequest({ parent: folder, name: 'Login', method: 'POST', url: '/login' });
  await store.createRequest({ parent: folder, name: 'Create order', method: 'POST', url: '/orders' });
  await store.close();
  await git(dir, 'init', '-q');
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-qm', 'start');
  return { dir, apiId: api.id, folder };
}

describe('order in git', () => {
  it('two branches that each add a request to one folder merge without a conflict, both shown in a stable order', async () => {
    const { dir, folder } = await repo();
    await git(dir, 'checkout', '-qb', 'alice');
    let store = await openAt(dir);
    await store.createRequest({ parent: folder, name: 'Zeta report', method: 'GET', url: '/z' });
    await store.close();
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-qm', 'alice adds');
    await git(dir, 'checkout', '-q', 'main');
    await git(dir, 'checkout', '-qb', 'bob');
    store = await openAt(dir);
    await store.createRequest({ parent: folder, name: 'Audit', method: 'GET', url: '/a' });
    await store.close();
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-qm', 'bob adds');
    // Each added a file of its own and changed no shared one: the merge cannot conflict.
    await git(dir, 'merge', '-q', '--no-edit', 'alice');
    expect(await git(dir, 'status', '--porcelain')).toBe('');
    store = await openAt(dir);
    // Both appended after Create order with the same key: name breaks the tie, the same for everyone.
    expect(names(store)).toEqual(['Login', 'Create order', 'Audit', 'Zeta report']);
    await store.close();
    expect(names(await openAt(dir))).toEqual(['Login', 'Create order', 'Audit', 'Zeta report']);
  });

  it('a move is one line of the moved file; checking out the files of either commit brings its order back', async () => {
    const { dir, folder } = await repo();
    const store = await openAt(dir);
    const create = requestsInTreeOrder(store.tree()).find((r) => r.name === 'Create order')!;
    const login = requestsInTreeOrder(store.tree()).find((r) => r.name === 'Login')!;
    await store.edits.move([{ kind: 'request', id: create.id }], { parent: folder, before: login.id });
    expect(names(store)).toEqual(['Create order', 'Login']);
    const diff = await git(dir, 'diff', '--numstat');
    expect(diff.trim().split('\n')).toEqual(['1\t1\tapis/Shop/requests/Orders/Create order.request.yaml']);
    await git(dir, 'commit', '-qam', 'move');

    // The open project follows a checkout of the moved file (the watcher reads it back).
    await store.watch(() => {});
    await git(dir, 'checkout', 'HEAD~1', '--', 'apis');
    await until(() => names(store).join() === 'Login,Create order', 10_000, () => `the tree shows ${names(store).join(', ')}`);
    await git(dir, 'checkout', 'HEAD', '--', 'apis');
    await until(() => names(store).join() === 'Create order,Login', 10_000, () => `the tree shows ${names(store).join(', ')}`);
    await store.close();
    expect(names(await openAt(dir))).toEqual(['Create order', 'Login']);
  });
});
