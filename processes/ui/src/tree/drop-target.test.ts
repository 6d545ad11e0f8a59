import { describe, expect, it } from 'vitest';
import type { ProjectTree, TreeItem } from '../../../../protocol/model/project.js';
import { visibleRows, type Row } from '../components/tree-rows.js';
import { dropTarget, stepTarget } from './drop-target.js';

const items: TreeItem[] = [
  { kind: 'api', id: 'a1', name: 'Shop', baseUrl: '', hasDefinition: false, order: 'a0' },
  { kind: 'api', id: 'a2', name: 'Admin', baseUrl: '', hasDefinition: false, order: 'a1' },
  { kind: 'folder', id: 'a1/Orders', parent: 'a1', name: 'Orders', order: 'a1' },
  { kind: 'folder', id: 'a1/Orders/Old', parent: 'a1/Orders', name: 'Old', order: 'a1' },
  { kind: 'request', id: 'r_login', parent: 'a1', name: 'Login', method: 'POST', orphaned: false, order: 'a0' },
  { kind: 'request', id: 'r_create', parent: 'a1/Orders', name: 'Create', method: 'POST', orphaned: false, order: 'a0' },
  { kind: 'request', id: 'r_logout', parent: 'a1', name: 'Logout', method: 'POST', orphaned: false, order: 'a2' },
];
const tree: ProjectTree = { root: '/p', name: 'P', items, properties: [], problems: [], opened: 'o', seq: 0 };
const everything = new Set(['/p::@project', '/p::a1', '/p::a1/Orders', '/p::a1/Orders/Old', '/p::a2']);
const rows = visibleRows([tree], everything);
const row = (id: string): Row => rows.find((r) => r.item.id === id)!;

describe('where a drop goes', () => {
  it('shows the tree in order', () => {
    expect(rows.map((r) => `${'  '.repeat(r.depth)}${r.item.name}`)).toEqual(['P', '  Shop', '    Login', '    Orders', '      Create', '      Old', '    Logout', '  Admin']);
  });

  it('on a request: before it in its top half, after it (before its next sibling) in its bottom half', () => {
    const drag = [{ kind: 'request' as const, id: 'r_logout' }];
    expect(dropTarget(tree, drag, row('r_login'), 0.2)).toMatchObject({ parent: 'a1', before: 'r_login', mode: 'before' });
    expect(dropTarget(tree, drag, row('r_login'), 0.8)).toMatchObject({ parent: 'a1', before: 'a1/Orders', mode: 'after' });
    expect(dropTarget(tree, drag, row('r_create'), 0.8)).toMatchObject({ parent: 'a1/Orders', before: 'a1/Orders/Old' });
  });

  it('on a folder: its middle drops inside (at its end), its edges beside it; an API row takes it inside', () => {
    const drag = [{ kind: 'request' as const, id: 'r_login' }];
    expect(dropTarget(tree, drag, row('a1/Orders'), 0.5)).toMatchObject({ parent: 'a1/Orders', before: null, mode: 'inside' });
    expect(dropTarget(tree, drag, row('a1/Orders'), 0.1)).toMatchObject({ parent: 'a1', before: 'a1/Orders', mode: 'before' });
    expect(dropTarget(tree, drag, row('a1/Orders'), 0.9)).toMatchObject({ parent: 'a1', before: 'r_logout', mode: 'after' });
    expect(dropTarget(tree, drag, row('a2'), 0.5)).toMatchObject({ parent: 'a2', before: null, mode: 'inside' });
  });

  it('never onto itself or into what it holds; an API only among APIs', () => {
    const folder = [{ kind: 'folder' as const, id: 'a1/Orders' }];
    expect(dropTarget(tree, folder, row('a1/Orders'), 0.5)).toBeNull();
    expect(dropTarget(tree, folder, row('r_create'), 0.2)).toBeNull();
    expect(dropTarget(tree, folder, row('a1/Orders/Old'), 0.5)).toBeNull();
    const api = [{ kind: 'api' as const, id: 'a2' }];
    expect(dropTarget(tree, api, row('a1'), 0.2)).toMatchObject({ parent: '@project', before: 'a1' });
    expect(dropTarget(tree, api, row('r_login'), 0.2)).toBeNull();
  });
});

describe('Alt+Up and Alt+Down', () => {
  it('step one place among the siblings, and stop at the edges', () => {
    expect(stepTarget(tree, [{ kind: 'request', id: 'r_logout' }], -1)).toEqual({ parent: 'a1', before: 'a1/Orders' });
    expect(stepTarget(tree, [{ kind: 'request', id: 'r_login' }], 1)).toEqual({ parent: 'a1', before: 'r_logout' });
    expect(stepTarget(tree, [{ kind: 'request', id: 'a1/Orders' }], 1)).toBeNull();
    expect(stepTarget(tree, [{ kind: 'folder', id: 'a1/Orders' }], 1)).toEqual({ parent: 'a1', before: null });
    expect(stepTarget(tree, [{ kind: 'request', id: 'r_login' }], -1)).toBeNull();
    expect(stepTarget(tree, [{ kind: 'request', id: 'r_logout' }], 1)).toBeNull();
    expect(stepTarget(tree, [{ kind: 'api', id: 'a2' }], -1)).toEqual({ parent: '@project', before: 'a1' });
  });
});
