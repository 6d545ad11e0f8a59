/**
 * The tree edits over the bus (`tree.*`, `workspace.forgetProject`): each finds the project's
 * store, runs the edit (store/tree-edits.ts: one commit each) and tells every UI what changed.
 */
import { ParleyError } from '../../../protocol/errors.js';
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';
import { UNDO_MS, UndoShelf } from './undo-shelf.js';

export function treeHandlers(sup: Supervisor): Handlers {
  const shelf = new UndoShelf();
  return {
    'workspace.forgetProject': async ({ project }) => {
      await sup.closeProject(project);
      const ws = await sup.workspace.update((draft) => {
        draft.recentProjects = draft.recentProjects.filter((p) => p !== project);
      });
      sup.broadcast('workspace.changed', ws);
      return ws;
    },
    'tree.newFolder': async ({ project, parent, name }) => {
      const store = sup.project(project);
      const id = await store.edits.createFolder(parent, name);
      sup.projectChanged(store, [id]);
      return { id };
    },
    'tree.rename': async ({ project, item, name }) => {
      const store = sup.project(project);
      let id = item.id;
      if (item.kind === 'project') await store.edits.renameProject(name);
      else if (item.kind === 'api') await store.edits.renameApi(item.id, name);
      else if (item.kind === 'request') await store.edits.renameRequest(item.id, name);
      else id = await store.edits.renameFolder(item.id, name);
      sup.projectChanged(store, [item.kind === 'project' ? 'project' : item.id, id]);
      return { id };
    },
    'tree.delete': async ({ project, items }) => {
      const store = sup.project(project);
      const removed = await store.edits.delete(items);
      sup.projectChanged(store, items.map((i) => i.id));
      const undo = shelf.put(store.root, removed);
      return { undo, files: removed.files.length, undoMs: undo ? UNDO_MS : 0 };
    },
    'tree.undoDelete': async ({ project, undo }) => {
      const store = sup.project(project);
      const removed = shelf.take(store.root, undo);
      if (!removed) throw new ParleyError('not-found', 'This delete can no longer be undone (its 30 seconds are over, or it was undone already).');
      await store.edits.restore(removed);
      sup.projectChanged(store, removed.items.map((i) => i.id));
      return {};
    },
    'tree.duplicate': async ({ project, item }) => {
      const store = sup.project(project);
      const id = await store.edits.duplicate(item);
      sup.projectChanged(store, [id]);
      return { id };
    },
    'tree.move': async ({ project, items, parent, before }) => {
      const store = sup.project(project);
      const moved = await store.edits.move(items, { parent, before });
      sup.projectChanged(store, moved.flatMap((m) => [m.from, m.to]));
      return { moved };
    },
  };
}
