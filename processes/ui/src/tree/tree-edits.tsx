/**
 * Tree management in the app (docs/project-files.md "Tree edits"): New folder, Rename, Delete
 * (the app's own dialog, then a toast with Undo for as long as the supervisor keeps what it
 * took), Duplicate, Move up / down, Move to…, drops from the sidebar, and forgetting a project.
 * The same actions are reached from the context menu and the palette (with keys); each is one
 * `tree.*` call, one commit of the project.
 */
import { useSignal } from '@preact/signals';
import type { TreeRef } from '../../../../protocol/model/project.js';
import { projectByRoot } from '../state/app.js';
import { call } from '../state/rpc.js';
import { mod, registerCommands } from '../state/commands.js';
import { closeProject, openItem, openProject } from '../state/actions.js';
import { closeTabs } from '../state/draft-actions.js';
import { openCustom, openForm, type MenuItem } from '../state/overlays.js';
import { tabs } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { expand, expanded, selectedKey } from '../state/tree.js';
import { rowKey } from '../components/tree-rows.js';
import { PROJECT_PARENT, parentIn, siblingsIn, stepTarget } from './drop-target.js';
import { actedOn, clearPicked, followIds, treeActive, type Picked } from './selection.js';
import { folderInFocus } from './folder-in-focus.js';

const refOf = (p: Picked): TreeRef => ({ kind: p.kind, id: p.id });

