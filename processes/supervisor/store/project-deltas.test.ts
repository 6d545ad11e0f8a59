/**
 * A save broadcasts what it changed in the tree, not the tree: the deltas a store gives, applied
 * to the tree a page held before (protocol/project/tree-delta.ts, as the page applies them), make
 * exactly the tree the store holds after, for every kind of change; a one-request save of a big
 * project is a delta of that one row.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectStore } from './project-store.js';
import { DELTA_ITEMS } from './project-index.js';
import { blankRequest } from '../../../protocol/model/request.js';
import type { ProjectTree } from '../../../protocol/model/project.js';
import { applyTreeDelta } from '../../../protocol/project/tree-delta.js';
import { encode } from '../../../protocol/codec.js';
import { until } from '../../../test/support/until.js';

const open: ProjectStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function newProject(): Promise<{ dir: string; store: ProjectStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-deltas-'));
  const store = await ProjectStore.open(dir, { create: true, name: 'Deltas' });
  open.push(store);
  return { dir, store };
}

/** The page's side: the tree it holds, with every delta the store gives applied in order. */
function follow(store: ProjectStore): { tree: () => ProjectTree; catchUp: () => number } {
  let held = store.tree();
  return {
    tree: () => held,
    catchUp: () => {
      const events = store.changedEvents([]);
      for (const { delta } of events) {
        expect(delta.seq).toBe(held.seq + 1);
        held = applyTreeDelta(held, delta);
      }
      return events.length;
    },
  };
}

describe('project.changed deltas', () => {
  it('make the same tree as the store for creates, renames, moves, deletes and properties', async () => {
    const { store } = await newProject();
    const page = follow(store);
    const api = await store.createApi({ name: 'Shop', baseUrl: 'https://shop.example' });
    const a = await store.createRequest({ parent: `${api.id}/pets/cats`, name: 'List cats', method: 'GET', url: '/cats' });
    const b = await store.createRequest({ parent: api.id, name: 'Add', method: 'POST', url: '/add' });
    page.catchUp();
    expect(page.tree()).toEqual(store.tree());

    await store.saveRequest({ ...a, name: 'All cats', method: 'HEAD' });
    await store.saveApi({ ...store.getApi(api.id), name: 'Pet shop' });
    await store.setProperties([{ name: 'base', value: 'x', enabled: true }]);
    page.catchUp();
    expect(page.tree()).toEqual(store.tree());

    await store.deleteRequest(b.id);
    const other = await store.createApi({ name: 'Another', baseUrl: '' });
    await store.createRequest({ parent: other.id, name: 'Zed', method: 'GET', url: '/z' });
    page.catchUp();
    expect(page.tree()).toEqual(store.tree());
    expect(page.tree().items.map((i) => i.name)).toEqual(['Another', 'Pet shop', 'pets', 'cats', 'All cats', 'Zed']);
  });

  it('carry a file edited on disk, its problems and their fix, through the watcher', async () => {
    const { dir, store } = await newProject();
    const api = await store.createApi({ name: 'A', baseUrl: '' });
    await store.createRequest({ parent: api.id, name: 'R', method: 'GET', url: '/r' });
    const page = follow(store);
    let events = 0;
    await store.watch(() => events++);
    const file = join(dir, 'apis', 'A', 'requests', 'R.request.yaml');
    const good = await readFile(file, 'utf8');
    await writeFile(file, 'version: 1\nname: [broken\n');
    await until(() => events >= 1);
    page.catchUp();
    expect(page.tree()).toEqual(store.tree());
    expect(page.tree().problems).toEqual([expect.objectContaining({ file: 'apis/A/requests/R.request.yaml', rule: 'yaml-syntax' })]);
    // As before deltas: the request stays as it was last read while its file is broken.
    expect(page.tree().items.filter((i) => i.kind === 'request').map((i) => i.name)).toEqual(['R']);

    await writeFile(file, good.replace(/^id: .*$/m, 'id: r_fixed').replace(/^name: R$/m, 'name: Fixed'));
    await until(() => events >= 2);
    page.catchUp();
    expect(page.tree()).toEqual(store.tree());
    expect(page.tree().problems).toEqual([]);
    expect(page.tree().items.filter((i) => i.kind === 'request').map((i) => i.name)).toEqual(['Fixed']);
  });

  it('a one-request save of a big project is one row, not the tree; an import of thousands comes in pages', async () => {
    const { store } = await newProject();
    const page = follow(store);
    const requests = Array.from({ length: 1_200 }, (_, i) => ({ folder: `F${i % 30}`, request: blankRequest({ id: `r_${i}`, name: `Request ${i}`, method: 'GET', url: `/things/${i}` }) }));
    await store.commit(store.newApiChanges({ api: { version: 1, id: 'a_big', name: 'Big', baseUrl: '', auth: { type: 'none' } }, requests, documents: [] }));
    const pages = store.changedEvents(['a_big']);
    // 1,200 requests, 30 folders and the API: three pages, `changed` on the last once the tree has it all.
    expect(pages.map((p) => p.delta.items.length)).toEqual([DELTA_ITEMS, DELTA_ITEMS, 1_231 - 2 * DELTA_ITEMS]);
    expect(pages.map((p) => p.changed)).toEqual([[], [], ['a_big']]);
    let held = page.tree();
    for (const { delta } of pages) held = applyTreeDelta(held, delta);
    expect(held).toEqual(store.tree());

    const saved = await store.saveRequest({ ...store.getRequest('r_7'), url: '/things/7?x=1' });
    const [event, ...more] = store.changedEvents([saved.id]);
    expect(more).toEqual([]);
    // Request 7 is the first in F7 (7, 37, 67, ... follow it): it went last into an empty folder.
    expect(event!.delta.items).toEqual([{ kind: 'request', id: 'r_7', parent: 'a_big/F7', name: 'Request 7', method: 'GET', orphaned: false, order: 'a0' }]);
    expect(event!.delta.removed).toEqual([]);
    expect(encode(event).length).toBeLessThan(400);
    expect(encode({ tree: store.tree(), changed: [saved.id] }).length).toBeGreaterThan(50_000);
  });

  it('numbers deltas within one opening: a store opened again starts anew, and its tree says so', async () => {
    const { dir, store } = await newProject();
    await store.createApi({ name: 'A', baseUrl: '' });
    const [first] = store.changedEvents([]);
    await store.close();
    const again = await ProjectStore.open(dir);
    open.push(again);
    expect(again.tree().seq).toBe(0);
    expect(again.tree().opened).not.toBe(first!.delta.opened);
    expect(again.tree().items.map((i) => i.name)).toEqual(['A']);
  });
});
