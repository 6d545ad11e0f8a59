/** A `project.changed` delta applied to the tree a page holds (pure: the page's state calls it). */
import type { ProjectTree, TreeDelta, TreeItem } from '../model/project.js';
import { compareTreeItems, treeItemKey } from './tree-order.js';

/** Past this many items a delta's rows are sorted in with the rest rather than placed one by one. */
const PLACE_ONE_BY_ONE = 64;

/**
 * `tree` with `delta` applied: its items replaced, added or removed in the one tree order
 * (`compareTreeItems`), its name, properties and the named files' problems replaced. The caller
 * checks the sequence (`delta.seq` is `tree.seq + 1`); applying a delta twice changes nothing more.
 */
export function applyTreeDelta(tree: ProjectTree, delta: TreeDelta): ProjectTree {
  const drop = new Set([...delta.removed.map(treeItemKey), ...delta.items.map(treeItemKey)]);
  const items = drop.size > 0 ? tree.items.filter((item) => !drop.has(treeItemKey(item))) : [...tree.items];
  if (delta.items.length > PLACE_ONE_BY_ONE) {
    items.push(...delta.items);
    items.sort(compareTreeItems);
  } else {
    for (const item of delta.items) items.splice(placeOf(items, item), 0, item);
  }
  let problems = tree.problems;
  if (delta.problems) {
    const files = new Set(delta.problems.files);
    problems = [...problems.filter((p) => !files.has(p.file)), ...delta.problems.list];
  }
  return { ...tree, name: delta.name ?? tree.name, properties: delta.properties ?? tree.properties, items, problems, seq: delta.seq };
}

/** Where `item` goes in sorted `items` (after its equals). */
function placeOf(items: readonly TreeItem[], item: TreeItem): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareTreeItems(items[mid]!, item) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
