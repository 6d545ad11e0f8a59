/** The commands every build has; features register theirs beside their code. */
import { registerCommands, mod, paletteOpen, PALETTE_COMMAND } from './state/commands.js';
import { closeProject, newApiDialog, openItem, openProjectDialog } from './state/actions.js';
import { newRequestDialog } from './components/NewRequestDialog.js';
import { attempt } from './state/rpc.js';
import { projectByRoot, projects, theme } from './state/app.js';
import { activeTab, activeTabId, cycleTab, keepTab, openTab, tabs } from './state/tabs.js';
import { closeTabs, saveActiveTab, saveAll } from './state/draft-actions.js';
import { draftOf } from './state/drafts.js';
import { dirtyTabs } from './state/tabs.js';
import { edit, requestTabState } from './state/request-tabs.js';
import { sendOrStopTab, tabRequestKind } from './kinds/index.js';
import { formatBody } from './editors/request/format.js';
import { dismissTopic, toast } from './state/toasts.js';
import { FORMAT_TOPIC } from './editors/request/BodyEditor.js';
import { focusSidebarFilter, sidebarHidden, toggleResponseBeside } from './state/layout.js';
import { openForm } from './state/overlays.js';
import { newMockDialog } from './editors/mock/NewMock.js';
import { mockTabState, startOrStop } from './editors/mock/mock-tabs.js';

const requestTab = () => (activeTab.value?.kind === 'request' ? activeTab.value : null);
/** An HTTP request's tab: what its body's commands work on. */
const httpTab = () => {
  const tab = requestTab();
  return tab && tabRequestKind(tab) === 'http' ? tab : null;
};

export function registerCoreCommands(): void {
  registerCommands([
    { id: PALETTE_COMMAND, title: 'Show all commands', keys: `${mod}+Shift+P`, run: () => void (paletteOpen.value = !paletteOpen.value) },
    { id: 'file.save', title: 'Save', keys: `${mod}+S`, when: () => !!activeTabId.value && !!draftOf(activeTabId.value), run: () => void saveActiveTab() },
    { id: 'file.saveAll', title: 'Save all', keys: `${mod}+Alt+S`, when: () => dirtyTabs.value.size > 0, run: () => void saveAll() },
    {
      id: 'request.send',
      title: 'Send request (or stop it)',
      keys: `${mod}+Enter`,
      when: () => requestTab() !== null,
      run: () => sendOrStopTab(requestTab()!),
    },
    { id: 'request.format', title: 'Format body', keys: 'Shift+Alt+F', when: () => httpTab() !== null, run: formatActiveBody },
    { id: 'request.new', title: 'New request…', keys: `${mod}+Alt+N`, run: () => newRequestDialog() },
    { id: 'api.new', title: 'New API…', run: () => newApiDialog(activeTab.value?.project || undefined) },
    { id: 'mock.new', title: 'New Mock…', run: newMockCommand },
    { id: 'mock.startStop', title: 'Start / stop mock', when: () => activeTab.value?.kind === 'mock', run: () => void startOrStop(mockTabState(activeTab.value!)) },
    { id: 'project.open', title: 'Open project folder…', keys: `${mod}+O`, run: openProjectDialog },
    {
      id: 'project.properties',
      title: 'Project properties',
      when: () => projects.value.length > 0,
      run: () => {
        const tree = projectByRoot(activeTab.value?.project ?? '') ?? projects.value[0]!;
        openItem(tree.root, { kind: 'project', id: '@project', name: tree.name });
      },
    },
    { id: 'project.close', title: 'Close project', when: () => !!projectByRoot(activeTab.value?.project ?? ''), run: () => void closeProject(activeTab.value!.project) },
    { id: 'environments.open', title: 'Environments and globals', keys: `${mod}+Alt+E`, run: () => openTab({ kind: 'environments', project: '', itemId: '@environments', title: 'Environments' }) },
    { id: 'preferences.open', title: 'Preferences', keys: `${mod}+,`, run: () => openTab({ kind: 'preferences', project: '', itemId: '@preferences', title: 'Preferences' }) },
    {
      id: 'theme.toggle',
      title: 'Toggle light / dark theme',
      run: () => void attempt('workspace.setPreferences', { theme: theme.value === 'dark' ? 'light' : 'dark' }),
    },
    { id: 'theme.system', title: 'Use the system theme', run: () => void attempt('workspace.setPreferences', { theme: 'system' }) },
    { id: 'tab.close', title: 'Close tab', keys: `${mod}+Alt+W`, when: () => activeTabId.value !== null, run: () => void closeTabs([activeTabId.value!]) },
    { id: 'tab.closeOthers', title: 'Close other tabs', when: () => tabs.value.length > 1, run: () => void closeTabs(tabs.value.filter((t) => t.id !== activeTabId.value).map((t) => t.id)) },
    { id: 'tab.closeAll', title: 'Close all tabs', when: () => tabs.value.length > 0, run: () => void closeTabs(tabs.value.map((t) => t.id)) },
    { id: 'tab.next', title: 'Next tab', keys: 'Alt+PageDown', when: () => tabs.value.length > 1, run: () => cycleTab(1) },
    { id: 'tab.previous', title: 'Previous tab', keys: 'Alt+PageUp', when: () => tabs.value.length > 1, run: () => cycleTab(-1) },
    { id: 'tab.keep', title: 'Keep this tab open (not a preview)', when: () => !!activeTab.value?.preview, run: () => keepTab(activeTabId.value!) },
    { id: 'layout.responseBeside', title: 'Show the response beside / below the request', run: toggleResponseBeside },
    { id: 'sidebar.toggle', title: 'Show / hide the sidebar', keys: `${mod}+B`, run: () => void (sidebarHidden.value = !sidebarHidden.value) },
    { id: 'sidebar.filter', title: 'Filter requests in the sidebar', keys: `${mod}+Shift+F`, run: focusSidebarFilter },
  ]);
}

