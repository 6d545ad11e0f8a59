import { describe, expect, it } from 'vitest';
import type { ProjectTree, TreeItem } from '../model/project.js';
import { PROJECT_SCOPE, requestsUnder } from './tree-order.js';

const request = (id: string, parent: string, order: string): TreeItem => ({ kind: 'request', id, parent, name: id, method: 'GET', orphaned: false, order });
const tree: ProjectTree = {
  root: '/p',
  name: 'P',
  properties: [],
  problems: [],
  opened: 'o1',
  seq: 0,
  items: [
    { kind: 'api', id: 'shop', name: 'Shop', baseUrl: '', hasDefinition: false, order: 'a0' },
    { kind: 'api', id: 'auth', name: 'Auth', baseUrl: '', hasDefinition: false, order: 'a1' },
    { kind: 'folder', id: 'shop/orders', parent: 'shop', name: 'Orders', order: 'a1' },
    { kind: 'folder', id: 'shop/orders/old', parent: 'shop/orders', name: 'Old', order: 'a0' },
    request('login', 'auth', 'a0'),
    request('list', 'shop', 'a0'),
    request('create', 'shop/orders', 'a1'),
    request('archived', 'shop/orders/old', 'a0'),
    // A request whose id is a folder's: ids are unique only within a kind.
    request('shop/orders/old', 'shop', 'a2'),
  ] as TreeItem[],
};

describe('requestsUnder', () => {
  it('answers the requests of a project, an API or a folder with its subfolders, in the tree order', () => {
    expect(requestsUnder(tree, PROJECT_SCOPE)!.map((r) => r.id)).toEqual(['list', 'archived', 'create', 'shop/orders/old', 'login']);
    expect(requestsUnder(tree, 'shop')!.map((r) => r.id)).toEqual(['list', 'archived', 'create', 'shop/orders/old']);
    expect(requestsUnder(tree, 'shop/orders')!.map((r) => r.id)).toEqual(['archived', 'create']);
    expect(requestsUnder(tree, 'shop/orders/old')!.map((r) => r.id)).toEqual(['archived']);
  });

  it('answers null for a scope the tree does not hold (a request is no scope)', () => {
    expect(requestsUnder(tree, 'shop/gone')).toBeNull();
    expect(requestsUnder(tree, 'login')).toBeNull();
  });
});
