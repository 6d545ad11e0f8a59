/**
 * Wires History, Compare, examples and cURL into the shell: the History tab (Ctrl+Shift+H, the
 * palette, a project's row), Compare tabs, Import cURL (the palette, API and folder rows, the
 * request editor) and Copy as cURL / Save as example for the request in the active tab.
 */
import { registerEditor } from '../editors/registry.js';
import { menuContributions } from '../state/actions.js';
import { projects } from '../state/app.js';
import { mod, registerCommands } from '../state/commands.js';
import { requestTabState } from '../state/request-tabs.js';
import { tabRequestKind } from '../kinds/index.js';
import { activeTab, openTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { CompareView } from './CompareView.js';
import { saveAsExample } from './Examples.js';
import { HistoryTab } from './HistoryTab.js';
import { openImportCurl } from './ImportCurlDialog.js';
import { copyRequestAsCurl } from './RequestCurlButton.js';

export function openHistory(project?: string): void {
  const root = project ?? (activeTab.value?.project || projects.value[0]?.root);
  if (!root) {
    toast('warning', 'Open a project first: History lists the sends of a project.');
    return;
  }
  openTab({ kind: 'history', project: root, itemId: '@history', title: 'History' });
}

const activeRequest = () => {
  const tab = activeTab.value;
  return tab?.kind === 'request' && tabRequestKind(tab) === 'http' ? requestTabState(tab) : null;
};

export function registerHistory(): void {
  registerEditor('history', HistoryTab);
  registerEditor('compare', CompareView);
  registerCommands([
    { id: 'history.open', title: 'Show History', keys: `${mod}+Shift+H`, run: () => openHistory() },
    {
      id: 'curl.import',
      title: 'Import cURL…',
      // Into the API or folder of the selected row or the active tab (RequestTarget's default).
      run: () => openImportCurl(),
    },
    { id: 'request.copyCurl', title: 'Copy request as cURL…', when: () => activeRequest() !== null, run: () => copyRequestAsCurl(activeRequest()!) },
    {
      id: 'examples.save',
      title: 'Save response as example',
      when: () => activeRequest()?.exchange.value != null,
      run: () => {
        const state = activeRequest();
        if (state?.exchange.value) void saveAsExample(state, state.exchange.value);
      },
    },
  ]);
  menuContributions.push((project, item) => {
    if (item.kind === 'project') return [{ label: 'History', keys: `${mod}+Shift+H`, run: () => openHistory(project) }];
    if (item.kind === 'api' || item.kind === 'folder') return [{ label: 'Import cURL…', run: () => openImportCurl(project, item.id) }];
    return [];
  });
}