function formatActiveBody(): void {
  const state = requestTabState(httpTab()!);
  const body = state.draft.value?.body;
  if (!body || body.kind !== 'raw') {
    toast('info', 'Only a raw JSON or XML body can be formatted.');
    return;
  }
  const result = formatBody(body.raw.language, body.raw.text);
  // One toast about the body's format at a time: pressing the keys again replaces it.
  if (!result.ok) return void toast('error', result.message, undefined, { topic: FORMAT_TOPIC });
  dismissTopic(FORMAT_TOPIC);
  if (result.text !== body.raw.text) edit(state, (r) => ({ ...r, body: { ...r.body, raw: { ...r.body.raw, text: result.text } } }));
}


/** New Mock… of the active tab's API, or of an API the user picks (a mock needs an imported definition). */
function newMockCommand(): void {
  const tab = activeTab.value;
  const tree = tab ? projectByRoot(tab.project) : undefined;
  if (tree && tab) {
    const byId = new Map(tree.items.map((i) => [i.id, i]));
    let item = byId.get(tab.itemId);
    while (item && item.kind !== 'api') item = 'parent' in item ? byId.get(item.parent) : undefined;
    if (item?.kind === 'api') return newMockDialog(tree.root, item.id, item.name);
  }
  const choices = projects.value.flatMap((p) => p.items.flatMap((i) => (i.kind === 'api' && i.hasDefinition ? [{ project: p.root, id: i.id, name: i.name, label: `${i.name} (${p.name})` }] : [])));
  if (choices.length === 0) {
    toast('warning', 'A mock serves an imported contract: import an OpenAPI document first (Import…).');
    return;
  }
  openForm({
    title: 'New Mock of which API?',
    submitLabel: 'Next',
    fields: [{ name: 'api', label: 'API', kind: 'select', options: choices.map((c) => c.label) }],
    onSubmit: ({ api }) => {
      const chosen = choices.find((c) => c.label === api);
      if (!chosen) return 'Choose an API.';
      // After this form has closed: the next one replaces it.
      setTimeout(() => newMockDialog(chosen.project, chosen.id, chosen.name));
    },
  });
}
