/**
 * Where a drag over the sidebar would put the dragged items (pure, so it is tested without a
 * page): the row under the pointer and how far down it the pointer is decide between before it,
 * after it and inside it (an API, or a folder's middle half), as the drop indicator shows.
 */
import type { ProjectTree, TreeRef } from '../../../../protocol/model/project.js';
import { childrenByParent } from '../../../../protocol/project/tree-order.js';
import type { Row } from '../components/tree-rows.js';

/** The parent the APIs sit in (the store's PROJECT_PARENT). */
export const PROJECT_PARENT = '@project';

export interface DropTarget {
  parent: string;
  /** The sibling the items go before; null: at the end. */
  before: string | null;
  /** What to draw: a line above or below the row, or the row lit up. */
  row: string;
  mode: 'before' | 'after' | 'inside';
}

/** Items a parent holds in the tree's order (the APIs for PROJECT_PARENT). */
export function siblingsIn(tree: ProjectTree, parent: string): { kind: string; id: string; parent?: string }[] {
  const { children, roots } = childrenByParent(tree);
  return parent === PROJECT_PARENT ? roots : (children.get(parent) ?? []);
}

/** The parent of an item of the tree (PROJECT_PARENT for an API). */
export function parentIn(tree: ProjectTree, ref: TreeRef): string | null {
  if (ref.kind === 'api') return PROJECT_PARENT;
  const item = tree.items.find((i) => i.kind === ref.kind && i.id === ref.id);
  return item && 'parent' in item ? item.parent : null;
}

/**
 * The target of dropping `dragged` (items of `tree`) on `row` at `fraction` (0 its top, 1 its
 * bottom); null where they cannot go (another project, a row they hold, an API among folders).
 */
export function dropTarget(tree: ProjectTree, dragged: readonly TreeRef[], row: Row, fraction: number): DropTarget | null {
  if (row.project !== tree.root || dragged.length === 0) return null;
  const item = row.item;
  if (item.kind !== 'api' && item.kind !== 'folder' && item.kind !== 'request') return null;
  const draggedKeys = new Set(dragged.map((d) => `${d.kind}\0${d.id}`));
  if (draggedKeys.has(`${item.kind}\0${item.id}`)) return null;
  // Never into one of the dragged folders (or what they hold).
  const folders = dragged.filter((d) => d.kind === 'folder').map((d) => d.id);
  const inside = (id: string) => folders.some((f) => id === f || id.startsWith(`${f}/`));
  const apis = dragged.every((d) => d.kind === 'api');
  if (!apis && dragged.some((d) => d.kind === 'api')) return null;
  if (apis) {
    if (item.kind !== 'api') return null;
    return fraction < 0.5 ? { parent: PROJECT_PARENT, before: item.id, row: row.key, mode: 'before' } : after(tree, PROJECT_PARENT, item.id, draggedKeys, row.key);
  }
  if (item.kind === 'api') return { parent: item.id, before: null, row: row.key, mode: 'inside' };
  const parent = item.parent;
  if (inside(parent) || (item.kind === 'folder' && inside(item.id) && fraction >= 0.25 && fraction <= 0.75)) return null;
  if (item.kind === 'folder' && fraction >= 0.25 && fraction <= 0.75) return { parent: item.id, before: null, row: row.key, mode: 'inside' };
  const edge = item.kind === 'folder' ? fraction < 0.25 : fraction < 0.5;
  return edge ? { parent, before: item.id, row: row.key, mode: 'before' } : after(tree, parent, item.id, draggedKeys, row.key);
}

/** After `id` in `parent`: before the next sibling that is not being dragged, or at the end. */
function after(tree: ProjectTree, parent: string, id: string, dragged: Set<string>, row: string): DropTarget {
  const siblings = siblingsIn(tree, parent);
  const at = siblings.findIndex((s) => s.id === id);
  const next = siblings.slice(at + 1).find((s) => !dragged.has(`${s.kind}\0${s.id}`));
  return { parent, before: next?.id ?? null, row, mode: 'after' };
}

/**
 * Alt+Up / Alt+Down: the place one step up or down among the items' siblings (all in one parent),
 * null at the edge or for items of different parents.
 */
export function stepTarget(tree: ProjectTree, refs: readonly TreeRef[], step: -1 | 1): { parent: string; before: string | null } | null {
  const parents = new Set(refs.map((r) => parentIn(tree, r)));
  const [parent] = parents;
  if (parents.size !== 1 || !parent) return null;
  const moving = new Set(refs.map((r) => `${r.kind}\0${r.id}`));
  const siblings = siblingsIn(tree, parent);
  const first = siblings.findIndex((s) => moving.has(`${s.kind}\0${s.id}`));
  const rest = siblings.filter((s) => !moving.has(`${s.kind}\0${s.id}`));
  // How many others sit before the first moved item: its place among them.
  const place = siblings.slice(0, first).filter((s) => !moving.has(`${s.kind}\0${s.id}`)).length;
  const next = place + step;
  if (first < 0 || next < 0 || next > rest.length) return null;
  return { parent, before: rest[next]?.id ?? null };
}
