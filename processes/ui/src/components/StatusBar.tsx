import { appInfo, childStatus, connection, openingProjects, projects, theme, workspace } from '../state/app.js';
import { paletteOpen, mod } from '../state/commands.js';
import { attempt } from '../state/rpc.js';
import { MoonIcon, SunIcon } from './Icons.js';
import { openTab } from '../state/tabs.js';
import { VaultStatus } from './SecretStoreDialog.js';

const CONNECTION_LABELS = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Reconnecting…',
  restarted: 'Parley was restarted',
  stopped: 'Parley is not running',
} as const;

export function StatusBar() {
  const troubled = Object.entries(childStatus.value).filter(([, s]) => s.state !== 'running');
  return (
    <footer class="statusbar">
      <span class={`conn conn-${connection.value}`} title={`Connection to the Parley supervisor: ${connection.value}`}>
        <span class="dot" />
        {CONNECTION_LABELS[connection.value]}
      </span>
      {troubled.map(([name, s]) => (
        <span key={name} class="status-warn" title={s.message ?? ''}>
          {name}: {s.state}
        </span>
      ))}
      <span class="status-item">{projects.value.length === 1 ? projects.value[0]!.name : `${projects.value.length} projects`}</span>
      {openingProjects.value.length > 0 && (
        <span class="status-item opening" role="status" title={openingProjects.value.join('\n')}>
          <span class="spinner small" aria-hidden="true" />
          Opening {folderName(openingProjects.value[0]!)}
          {openingProjects.value.length > 1 ? ` and ${openingProjects.value.length - 1} more` : ''}…
        </span>
      )}
      <label class="status-item env-switch" title="Active environment: ${name} expands from it first">
        Env:
        <select
          aria-label="Active environment"
          value={workspace.value?.activeEnvironment ?? ''}
          onChange={(e) => {
            const id = (e.target as HTMLSelectElement).value;
            if (id === '@manage') {
              (e.target as HTMLSelectElement).value = workspace.value?.activeEnvironment ?? '';
              openTab({ kind: 'environments', project: '', itemId: '@environments', title: 'Environments' });
              return;
            }
            void attempt('environments.setActive', id ? { id } : {});
          }}
        >
          <option value="">No environment</option>
          {workspace.value?.environments.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
          <option value="@manage">Manage environments…</option>
        </select>
      </label>
      <span class="spacer" />
      <VaultStatus />
      <button class="status-button" onClick={() => (paletteOpen.value = true)} title="Command palette">
        {mod}+Shift+P
      </button>
      <button
        class="status-button"
        aria-label={`Switch to ${theme.value === 'dark' ? 'light' : 'dark'} theme`}
        onClick={() => void attempt('workspace.setPreferences', { theme: theme.value === 'dark' ? 'light' : 'dark' })}
      >
        {theme.value === 'dark' ? <SunIcon /> : <MoonIcon />}
      </button>
      <span class="status-item muted">Parley {appInfo.value?.version ?? ''}</span>
    </footer>
  );
}

/** The last segment of a folder path, as typed (either separator, trailing ones ignored). */
function folderName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}
