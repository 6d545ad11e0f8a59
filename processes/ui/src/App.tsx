import { useEffect } from 'preact/hooks';
import { activeTab } from './state/tabs.js';
import { connection, theme } from './state/app.js';
import { installKeyBindings, paletteOpen, PALETTE_COMMAND } from './state/commands.js';
import { customDialog, formDialog } from './state/overlays.js';
import { Sidebar } from './components/Sidebar.js';
import { TabBar } from './components/TabBar.js';
import { StatusBar } from './components/StatusBar.js';
import { CommandPalette } from './components/CommandPalette.js';
import { ContextMenu, Dialogs, Toasts } from './components/Overlays.js';
import { SecretStoreDialogLayer } from './components/SecretStoreDialog.js';
import { editors } from './editors/registry.js';
import { Welcome } from './editors/Welcome.js';
import { DraftBanner } from './components/DraftBanner.js';
import { Splitter } from './components/Splitter.js';
import { paneSize, sidebarHidden } from './state/layout.js';
import { guardWindowClose } from './state/draft-actions.js';
import { HTTP_LOG_KEYS, openHttpLog } from './http-log/register.js';
import { sessionHoldsEdits } from './state/session.js';
import { dirtyTabs } from './state/tabs.js';

export function App() {
  useEffect(() => {
    document.documentElement.dataset.theme = theme.value;
  }, [theme.value]);

  useEffect(() => guardWindowClose(!!window.parleyBridge), []);

  useEffect(() => installKeyBindings(() => formDialog.value !== null || customDialog.value !== null, new Set([PALETTE_COMMAND])), []);

  const tab = activeTab.value;
  const sidebarWidth = Math.max(160, Math.min(Math.round(innerWidth * 0.6), paneSize('sidebar', 280)));
  const Editor = tab ? editors.get(tab.kind) : undefined;
  return (
    <div class="shell">
      <ConnectionBanner />
      <header class="titlebar">
        <span class="logo">Parley</span>
        <button class="palette-trigger" onClick={() => (paletteOpen.value = true)}>
          Search commands…
        </button>
        <nav class="titlebar-nav" aria-label="Views">
          <button class="titlebar-link" title={`HTTP Log (${HTTP_LOG_KEYS})`} aria-pressed={tab?.kind === 'http-log'} onClick={openHttpLog}>
            HTTP Log
          </button>
        </nav>
      </header>
      <div class="main" style={{ gridTemplateColumns: sidebarHidden.value ? 'minmax(0, 1fr)' : `${sidebarWidth}px auto minmax(0, 1fr)` }}>
        {!sidebarHidden.value && (
          <>
            <Sidebar />
            <Splitter pane="sidebar" label="Resize the sidebar" orientation="vertical" fallback={280} min={160} max={Math.max(160, Math.round(innerWidth * 0.6))} />
          </>
        )}
        <main class="workarea">
          <TabBar />
          {tab && <DraftBanner tabId={tab.id} />}
          <div class="editor-host">{tab && Editor ? <Editor key={tab.id} tab={tab} /> : <Welcome />}</div>
        </main>
      </div>
      <StatusBar />
      <CommandPalette />
      <Dialogs />
      <SecretStoreDialogLayer />
      <ContextMenu />
      <Toasts />
    </div>
  );
}

/**
 * What the page says when it has lost Parley. A restarted Parley has a new token (and usually a
 * new port) that this page cannot learn, so it says where the new address is instead of trying.
 */
function ConnectionBanner() {
  const state = connection.value;
  if (state === 'disconnected') return <div class="banner banner-error">Lost the connection to Parley. Reconnecting…</div>;
  if (state !== 'restarted' && state !== 'stopped') return null;
  // Edits typed since the session was last kept are only on this page.
  const unkept = dirtyTabs.value.size > 0 && !sessionHoldsEdits();
  return (
    <div class="banner banner-error banner-lost" role="alert">
      <strong>{state === 'restarted' ? 'Parley was restarted, so this page no longer works.' : 'Parley is not running at this address.'}</strong>{' '}
      {state === 'restarted'
        ? 'Every start of parley ui makes a new address (its access token). '
        : 'It was stopped, or started again at a new address. Start it again with parley ui if it is not running. '}
      Open the address it printed in its terminal: <code>Parley is running at http://127.0.0.1:…</code>. Your open projects, tabs and unsaved edits come back
      there.
      {unkept && ' Not every edit on this page was kept (a typed secret never is, nor an edit made after Parley stopped): copy what you need first.'}
    </div>
  );
}
