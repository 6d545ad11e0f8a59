import { describe, expect, it } from 'vitest';
import { compareSiblings, isOrderKey, keyAfter, placeAt, SourceOrder, type Orderable } from './order-keys.js';
import { requestsInTreeOrder } from './tree-order.js';
import type { ProjectTree, TreeItem } from '../model/project.js';

const req = (name: string, order?: string, id = `r_${name}`): Orderable => ({ kind: 'request', id, name, ...(order !== undefined ? { order } : {}) });
const folder = (name: string, order?: string): Orderable => ({ kind: 'folder', id: `a/${name}`, name, ...(order !== undefined ? { order } : {}) });
const names = (items: Orderable[]) => [...items].sort(compareSiblings).map((i) => i.name);

/** `siblings` with `placed` put at `index` by `placeAt`, re-sorted as every reader sorts them. */
function afterPlacing(siblings: Orderable[], index: number, placed: Orderable[]): { order: string[]; rekeyed: string[] } {
  const sorted = [...siblings].sort(compareSiblings);
  const { keys, rekeyed } = placeAt(sorted, index, placed.length);
  const next = sorted.map((s) => (rekeyed.has(s) ? { ...s, order: rekeyed.get(s)! } : s));
  next.push(...placed.map((p, i) => ({ ...p, order: keys[i]! })));
  return { order: names(next), rekeyed: [...rekeyed.keys()].map((s) => s.name) };
}

describe('sibling order', () => {
  it('a project without keys keeps the order Parley always showed: folders by name, then requests by name', () => {
    expect(names([req('login'), folder('Users'), req('Create order'), folder('Admin')])).toEqual(['Admin', 'Users', 'Create order', 'login']);
  });

  it('items without a key come first, then keyed items by key, folders and requests interleaved', () => {
    expect(names([req('b', 'a1'), folder('F', 'a0'), req('z'), req('a', 'a2')])).toEqual(['z', 'F', 'b', 'a']);
  });

  it('equal keys (two branches each appended to one folder) fall back on name, then id', () => {
    expect(names([req('Zeta', 'a3'), req('Alpha', 'a3'), req('Mid', 'a2')])).toEqual(['Mid', 'Alpha', 'Zeta']);
    const twins = [req('Same', 'a3', 'r_2'), req('Same', 'a3', 'r_1')].sort(compareSiblings);
    expect(twins.map((t) => t.id)).toEqual(['r_1', 'r_2']);
  });

  it('keys are checked: a hand-edited key the generator would refuse is not one', () => {
    expect(isOrderKey('a0')).toBe(true);
    expect(isOrderKey('a0V')).toBe(true);
    expect(isOrderKey('')).toBe(false);
    expect(isOrderKey('a')).toBe(false);
    expect(isOrderKey('a00')).toBe(false);
    expect(isOrderKey('1')).toBe(false);
    expect(isOrderKey(`a${'1'.repeat(300)}`)).toBe(false);
    expect(keyAfter(null)).toBe('a0');
    expect(keyAfter('a0')).toBe('a1');
    expect(keyAfter('nonsense!')).toBe('a0');
  });
});

