/**
 * Wires imports into the shell: Import… (Ctrl+I / Cmd+I, the palette, project and API rows) and
 * Update definition… (the palette, API rows with a definition, the API tab's Definition group).
 */
import { h } from 'preact';
import { apiSections } from '../editors/ApiEditor.js';
import { menuContributions } from '../state/actions.js';
import { projectByRoot, projects } from '../state/app.js';
import { mod, registerCommands } from '../state/commands.js';
import { openForm } from '../state/overlays.js';
import { activeTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { openImportDialog } from './ImportDialog.js';
import { openDefinitionUpdate } from './DefinitionUpdateDialog.js';
import { DefinitionSection } from './DefinitionSection.js';

export function registerImports(): void {
  registerCommands([
    { id: 'import.open', title: 'Import…', keys: `${mod}+I`, run: () => openImportDialog(activeTab.value?.project || undefined) },
    // SPEC "Import operations": HTTP client environment files have their own entry; they land in the workspace.
    { id: 'import.httpEnvironments', title: 'Import HTTP Client Environments…', run: () => openImportDialog(undefined, { format: 'http-env', tab: 'file' }) },
    { id: 'definition.update', title: 'Update definition…', run: updateDefinitionCommand },
  ]);
  menuContributions.push((project, item) => {
    const items = [];
    if (item.kind === 'project' || item.kind === 'api') items.push({ label: 'Import…', keys: `${mod}+I`, run: () => openImportDialog(project) });
    if (item.kind === 'api' && item.hasDefinition) items.push({ label: 'Update definition…', run: () => openDefinitionUpdate(project, item.id, item.name) });
    return items;
  });
  // First among the API tab's extra sections: the definition is what the others (mocks) build on.
  apiSections.unshift((project, api, reload) => h(DefinitionSection, { project, api, reload }));
}

interface ApiChoice {
  project: string;
  id: string;
  name: string;
}

/** The API of the active tab (an API tab or one of its requests), or the user is asked which. */
function updateDefinitionCommand(): void {
  const current = activeApi();
  if (current) return openDefinitionUpdate(current.project, current.id, current.name);
  const choices: ApiChoice[] = projects.value.flatMap((tree) => tree.items.flatMap((i) => (i.kind === 'api' && i.hasDefinition ? [{ project: tree.root, id: i.id, name: i.name }] : [])));
  if (choices.length === 0) {
    toast('warning', 'No open API was imported from a definition: import one with Import… first.');
    return;
  }
  const labels: string[] = [];
  for (const c of choices) {
    const base = `${c.name} (${projectByRoot(c.project)?.name ?? c.project})`;
    let label = base;
    // The form hands back the label: two APIs of one name in one project need telling apart.
    for (let n = 2; labels.includes(label); n++) label = `${base} ${n}`;
    labels.push(label);
  }
  openForm({
    title: 'Update definition of which API?',
    submitLabel: 'Preview update',
    fields: [{ name: 'api', label: 'API', kind: 'select', options: labels }],
    onSubmit: ({ api }) => {
      const chosen = choices[labels.indexOf(api ?? '')];
      if (!chosen) return 'Choose an API.';
      openDefinitionUpdate(chosen.project, chosen.id, chosen.name);
    },
  });
}

function activeApi(): ApiChoice | null {
  const tab = activeTab.value;
  if (!tab || (tab.kind !== 'api' && tab.kind !== 'request')) return null;
  const tree = projectByRoot(tab.project);
  if (!tree) return null;
  const byId = new Map(tree.items.map((i) => [i.id, i]));
  let item = byId.get(tab.itemId);
  // Up from a request through its folders to the API it belongs to.
  while (item && item.kind !== 'api') item = 'parent' in item ? byId.get(item.parent) : undefined;
  return item && item.kind === 'api' && item.hasDefinition ? { project: tree.root, id: item.id, name: item.name } : null;
}
