/**
 * The project trees the page holds, kept in step by `project.changed` deltas (what a save
 * changed, numbered per opening of a project) instead of a whole tree per save. A delta that does
 * not follow the tree held (one was missed, or the project was opened again) brings the whole
 * tree again (`project.tree`); deltas arriving while a tree is on its way wait for it.
 */
import type { ProjectTree, TreeDelta } from '../../../../protocol/model/project.js';
import { applyTreeDelta } from '../../../../protocol/project/tree-delta.js';
import { openingProjects, projectByRoot, projects } from './app.js';
import { onProjectChanged } from './drafts.js';
import { call } from './rpc.js';

interface Change {
  delta: TreeDelta;
  changed: string[];
}

/** Deltas of a project whose tree is on its way (asked for again, or being opened here). */
const waiting = new Map<string, Change[]>();
const asking = new Set<string>();

/** `project.changed`: the delta applied to the tree held, or the tree asked for again. */
export function receiveProjectChange(change: Change): void {
  const root = change.delta.root;
  const held = projectByRoot(root);
  if (asking.has(root) || (!held && openingProjects.value.length > 0)) {
    wait(change);
    return;
  }
  if (!held) {
    // A project this page has not shown yet (opened elsewhere): shown from its whole tree.
    wait(change);
    void askForTree(root);
    return;
  }
  apply(held, [change]);
}

/**
 * A whole tree (an open, `project.tree`, a save of the project's properties) into the page,
 * unless the one held is already newer; deltas that waited for it are applied after it.
 */
export function takeTree(tree: ProjectTree): void {
  const held = projectByRoot(tree.root);
  const newer = held && held.opened === tree.opened && held.seq > tree.seq;
  if (!newer) put(tree);
  const queued = waiting.get(tree.root);
  waiting.delete(tree.root);
  if (queued) apply(projectByRoot(tree.root)!, queued);
}

/** Forgets what waits (a new connection starts from the trees it reads). */
export function resetTrees(): void {
  waiting.clear();
  asking.clear();
}

function apply(tree: ProjectTree, changes: Change[]): void {
  let current = tree;
  const changed: string[] = [];
  const ordered = [...changes].sort((a, b) => a.delta.seq - b.delta.seq);
  for (const [i, { delta, changed: ids }] of ordered.entries()) {
    const inTree = delta.opened === current.opened && delta.seq <= current.seq;
    if (!inTree && (delta.opened !== current.opened || delta.seq !== current.seq + 1)) {
      // One was missed (or the project was opened again): these wait for the whole tree.
      for (const later of ordered.slice(i)) wait(later);
      void askForTree(tree.root);
      break;
    }
    if (!inTree) current = applyTreeDelta(current, delta);
    changed.push(...ids);
  }
  if (current !== tree) put(current);
  if (changed.length > 0) onProjectChanged(current, changed);
}

async function askForTree(root: string): Promise<void> {
  if (asking.has(root)) return;
  asking.add(root);
  try {
    const tree = await call('project.tree', { project: root });
    asking.delete(root);
    takeTree(tree);
  } catch {
    // Closed meanwhile: nothing to show.
    asking.delete(root);
    waiting.delete(root);
  }
}

function wait(change: Change): void {
  const list = waiting.get(change.delta.root);
  if (list) list.push(change);
  else waiting.set(change.delta.root, [change]);
}

function put(tree: ProjectTree): void {
  const list = projects.value;
  const index = list.findIndex((p) => p.root === tree.root);
  projects.value = index < 0 ? [...list, tree] : list.map((p, i) => (i === index ? tree : p));
}
