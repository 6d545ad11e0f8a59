import { projects, workspace } from '../state/app.js';
import { mod } from '../state/commands.js';
import { newApiDialog, openProject, openProjectDialog } from '../state/actions.js';
import { newRequestDialog } from '../components/NewRequestDialog.js';

export function Welcome() {
  const recent = (workspace.value?.recentProjects ?? []).filter((p) => !projects.value.some((open) => open.root === p));
  return (
    <div class="welcome">
      <h1>Parley</h1>
      <p class="lede">Send requests, check every JSON response against its contract, mock what is not built yet.</p>
      <div class="welcome-grid">
        <section>
          <h3>Start</h3>
          <button class="link-button" onClick={() => newRequestDialog()}>New request…</button>
          <button class="link-button" onClick={() => newApiDialog()}>New API…</button>
          <button class="link-button" onClick={openProjectDialog}>Open project folder…</button>
        </section>
        <section>
          <h3>Recent</h3>
          {recent.length === 0 && <p class="muted">Nothing yet.</p>}
          {recent.slice(0, 6).map((path) => (
            <button key={path} class="link-button" title={path} onClick={() => void openProject(path)}>
              {path.split(/[\\/]/).pop()}
              <span class="muted"> {path}</span>
            </button>
          ))}
        </section>
        <section>
          <h3>Keys</h3>
          <p>
            <kbd>{mod}+Shift+P</kbd> command palette
          </p>
          <p>
            <kbd>{mod}+Enter</kbd> send the request
          </p>
          <p>
            <kbd>{mod}+S</kbd> save
          </p>
        </section>
      </div>
    </div>
  );
}