describe('placing items', () => {
  it('between two keyed siblings: only the placed item gets a key', () => {
    const { order, rekeyed } = afterPlacing([req('a', 'a0'), req('b', 'a1'), req('c', 'a2')], 1, [req('x')]);
    expect(order).toEqual(['a', 'x', 'b', 'c']);
    expect(rekeyed).toEqual([]);
  });

  it('at the end of a folder of unkeyed items: only the placed item gets a key', () => {
    const { order, rekeyed } = afterPlacing([req('a'), req('b'), req('c')], 3, [req('x')]);
    expect(order).toEqual(['a', 'b', 'c', 'x']);
    expect(rekeyed).toEqual([]);
  });

  it('before unkeyed items: those from the place on take keys after it, those before keep none', () => {
    const { order, rekeyed } = afterPlacing([req('a'), req('b'), req('c'), req('d', 'a0')], 1, [req('x')]);
    expect(order).toEqual(['a', 'x', 'b', 'c', 'd']);
    expect(rekeyed).toEqual(['b', 'c']);
  });

  it('between two equal keys: the later twin takes a new key', () => {
    const { order, rekeyed } = afterPlacing([req('a', 'a1'), req('b', 'a1'), req('c', 'a2')], 1, [req('x')]);
    expect(order).toEqual(['a', 'x', 'b', 'c']);
    expect(rekeyed).toEqual(['b']);
  });

  it('after a key no key can follow: the whole parent is numbered again, in the order it showed', () => {
    // '!!' sorts first by its code units, and nothing can be generated after it.
    const { order, rekeyed } = afterPlacing([req('a', 'a0'), req('b', '!!'), req('c', 'a2')], 1, [req('x')]);
    expect(order).toEqual(['b', 'x', 'a', 'c']);
    expect(rekeyed.sort()).toEqual(['a', 'b', 'c']);
  });

  it('several items at once keep their own order', () => {
    const { order } = afterPlacing([req('a', 'a0'), req('b', 'a1')], 1, [req('x'), req('y'), req('z')]);
    expect(order).toEqual(['a', 'x', 'y', 'z', 'b']);
  });

  it('keys stay short over many moves to one place', () => {
    let siblings: Orderable[] = [req('a', 'a0'), req('b', 'a1')];
    for (let i = 0; i < 50; i++) {
      const { order } = afterPlacing(siblings, 1, [req(`n${i}`)]);
      const sorted = [...siblings].sort(compareSiblings);
      const { keys } = placeAt(sorted, 1, 1);
      siblings = [...siblings, req(`n${i}`, keys[0])];
      expect(order[1]).toBe(`n${i}`);
    }
    for (const s of siblings) expect(s.order!.length).toBeLessThan(20);
  });
});

describe('the importers\' rule', () => {
  it('gives folders and requests the key of their place in their parent, folders where they first appear', () => {
    const order = new SourceOrder();
    const zLogin = order.request('', { name: 'Login' });
    const users = order.request('Users/Admin', { name: 'Create admin' });
    const last = order.request('', { name: 'Create order' });
    const again = order.request('Users', { name: 'List users' });
    expect([zLogin.order, last.order]).toEqual(['a0', 'a2']);
    expect(order.folders()).toEqual([
      { path: 'Users', order: 'a1' },
      { path: 'Users/Admin', order: 'a0' },
    ]);
    expect([users.order, again.order]).toEqual(['a0', 'a1']);
  });
});

describe('the tree\'s order', () => {
  const tree = (items: TreeItem[]): ProjectTree => ({ root: '/p', name: 'P', items, properties: [], problems: [], opened: 'o', seq: 0 });
  const request = (id: string, parent: string, name: string, order?: string): TreeItem => ({ kind: 'request', id, parent, name, method: 'GET', orphaned: false, ...(order ? { order } : {}) });

  it('an old project runs and shows in name order (C before L); keyed, in the keys\' order', () => {
    const api: TreeItem = { kind: 'api', id: 'a1', name: 'Shop', baseUrl: '', hasDefinition: false };
    const old = tree([api, request('r1', 'a1', 'Login'), request('r2', 'a1', 'Create order')]);
    expect(requestsInTreeOrder(old).map((r) => r.name)).toEqual(['Create order', 'Login']);
    const keyed = tree([api, request('r1', 'a1', 'Login', 'a0'), request('r2', 'a1', 'Create order', 'a1')]);
    expect(requestsInTreeOrder(keyed).map((r) => r.name)).toEqual(['Login', 'Create order']);
  });

  it('APIs follow their keys, a folder sits among requests by its key', () => {
    const items: TreeItem[] = [
      { kind: 'api', id: 'a1', name: 'Alpha', baseUrl: '', hasDefinition: false, order: 'a1' },
      { kind: 'api', id: 'a2', name: 'Beta', baseUrl: '', hasDefinition: false, order: 'a0' },
      { kind: 'folder', id: 'a1/F', parent: 'a1', name: 'F', order: 'a1' },
      request('r1', 'a1', 'first', 'a0'),
      request('r2', 'a1/F', 'inside', 'a0'),
      request('r3', 'a1', 'last', 'a2'),
      request('r4', 'a2', 'beta', 'a0'),
    ];
    expect(requestsInTreeOrder(tree(items)).map((r) => r.name)).toEqual(['beta', 'first', 'inside', 'last']);
  });
});
