/** Preferences: theme, proxy, extra CA bundle, History's size, mock listeners. */
import { workspace } from '../state/app.js';
import { attempt } from '../state/rpc.js';
import { DEFAULT_HISTORY_LIMIT, HISTORY_LIMIT_RANGE, type Preferences } from '../../../../protocol/model/workspace.js';

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
        <label>
          <span>
            History entries kept per project ({HISTORY_LIMIT_RANGE.min} to {HISTORY_LIMIT_RANGE.max.toLocaleString()}; older sends are dropped)
          </span>
          <input
            type="number"
            aria-label="History entries kept per project"
            min={HISTORY_LIMIT_RANGE.min}
            max={HISTORY_LIMIT_RANGE.max}
            step={50}
            value={prefs.historyLimit ?? DEFAULT_HISTORY_LIMIT}
            // On change, not on each keystroke: typing 200 must not pass through a limit of 20.
            onChange={(e) => {
              const n = Number((e.target as HTMLInputElement).value);
              if (Number.isInteger(n) && n >= HISTORY_LIMIT_RANGE.min && n <= HISTORY_LIMIT_RANGE.max) set({ historyLimit: n });
            }}
          />
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={prefs.mockListenAllInterfaces} onChange={(e) => set({ mockListenAllInterfaces: (e.target as HTMLInputElement).checked })} />
          Mock services: listen on all interfaces (other machines can reach running mocks)
        </label>
      </section>
    </div>
  );
}
