/**
 * Wires the Runner into the shell: its tab, "Run project… / Run API… / Run folder…" in the tree's
 * context menu, and "Run requests in the Runner…" in the palette (which asks what to run, the
 * active tab's place or the focused tree row first).
 */
import { PROJECT_SCOPE, childrenByParent } from '../../../../protocol/project/tree-order.js';
import type { ProjectTree } from '../../../../protocol/model/project.js';
import { registerEditor } from '../editors/registry.js';
import { menuContributions } from '../state/actions.js';
import { projectByRoot, projects } from '../state/app.js';
import { registerCommands } from '../state/commands.js';
import { openForm } from '../state/overlays.js';
import { activeTab, openTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { actedOn, treeActive } from '../tree/selection.js';
import { RunnerView } from './RunnerView.js';
import { listenForRuns } from './runs.js';

/** Opens the runner of a project (PROJECT_SCOPE), an API or a folder. */
export function openRunner(project: string, scope: string, name: string): void {
  openTab({ kind: 'runner', project, itemId: scope, title: `Run ${name}` });
}

export function registerRunner(): void {
  registerEditor('runner', RunnerView);
  listenForRuns();
  menuContributions.push((project, item) => {
    if (item.kind === 'project') return [{ label: 'Run project…', run: () => openRunner(project, PROJECT_SCOPE, item.name) }];
    if (item.kind === 'api' || item.kind === 'folder') return [{ label: `Run ${item.kind === 'api' ? 'API' : 'folder'}…`, run: () => openRunner(project, item.id, item.name) }];
    return [];
  });
  registerCommands([{ id: 'runner.open', title: 'Run requests in the Runner…', when: () => projects.value.length > 0, run: chooseWhatToRun }]);
}

interface Target {
  project: string;
  scope: string;
  name: string;
  label: string;
}

/** The places that can be run: each open project, its APIs and its folders, in the tree's order. */
function targets(): Target[] {
  const out: Target[] = [];
  const several = projects.value.length > 1;
  for (const tree of projects.value) {
    const suffix = several ? ` (${tree.name})` : '';
    out.push({ project: tree.root, scope: PROJECT_SCOPE, name: tree.name, label: `Project ${tree.name}: every request` });
    for (const { id, path } of apisAndFolders(tree)) out.push({ project: tree.root, scope: id, name: path.at(-1)!, label: `${path.length === 1 ? 'API ' : ''}${path.join(' / ')}${suffix}` });
  }
  // Two places with the same label keep apart by a number.
  const seen = new Map<string, number>();
  for (const t of out) {
    const n = (seen.get(t.label) ?? 0) + 1;
    seen.set(t.label, n);
    if (n > 1) t.label = `${t.label} (${n})`;
  }
  return out;
}

function apisAndFolders(tree: ProjectTree): { id: string; path: string[] }[] {
  const out: { id: string; path: string[] }[] = [];
  const { children, roots } = childrenByParent(tree);
  const walk = (parent: string, path: string[]) => {
    for (const item of children.get(parent) ?? []) {
      if (item.kind !== 'folder') continue;
      out.push({ id: item.id, path: [...path, item.name] });
      walk(item.id, [...path, item.name]);
    }
  };
  for (const api of roots) {
    out.push({ id: api.id, path: [api.name] });
    walk(api.id, [api.name]);
  }
  return out;
}

/** Where the user is: the focused tree row while the sidebar is active, else the active tab's item. */
function here(): { project: string; id: string } | null {
  const focused = treeActive.value ? actedOn() : [];
  if (focused.length === 1) return { project: focused[0]!.project, id: focused[0]!.id };
  const tab = activeTab.value;
  if (!tab || !projectByRoot(tab.project)) return null;
  return { project: tab.project, id: tab.itemId };
}

function chooseWhatToRun(): void {
  const all = targets();
  if (all.length === 0) return void toast('warning', 'Open a project first.');
  const at = here();
  // A request's place is its parent: a folder or an API.
  const tree = at ? projectByRoot(at.project) : undefined;
  const item = tree?.items.find((i) => i.id === at!.id && i.kind !== 'mock');
  const scope = item?.kind === 'request' ? item.parent : (at?.id ?? '');
  const preferred = all.find((t) => t.project === at?.project && t.scope === scope) ?? all.find((t) => t.project === at?.project) ?? all[0]!;
  openForm({
    title: 'Run requests in the Runner',
    submitLabel: 'Open the Runner',
    fields: [{ name: 'target', label: 'Run', kind: 'select', value: preferred.label, options: all.map((t) => t.label) }],
    onSubmit: ({ target }) => {
      const chosen = all.find((t) => t.label === target);
      if (!chosen) return 'Choose what to run.';
      openRunner(chosen.project, chosen.scope, chosen.name);
    },
  });
}
