/** The commands every build has; features register theirs beside their code. */
import { registerCommands, mod } from './state/commands.js';
import { newApiDialog, newRequestDialog, openProjectDialog } from './state/actions.js';
import { attempt } from './state/rpc.js';
import { theme } from './state/app.js';
import { activeTabId, closeTab, openTab } from './state/tabs.js';

export function registerCoreCommands(): void {
  registerCommands([
    { id: 'request.new', title: 'New request…', run: () => newRequestDialog() },
    { id: 'api.new', title: 'New API…', run: () => newApiDialog() },
    { id: 'project.open', title: 'Open project folder…', run: openProjectDialog },
    {
      id: 'theme.toggle',
      title: 'Toggle light / dark theme',
      run: () => void attempt('workspace.setPreferences', { theme: theme.value === 'dark' ? 'light' : 'dark' }),
    },
    { id: 'environments.open', title: 'Environments and globals', run: () => openTab({ kind: 'environments', project: '', itemId: '@environments', title: 'Environments' }) },
    { id: 'preferences.open', title: 'Preferences', run: () => openTab({ kind: 'preferences', project: '', itemId: '@preferences', title: 'Preferences' }) },
    { id: 'theme.system', title: 'Use the system theme', run: () => void attempt('workspace.setPreferences', { theme: 'system' }) },
    { id: 'tab.close', title: 'Close tab', keys: `${mod}+Alt+W`, when: () => activeTabId.value !== null, run: () => closeTab(activeTabId.value!) },
  ]);
}
