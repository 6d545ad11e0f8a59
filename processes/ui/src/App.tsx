import { useEffect } from 'preact/hooks';
import { activeTab } from './state/tabs.js';
import { connection, theme } from './state/app.js';
import { paletteOpen, runCommand } from './state/commands.js';
import { Sidebar } from './components/Sidebar.js';
import { TabBar } from './components/TabBar.js';
import { StatusBar } from './components/StatusBar.js';
import { CommandPalette } from './components/CommandPalette.js';
import { ContextMenu, Dialogs, Toasts } from './components/Overlays.js';
import { editors } from './editors/registry.js';
import { Welcome } from './editors/Welcome.js';

export function App() {
  useEffect(() => {
    document.documentElement.dataset.theme = theme.value;
  }, [theme.value]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.shiftKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        paletteOpen.value = !paletteOpen.value;
      } else if (mod && !e.shiftKey && e.key.toLowerCase() === 'i') {
        e.preventDefault();
        runCommand('import.open');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const tab = activeTab.value;
  const Editor = tab ? editors.get(tab.kind) : undefined;
  return (
    <div class="shell">
      {connection.value === 'disconnected' && <div class="banner banner-error">Lost the connection to Parley. Reconnecting…</div>}
      <header class="titlebar">
        <span class="logo">Parley</span>
        <button class="palette-trigger" onClick={() => (paletteOpen.value = true)}>
          Search commands…
        </button>
      </header>
      <div class="main">
        <Sidebar />
        <main class="workarea">
          <TabBar />
          <div class="editor-host">{tab && Editor ? <Editor key={tab.id} tab={tab} /> : <Welcome />}</div>
        </main>
      </div>
      <StatusBar />
      <CommandPalette />
      <Dialogs />
      <ContextMenu />
      <Toasts />
    </div>
  );
}
