/** Boots the UI: connects to the supervisor, loads what is open, renders the shell. */
import { render } from 'preact';
import './styles/app.css';
import { App } from './App.js';
import { connect } from './bus.js';
import { appInfo, childStatus, connection, peer, projects, workspace } from './state/app.js';
import { receiveProjectChange, resetTrees, takeTree } from './state/project-trees.js';
import { toast } from './state/toasts.js';
import { openCustom } from './state/overlays.js';
import { expand } from './state/tree.js';
import { rowKey } from './components/tree-rows.js';
import { registerCoreCommands } from './commands.js';
import { openProject } from './state/actions.js';
import { registerEditors } from './editors/index.js';
import { onWorkspaceChanged } from './state/drafts.js';
import { watchSecretStorage } from './state/secret-storage.js';

registerEditors();
registerCoreCommands();

async function start(): Promise<void> {
  connection.value = 'connecting';
  let current;
  try {
    current = await connect((message) => console.warn(`bus: ${message}`));
  } catch {
    connection.value = 'disconnected';
    setTimeout(() => void start(), 1000);
    return;
  }
  peer.value = current;
  connection.value = 'connected';
  current.onClose(() => {
    peer.value = null;
    connection.value = 'disconnected';
    setTimeout(() => void start(), 1000);
  });
  resetTrees();
  current.on('project.changed', receiveProjectChange);
  current.on('workspace.changed', (ws) => {
    workspace.value = ws;
    onWorkspaceChanged(ws);
  });
  current.on('notice', ({ level, message }) => toast(level, message));
  watchSecretStorage(current);
  current.on('browser.open', ({ url, reason, opened }) =>
    openCustom({
      title: reason,
      render: (close) => (
        <div class="dialog-body">
          <p>{opened ? 'Your browser was opened to continue. If it did not appear, open this link:' : 'Open this link in your browser to continue:'}</p>
          <p>
            <a href={url} target="_blank" rel="noopener noreferrer" class="mono break">
              {url}
            </a>
          </p>
          <p class="muted">Parley waits for the redirect back to 127.0.0.1, then sends the request.</p>
          <footer class="dialog-footer">
            <button class="button" onClick={close}>
              Close
            </button>
          </footer>
        </div>
      ),
    }),
  );
  current.on('child.status', ({ name, state, message }) => {
    childStatus.value = { ...childStatus.value, [name]: { state, message } };
    if (state === 'restarting' && message) toast('warning', message);
  });

  const [info, ws] = await Promise.all([current.call('app.info', {}), current.call('workspace.get', {})]);
  appInfo.value = info;
  workspace.value = ws;
  const trees = await Promise.all(info.projects.map((root) => current.call('project.tree', { project: root })));
  const first = projects.value.length === 0;
  // Through takeTree: a delta that came before its tree waits for it and is applied after.
  projects.value = [];
  for (const tree of trees) takeTree(tree);
  if (first) for (const tree of trees) expand(rowKey(tree.root, '@project'));
  // Projects the command line is still loading: joined, and shown as each is ready.
  await Promise.all(info.opening.map((root) => openProject(root)));
  document.body.dataset.ready = 'true';
}

render(<App />, document.getElementById('app')!);
void start();
