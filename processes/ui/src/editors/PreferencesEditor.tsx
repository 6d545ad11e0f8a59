/** Preferences: theme, proxy, extra CA bundle, mock listeners. */
import { workspace } from '../state/app.js';
import { attempt } from '../state/rpc.js';
import type { Preferences } from '../../../../protocol/model/workspace.js';

export function PreferencesEditor() {
  const prefs = workspace.value?.preferences;
  if (!prefs) return <div class="pane-message">Loading…</div>;
  const set = (patch: Partial<Preferences>) => void attempt('workspace.setPreferences', patch);
  return (
    <div class="editor prefs-editor">
      <header class="editor-header">
        <h2>Preferences</h2>
      </header>
      <section class="section form-grid prefs-grid">
        <label>
          <span>Theme</span>
          <select aria-label="Theme" value={prefs.theme} onChange={(e) => set({ theme: (e.target as HTMLSelectElement).value as Preferences['theme'] })}>
            <option value="system">Follow the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label>
          <span>Proxy (http://host:port; empty for a direct connection)</span>
          <input class="mono" aria-label="Proxy" value={prefs.proxy} onChange={(e) => set({ proxy: (e.target as HTMLInputElement).value.trim() })} />
        </label>
        <label>
          <span>Extra trusted CA bundle (a PEM file; added to the system's CAs)</span>
          <input class="mono" aria-label="CA bundle" value={prefs.caBundle} onChange={(e) => set({ caBundle: (e.target as HTMLInputElement).value.trim() })} />
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={prefs.mockListenAllInterfaces} onChange={(e) => set({ mockListenAllInterfaces: (e.target as HTMLInputElement).checked })} />
          Mock services: listen on all interfaces (other machines can reach running mocks)
        </label>
      </section>
    </div>
  );
}
