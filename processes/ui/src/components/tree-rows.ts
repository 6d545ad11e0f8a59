/** Flattens project trees into the visible rows of the sidebar, honouring expanded nodes. */
import type { ProjectTree, TreeItem } from '../../../../protocol/model/project.js';
import { childrenByParent } from '../../../../protocol/project/tree-order.js';

export interface Row {
  key: string;
  project: string;
  depth: number;
  item: TreeItem | { kind: 'project'; id: string; name: string } | { kind: 'group'; id: string; name: string };
  hasChildren: boolean;
}

interface Index {
  children: Map<string, TreeItem[]>;
  roots: TreeItem[];
  mocks: TreeItem[];
}

const indexes = new WeakMap<ProjectTree, Index>();

function indexOf(tree: ProjectTree): Index {
  let index = indexes.get(tree);
  if (index) return index;
  index = childrenByParent(tree);
  indexes.set(tree, index);
  return index;
}

export function rowKey(project: string, id: string): string {
  return `${project}::${id}`;
}

export function visibleRows(trees: ProjectTree[], expanded: Set<string>, filter = ''): Row[] {
  const rows: Row[] = [];
  const needle = filter.trim().toLowerCase();
  for (const tree of trees) {
    const index = indexOf(tree);
    const matches = needle ? matchingIds(tree, index, needle) : null;
    // While filtering, a project is listed only when it, or something in it, matches.
    if (matches && matches.size === 0 && !tree.name.toLowerCase().includes(needle)) continue;
    const projectKey = rowKey(tree.root, '@project');
    rows.push({ key: projectKey, project: tree.root, depth: 0, item: { kind: 'project', id: '@project', name: tree.name }, hasChildren: true });
    if (!expanded.has(projectKey) && !needle) continue;
    const walk = (item: TreeItem, depth: number) => {
      if (matches && !matches.has(item.id)) return;
      const key = rowKey(tree.root, item.id);
      const kids = index.children.get(item.id) ?? [];
      rows.push({ key, project: tree.root, depth, item, hasChildren: kids.length > 0 });
      if (expanded.has(key) || needle) for (const child of kids) walk(child, depth + 1);
    };
    for (const api of index.roots) walk(api, 1);
    if (index.mocks.length > 0 && (!matches || index.mocks.some((m) => matches.has(m.id)))) {
      const groupKey = rowKey(tree.root, '@mocks');
      rows.push({ key: groupKey, project: tree.root, depth: 1, item: { kind: 'group', id: '@mocks', name: 'Mocks' }, hasChildren: true });
      if (expanded.has(groupKey) || needle) {
        for (const mock of index.mocks) {
          if (matches && !matches.has(mock.id)) continue;
          rows.push({ key: rowKey(tree.root, mock.id), project: tree.root, depth: 2, item: mock, hasChildren: false });
        }
      }
    }
  }
  return rows;
}

/** Ids of items whose name matches, plus every ancestor so the match stays reachable. */
function matchingIds(tree: ProjectTree, index: Index, needle: string): Set<string> {
  const parent = new Map<string, string>();
  for (const [p, kids] of index.children) for (const kid of kids) parent.set(kid.id, p);
  const out = new Set<string>();
  for (const item of tree.items) {
    if (!item.name.toLowerCase().includes(needle)) continue;
    let id: string | undefined = item.id;
    while (id && !out.has(id)) {
      out.add(id);
      id = parent.get(id);
    }
  }
  return out;
}

/**
 * The rows to expand so the row of `itemId` shows, outermost first: its project, then the Mocks
 * group for a mock, or its API and folders for a folder or request. Empty when the tree lacks it.
 */
export function ancestorKeys(tree: ProjectTree, itemId: string): string[] {
  const projectKey = rowKey(tree.root, '@project');
  if (itemId === '@project') return [];
  const byId = new Map<string, TreeItem>();
  for (const item of tree.items) byId.set(item.id, item);
  let item = byId.get(itemId);
  if (!item) return [];
  if (item.kind === 'mock') return [projectKey, rowKey(tree.root, '@mocks')];
  const keys: string[] = [];
  while (item && 'parent' in item) {
    keys.unshift(rowKey(tree.root, item.parent));
    item = byId.get(item.parent);
  }
  return [projectKey, ...keys];
}
