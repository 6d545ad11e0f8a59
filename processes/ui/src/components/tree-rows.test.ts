import { describe, expect, it } from 'vitest';
import type { ProjectTree, TreeItem } from '../../../../protocol/model/project.js';
import { ancestorKeys, rowKey, visibleRows } from './tree-rows.js';

function tree(root: string, name: string, items: TreeItem[]): ProjectTree {
  return { root, name, items, properties: [], problems: [], opened: 'o', seq: 0 };
}

const shop = tree('/p/shop', 'Shop', [
  { kind: 'api', id: 'a1', name: 'Orders', baseUrl: '', hasDefinition: true },
  { kind: 'folder', id: 'a1/admin', parent: 'a1', name: 'admin' },
  { kind: 'folder', id: 'a1/admin/old', parent: 'a1/admin', name: 'old' },
  { kind: 'request', id: 'r1', parent: 'a1/admin/old', name: 'Refund order', method: 'POST', orphaned: false },
  { kind: 'request', id: 'r2', parent: 'a1', name: 'List orders', method: 'GET', orphaned: false },
  { kind: 'api', id: 'a2', name: 'Stock', baseUrl: '', hasDefinition: false },
  { kind: 'request', id: 'r3', parent: 'a2', name: 'Count', method: 'GET', orphaned: false },
  { kind: 'mock', id: 'm1', name: 'Orders mock' },
]);
const pets = tree('/p/pets', 'Pets', [
  { kind: 'api', id: 'b1', name: 'Pet Store', baseUrl: '', hasDefinition: true },
  { kind: 'request', id: 's1', parent: 'b1', name: 'List pets', method: 'GET', orphaned: false },
]);

const names = (filter: string) => visibleRows([shop, pets], new Set(), filter).map((r) => r.item.name);

describe('the sidebar filter', () => {
  it('lists only the projects, APIs and folders that hold a match, with the path down to it', () => {
    expect(names('refund')).toEqual(['Shop', 'Orders', 'admin', 'old', 'Refund order']);
    expect(names('list pets')).toEqual(['Pets', 'Pet Store', 'List pets']);
    expect(names('count')).toEqual(['Shop', 'Stock', 'Count']);
    expect(names('mock')).toEqual(['Shop', 'Mocks', 'Orders mock']);
  });

  it('lists nothing when nothing matches, and a project whose own name matches alone', () => {
    expect(names('nothing like it')).toEqual([]);
    expect(names('shop')).toEqual(['Shop']);
  });

  it('lists every project, collapsed, with no filter', () => {
    expect(names('')).toEqual(['Shop', 'Pets']);
    expect(names('   ')).toEqual(['Shop', 'Pets']);
  });
});

describe('ancestorKeys', () => {
  it('gives the rows to expand for an item, outermost first', () => {
    expect(ancestorKeys(shop, 'r1')).toEqual([rowKey('/p/shop', '@project'), rowKey('/p/shop', 'a1'), rowKey('/p/shop', 'a1/admin'), rowKey('/p/shop', 'a1/admin/old')]);
    expect(ancestorKeys(shop, 'a2')).toEqual([rowKey('/p/shop', '@project')]);
    expect(ancestorKeys(shop, 'm1')).toEqual([rowKey('/p/shop', '@project'), rowKey('/p/shop', '@mocks')]);
    expect(ancestorKeys(shop, '@project')).toEqual([]);
    expect(ancestorKeys(shop, 'gone')).toEqual([]);
  });

  it('shows the item once those rows are expanded', () => {
    const rows = visibleRows([shop, pets], new Set(ancestorKeys(shop, 'r1')));
    expect(rows.map((r) => r.key)).toContain(rowKey('/p/shop', 'r1'));
  });
});