/** "Login", "2 requests", "a folder and 3 requests". */
function describe(items: readonly Picked[]): string {
  if (items.length === 1) return `"${items[0]!.name}"`;
  const count = (kind: Picked['kind'], one: string, many: string) => {
    const n = items.filter((i) => i.kind === kind).length;
    return n === 0 ? [] : [n === 1 ? `a${kind === 'api' ? 'n' : ''} ${one}` : `${n} ${many}`];
  };
  const parts = [...count('api', 'API', 'APIs'), ...count('folder', 'folder', 'folders'), ...count('request', 'request', 'requests')];
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function failed(err: unknown): void {
  toast('error', (err as Error).message);
}

// --- new and rename -----------------------------------------------------------------------

/** New folder… in an API or a folder (`parent`). */
export function newFolderDialog(project: string, parent: string): void {
  openForm({
    title: 'New folder',
    submitLabel: 'Create folder',
    fields: [{ name: 'name', label: 'Name', placeholder: 'Orders', required: true }],
    onSubmit: async ({ name }) => {
      try {
        const { id } = await call('tree.newFolder', { project, parent, name: name!.trim() });
        expand(rowKey(project, '@project'));
        expand(rowKey(project, parent.split('/')[0]!));
        expand(rowKey(project, parent));
        selectedKey.value = rowKey(project, id);
        clearPicked();
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
}

export function renameDialog(item: Picked | { kind: 'project'; id: string; project: string; name: string }): void {
  const what = item.kind === 'api' ? 'API' : item.kind;
  openForm({
    title: `Rename ${what}`,
    submitLabel: 'Rename',
    fields: [{ name: 'name', label: 'Name', value: item.name, required: true }],
    onSubmit: async ({ name }) => {
      try {
        const { id } = await call('tree.rename', { project: item.project, item: { kind: item.kind, id: item.id }, name: name!.trim() });
        if (id !== item.id) followIds(item.project, [{ from: item.id, to: id }], expanded);
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
}

// --- delete and undo ----------------------------------------------------------------------

/** The request, API and folder tabs of what goes with `items` (a folder's requests, an API's everything). */
function tabsOf(items: readonly Picked[]): string[] {
  const project = items[0]?.project;
  const tree = project ? projectByRoot(project) : undefined;
  if (!tree) return [];
  const gone = new Set<string>();
  const parentOf = new Map(tree.items.flatMap((i) => ('parent' in i ? [[i.id, i.parent] as const] : [])));
  const under = (id: string): boolean => {
    for (let at: string | undefined = id; at; at = parentOf.get(at)) if (items.some((i) => i.id === at)) return true;
    return false;
  };
  for (const item of tree.items) if ((item.kind === 'request' || item.kind === 'api' || item.kind === 'folder') && under(item.id)) gone.add(item.id);
  return tabs.value.filter((t) => t.project === project && (t.kind === 'request' || t.kind === 'api' || t.kind === 'folder') && gone.has(t.itemId)).map((t) => t.id);
}

/** Delete… in the app's own dialog; what goes can be put back for 30 s from the toast. */
export function deleteDialog(items: readonly Picked[]): void {
  if (items.length === 0) return;
  const label = describe(items);
  const holds = items.some((i) => i.kind !== 'request');
  openCustom({
    title: items.length === 1 ? `Delete ${items[0]!.kind === 'api' ? 'API' : items[0]!.kind}` : `Delete ${items.length} items`,
    render: (close) => (
      <div class="dialog-body">
        <p>
          Delete {label}?{' '}
          {holds ? 'Its files, and everything it holds, are removed from the project folder.' : 'Its file and its examples are removed from the project folder.'}
        </p>
        <p class="muted">You can undo this for 30 seconds.</p>
        <footer class="dialog-footer">
          <button class="button" onClick={close}>
            Cancel
          </button>
          <button
            class="button danger"
            ref={(el) => el?.focus()}
            onClick={() => {
              close();
              void deleteItems(items);
            }}
          >
            Delete
          </button>
        </footer>
      </div>
    ),
  });
}

async function deleteItems(items: readonly Picked[]): Promise<void> {
  const project = items[0]!.project;
  // Their tabs close first: one with edits asks (and Cancel keeps everything).
  if (!(await closeTabs(tabsOf(items)))) return;
  try {
    const done = await call('tree.delete', { project, items: items.map(refOf) });
    clearPicked();
    const label = describe(items);
    if (!done.undo) {
      toast('warning', `Deleted ${label}: too large to keep for Undo.`);
      return;
    }
    const undo = done.undo;
    toast('info', `Deleted ${label}.`, done.undoMs, {
      action: {
        label: 'Undo',
        run: () =>
          void call('tree.undoDelete', { project, undo }).then(
            () => toast('success', `Restored ${label}.`),
            failed,
          ),
      },
    });
  } catch (err) {
    failed(err);
  }
}

// --- duplicate and move -------------------------------------------------------------------

export async function duplicateItem(item: Picked): Promise<void> {
  try {
    const { id } = await call('tree.duplicate', { project: item.project, item: refOf(item) });
    selectedKey.value = rowKey(item.project, id);
    clearPicked();
    if (item.kind === 'request') {
      const copy = projectByRoot(item.project)?.items.find((i) => i.id === id);
      if (copy) openItem(item.project, copy, { preview: true });
    }
  } catch (err) {
    failed(err);
  }
}

/** Moves items to `parent` before `before` (null: at its end); the rows they had follow them. */
export async function moveItems(items: readonly Picked[], parent: string, before: string | null): Promise<void> {
  if (items.length === 0) return;
  const project = items[0]!.project;
  try {
    const { moved } = await call('tree.move', { project, items: items.map(refOf), parent, before });
    followIds(project, moved, expanded);
    if (parent !== PROJECT_PARENT) {
      expand(rowKey(project, parent.split('/')[0]!));
      expand(rowKey(project, parent));
    }
  } catch (err) {
    failed(err);
  }
}

/** Alt+Up / Alt+Down: one place up or down among the siblings. */
export function stepItems(items: readonly Picked[], step: -1 | 1): void {
  const tree = items[0] ? projectByRoot(items[0].project) : undefined;
  if (!tree) return;
  const target = stepTarget(tree, items.map(refOf), step);
  if (target) void moveItems(items, target.parent, target.before);
}

/** Move to…: a folder or API of the project, picked from a filtered list; the items go to its end. */
export function moveToDialog(items: readonly Picked[]): void {
  const tree = items[0] ? projectByRoot(items[0].project) : undefined;
  if (!tree || items.some((i) => i.kind === 'api')) return;
  const folders = items.filter((i) => i.kind === 'folder').map((i) => i.id);
  const destinations: { id: string; label: string; depth: number }[] = [];
  const walk = (parent: string, depth: number) => {
    for (const item of siblingsIn(tree, parent)) {
      if (item.kind === 'request') continue;
      if (folders.some((f) => item.id === f || item.id.startsWith(`${f}/`))) continue;
      const name = tree.items.find((i) => i.id === item.id)?.name ?? item.id;
      destinations.push({ id: item.id, label: name, depth });
      walk(item.id, depth + 1);
    }
  };
  walk(PROJECT_PARENT, 0);
  openCustom({
    title: `Move ${describe(items)} to…`,
    render: (close) => <MoveToPicker destinations={destinations} current={new Set(items.map((i) => parentIn(tree, refOf(i)) ?? ''))} onPick={(id) => { close(); void moveItems(items, id, null); }} onCancel={close} />,
  });
}

function MoveToPicker({ destinations, current, onPick, onCancel }: { destinations: { id: string; label: string; depth: number }[]; current: Set<string>; onPick(id: string): void; onCancel(): void }) {
  const filter = useSignal('');
  const needle = filter.value.trim().toLowerCase();
  const shown = needle ? destinations.filter((d) => d.label.toLowerCase().includes(needle)) : destinations;
  return (
    <div class="dialog-body move-to">
      <input
        aria-label="Filter folders"
        placeholder="Filter folders and APIs"
        value={filter.value}
        ref={(el) => el?.focus()}
        onInput={(e) => (filter.value = (e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && shown.length > 0) {
            e.preventDefault();
            onPick(shown[0]!.id);
          }
        }}
      />
      <ul class="move-to-list" role="listbox" aria-label="Destinations">
        {shown.map((d) => (
          <li key={d.id} role="option" aria-selected={false} style={{ paddingLeft: `${8 + (needle ? 0 : d.depth) * 14}px` }} class={current.has(d.id) ? 'muted' : ''} onClick={() => onPick(d.id)}>
            {d.depth === 0 ? `API ${d.label}` : d.label}
            {current.has(d.id) && ' (where it is)'}
          </li>
        ))}
        {shown.length === 0 && <li class="muted">No folder or API matches.</li>}
      </ul>
      <footer class="dialog-footer">
        <button class="button" onClick={onCancel}>
          Cancel
        </button>
      </footer>
    </div>
  );
}

// --- projects -----------------------------------------------------------------------------

/** Remove from workspace: the project closes and leaves the recent list; its folder stays. Undo opens it again. */
export function forgetProjectDialog(project: string, name: string): void {
  openCustom({
    title: 'Remove project from workspace',
    render: (close) => (
      <div class="dialog-body">
        <p>Remove "{name}" from this workspace? It closes and leaves the recent projects; its folder and files stay as they are.</p>
        <footer class="dialog-footer">
          <button class="button" onClick={close}>
            Cancel
          </button>
          <button
            class="button danger"
            onClick={() => {
              close();
              void forgetProject(project, name);
            }}
          >
            Remove
          </button>
        </footer>
      </div>
    ),
  });
}

async function forgetProject(project: string, name: string): Promise<void> {
  await closeProject(project);
  // Still open: a tab with edits asked, and the user chose Cancel.
  if (projectByRoot(project)) return;
  try {
    await call('workspace.forgetProject', { project });
    toast('info', `Removed ${name} from the workspace.`, 30_000, { action: { label: 'Undo', run: () => void openProject(project) } });
  } catch (err) {
    failed(err);
  }
}

// --- menus and commands -------------------------------------------------------------------

/** The context menu's tree edits for `items` (the row clicked, or the picked rows it is one of). */
export function treeMenu(items: readonly Picked[]): MenuItem[] {
  if (items.length === 0) return [];
  const one = items.length === 1 ? items[0]! : null;
  const out: MenuItem[] = [];
  if (one && one.kind !== 'request') out.push({ label: 'New folder…', keys: NEW_FOLDER_KEYS, run: () => newFolderDialog(one.project, one.id) });
  if (one) out.push({ label: 'Rename…', keys: RENAME_KEYS, run: () => renameDialog(one) });
  if (one && one.kind !== 'api') out.push({ label: 'Duplicate', keys: DUPLICATE_KEYS, run: () => void duplicateItem(one) });
  if (!items.some((i) => i.kind === 'api')) out.push({ label: 'Move to…', keys: MOVE_TO_KEYS, run: () => moveToDialog(items) });
  out.push({ label: 'Move up', keys: 'Alt+ArrowUp', run: () => stepItems(items, -1) });
  out.push({ label: 'Move down', keys: 'Alt+ArrowDown', run: () => stepItems(items, 1) });
  out.push({ label: one ? `Delete ${one.kind === 'api' ? 'API' : one.kind}…` : `Delete ${items.length} items…`, keys: DELETE_KEYS, danger: true, run: () => deleteDialog(items) });
  return out;
}

/** The project row's own: rename it, remove it from the workspace. */
export function projectMenu(project: string): MenuItem[] {
  const tree = projectByRoot(project);
  if (!tree) return [];
  return [
    { label: 'Rename project…', run: () => renameDialog({ kind: 'project', id: '@project', project, name: tree.name }) },
    { label: 'Remove from workspace…', danger: true, run: () => forgetProjectDialog(project, tree.name) },
  ];
}

const NEW_FOLDER_KEYS = `${mod}+Alt+F`;
const RENAME_KEYS = `${mod}+Alt+R`;
const DUPLICATE_KEYS = `${mod}+Alt+D`;
const MOVE_TO_KEYS = `${mod}+Alt+M`;
const DELETE_KEYS = 'Alt+Delete';

/** The focused tree item's project, when it has one open. */
const focused = () => actedOn();
/** Keys act while the sidebar is where the user is; the palette lists them whenever they apply. */
const inTree = () => treeActive.value && focused().length > 0;

export function registerTreeEdits(): void {
  // Where the user last was: the sidebar, or anywhere else (the palette and dialogs keep it as it is).
  window.addEventListener('focusin', (e) => {
    const target = e.target as Element | null;
    if (!target?.closest) return;
    if (target.closest('.sidebar')) treeActive.value = true;
    else if (!target.closest('.palette, .overlay, .context-menu')) treeActive.value = false;
  });
  const single = () => (focused().length === 1 ? focused()[0]! : null);
  registerCommands([
    {
      id: 'tree.newFolder',
      title: 'New folder…',
      keys: NEW_FOLDER_KEYS,
      when: () => inTree() && single() !== null,
      run: () => {
        const item = single()!;
        const parent = item.kind === 'request' ? (parentIn(projectByRoot(item.project)!, refOf(item)) ?? item.id) : item.id;
        newFolderDialog(item.project, parent);
      },
    },
    { id: 'tree.rename', title: 'Rename…', keys: RENAME_KEYS, when: () => inTree() && single() !== null, run: () => renameDialog(single()!) },
    { id: 'tree.duplicate', title: 'Duplicate', keys: DUPLICATE_KEYS, when: () => inTree() && single()?.kind !== 'api' && single() !== null, run: () => void duplicateItem(single()!) },
    { id: 'tree.delete', title: 'Delete…', keys: DELETE_KEYS, when: inTree, run: () => deleteDialog(focused()) },
    { id: 'tree.moveUp', title: 'Move up', keys: 'Alt+ArrowUp', when: inTree, run: () => stepItems(focused(), -1) },
    { id: 'tree.moveDown', title: 'Move down', keys: 'Alt+ArrowDown', when: inTree, run: () => stepItems(focused(), 1) },
    { id: 'tree.moveTo', title: 'Move to…', keys: MOVE_TO_KEYS, when: () => inTree() && !focused().some((i) => i.kind === 'api'), run: () => moveToDialog(focused()) },
    {
      id: 'folder.settings',
      title: 'Folder settings…',
      when: () => folderInFocus() !== null,
      run: () => {
        const { project, folder } = folderInFocus()!;
        openItem(project, folder);
      },
    },
  ]);
}
