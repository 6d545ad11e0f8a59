/** User actions shared by the tree, the palette and the editors. */
import { takeTree } from './project-trees.js';
import type { TreeItem } from '../../../../protocol/model/project.js';
import { projects, workspace } from './app.js';
import { attempt, call, openProjectTree } from './rpc.js';
import { openTab, tabs } from './tabs.js';
import { closeTabs } from './draft-actions.js';
import { openForm, type MenuItem } from './overlays.js';
import { toast } from './toasts.js';
import { expand } from './tree.js';
import { rowKey } from '../components/tree-rows.js';
import { newRequestDialog } from '../components/NewRequestDialog.js';

type Openable = TreeItem | { kind: 'project'; id: string; name: string } | { kind: 'group'; id: string; name: string };

export { METHODS } from './methods.js';

/** Opens an item's editor; `preview` puts it in the preview tab (a single click in the sidebar). */
export function openItem(project: string, item: Openable, options: { preview?: boolean } = {}): void {
  if (item.kind === 'request') openTab({ kind: 'request', project, itemId: item.id, title: item.name, method: item.method }, options);
  else if (item.kind === 'api') openTab({ kind: 'api', project, itemId: item.id, title: item.name }, options);
  else if (item.kind === 'folder') openTab({ kind: 'folder', project, itemId: item.id, title: item.name }, options);
  else if (item.kind === 'mock') openTab({ kind: 'mock', project, itemId: item.id, title: item.name }, options);
  else if (item.kind === 'project') openTab({ kind: 'project', project, itemId: '@project', title: item.name }, options);
}

/**
 * Context-menu actions of a tree item; other features add theirs through `menuContributions`.
 * `edits`: the tree edits for the item, or for the picked rows it is one of (tree/tree-edits.tsx).
 */
export function itemActions(project: string, item: Openable, edits: MenuItem[] = []): MenuItem[] {
  const actions: MenuItem[] = [];
  if (item.kind === 'project') {
    actions.push({ label: 'New API…', run: () => newApiDialog(project) });
    actions.push({ label: 'Project properties', run: () => openItem(project, item) });
  }
  if (item.kind === 'api' || item.kind === 'folder') {
    actions.push({ label: 'New request…', run: () => newRequestDialog(project, item.id) });
  }
  // A gRPC API (definition format `protobuf`, protocol/grpc/definition.ts, kept out of the page for protobufjs) calls its methods (docs/grpc.md).
  if (item.kind === 'api' && item.definitionFormat === 'protobuf') actions.push({ label: 'New gRPC request…', run: () => newRequestDialog(project, item.id, 'grpc') });
  if (item.kind === 'api') actions.push({ label: 'Open API settings', run: () => openItem(project, item) });
  if (item.kind === 'folder') actions.push({ label: 'Folder settings…', run: () => openItem(project, item) });
  for (const contribute of menuContributions) actions.push(...contribute(project, item));
  if (item.kind === 'request') actions.push({ label: 'Open', run: () => openItem(project, item) });
  actions.push(...edits);
  if (item.kind === 'project') actions.push({ label: 'Close project', run: () => void closeProject(project) });
  return actions;
}

export const menuContributions: ((project: string, item: Openable) => MenuItem[])[] = [];

/** Opens a project; `quiet`: a failure is told elsewhere (a session's project: the session's notice). */
export async function openProject(path: string, { quiet = false }: { quiet?: boolean } = {}): Promise<void> {
  const tree = await openProjectTree(path).catch((err: Error) => void (quiet || toast('error', err.message)));
  if (!tree) return;
  takeTree(tree);
  expand(rowKey(tree.root, '@project'));
}

/** Closes a project and its tabs, asking first about any with unsaved edits. */
export async function closeProject(root: string): Promise<void> {
  if (!(await closeTabs(tabs.value.filter((t) => t.project === root).map((t) => t.id)))) return;
  await attempt('project.close', { project: root });
  projects.value = projects.value.filter((p) => p.root !== root);
}

export function openProjectDialog(): void {
  const recent = workspace.value?.recentProjects ?? [];
  openForm({
    title: 'Open project folder',
    submitLabel: 'Open',
    busyLabel: 'Opening…',
    fields: [{ name: 'path', label: 'Folder', value: recent[0] ?? '', placeholder: '/path/to/project', required: true }],
    onSubmit: async ({ path }) => {
      try {
        const tree = await openProjectTree(path!);
        takeTree(tree);
        expand(rowKey(tree.root, '@project'));
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
}

export function newApiDialog(project?: string): void {
  const target = project ?? projects.value[0]?.root;
  if (!target) {
    toast('warning', 'Open a project first.');
    return;
  }
  openForm({
    title: 'New API',
    submitLabel: 'Create API',
    fields: [
      { name: 'name', label: 'Name', placeholder: 'Payments API', required: true },
      { name: 'baseUrl', label: 'Base URL', placeholder: 'https://api.example.com/v1' },
    ],
    onSubmit: async ({ name, baseUrl }) => {
      try {
        const api = await call('api.create', { project: target, name: name!.trim(), baseUrl: (baseUrl ?? '').trim() });
        expand(rowKey(target, '@project'));
        openTab({ kind: 'api', project: target, itemId: api.id, title: api.name });
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
}


