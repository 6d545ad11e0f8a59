/** Boots the UI: connects to the supervisor, loads what is open, renders the shell. */
import { render } from 'preact';
import './styles/app.css';
import { App } from './App.js';
import { askServer, connect, inElectron } from './bus.js';
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
import { watchCaptures } from './state/captured.js';
import { call } from './state/rpc.js';
import { beginRestore, finishRestore, projectArrived, sessionReconnected } from './state/session.js';

registerEditors();
registerCoreCommands();

/** Whether this page has restored the last session (once per page, not at each reconnect). */
let restored = false;
/** How often a page that finds nothing at its address has asked again. */
let unanswered = 0;

async function start(): Promise<void> {
  connection.value = 'connecting';
  let current;
  try {
    current = await connect((message) => console.warn(`bus: ${message}`));
  } catch {
    void lost();
    return;
  }
  peer.value = current;
  connection.value = 'connected';
  unanswered = 0;
  current.onClose(() => {
    peer.value = null;
    void lost();
  });
  resetTrees();
  current.on('project.changed', receiveProjectChange);
  current.on('workspace.changed', (ws) => {
    workspace.value = ws;
    onWorkspaceChanged(ws);
  });
  current.on('notice', ({ level, message }) => toast(level, message));
  watchSecretStorage(current);
  watchCaptures(current);
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

  const [info, ws, session] = await Promise.all([current.call('app.info', {}), current.call('workspace.get', {}), restored ? null : call('session.get', {})]);
  appInfo.value = info;
  workspace.value = ws;
  const trees = await Promise.all(info.projects.map((root) => current.call('project.tree', { project: root })));
  const first = projects.value.length === 0;
  // Through takeTree: a delta that came before its tree waits for it and is applied after.
  projects.value = [];
  for (const tree of trees) takeTree(tree);
  if (first) for (const tree of trees) expand(rowKey(tree.root, '@project'));
  // The last session's tabs: now for the projects here, with its tree for each still opening.
  if (session) {
    for (const message of session.notices) toast('warning', message, 15_000);
    beginRestore(session);
  }
  // Projects the command line or the session is still loading: joined, and shown as each is
  // ready. One of the session's that fails is told by the session's notice, not twice.
  await Promise.all(info.opening.map((root) => openProject(root, { quiet: session?.projects.includes(root) ?? false }).then(projectArrived)));
  if (session) {
    finishRestore();
    restored = true;
  } else sessionReconnected();
  document.body.dataset.ready = 'true';
}

/**
 * The bus closed, or did not open. In a browser, the server at this address is asked whether it
 * still knows this page's token: yes, reconnect; no, Parley was restarted (a new token this page
 * cannot have: the banner says where the new address is, and nothing is retried); nothing
 * answers, Parley stopped (asked again now and then, in case it starts again at this address).
 */
async function lost(): Promise<void> {
  const answer = inElectron() ? 'alive' : await askServer();
  if (answer === 'alive') {
    connection.value = 'disconnected';
    setTimeout(() => void start(), 1000);
  } else if (answer === 'restarted') {
    connection.value = 'restarted';
  } else {
    connection.value = 'stopped';
    setTimeout(() => void lost(), Math.min(15_000, 1000 * 2 ** unanswered++));
  }
}

render(<App />, document.getElementById('app')!);
void start();
