/** An API's settings: name, base URL, authentication, and what other features add (definition, mocks). */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Api } from '../../../../protocol/model/api.js';
import { attempt, call } from '../state/rpc.js';
import { retitleTab, setDirty } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { AuthEditor } from '../components/AuthEditor.js';
import type { EditorProps } from './registry.js';

/** Sections other features add to the API tab (Definition group, mocks). */
export const apiSections: ((project: string, api: Api, reload: () => void) => preact.ComponentChildren)[] = [];

export function ApiEditor({ tab }: EditorProps) {
  const saved = useSignal<Api | null>(null);
  const draft = useSignal<Api | null>(null);
  const error = useSignal('');
  const load = async () => {
    try {
      const api = await call('api.get', { project: tab.project, id: tab.itemId });
      saved.value = api;
      draft.value = structuredClone(api);
    } catch (err) {
      error.value = (err as Error).message;
    }
  };
  useEffect(() => void load(), [tab.id]);
  if (error.value) return <div class="pane-message">{error.value}</div>;
  const api = draft.value;
  if (!api) return <div class="pane-message">Loading…</div>;
  const dirty = JSON.stringify(api) !== JSON.stringify(saved.value);
  const change = (patch: Partial<Api>) => {
    draft.value = { ...api, ...patch };
    setDirty(tab.id, JSON.stringify(draft.value) !== JSON.stringify(saved.value));
  };
  const save = async () => {
    const next = await attempt('api.save', { project: tab.project, api });
    if (next) {
      saved.value = next;
      draft.value = structuredClone(next);
      setDirty(tab.id, false);
      retitleTab(tab.id, next.name);
      toast('success', `${next.name} saved.`);
    }
  };
  return (
    <div class="editor api-editor">
      <header class="editor-header">
        <h2>{api.name}</h2>
        <span class="badge">API</span>
        <span class="spacer" />
        <button class="button primary" disabled={!dirty} onClick={save}>
          Save
        </button>
      </header>
      <section class="section form-grid api-fields">
        <label>
          <span>Name</span>
          <input aria-label="API name" value={api.name} onInput={(e) => change({ name: (e.target as HTMLInputElement).value })} />
        </label>
        <label>
          <span>Base URL</span>
          <input class="mono" aria-label="Base URL" value={api.baseUrl} placeholder="https://api.example.com/v1" onInput={(e) => change({ baseUrl: (e.target as HTMLInputElement).value })} />
        </label>
      </section>
      <section class="section">
        <h3>Authentication</h3>
        <p class="muted">Every request of this API whose auth is Inherit uses this.</p>
        <AuthEditor auth={api.auth} allowInherit={false} onChange={(auth) => change({ auth })} />
      </section>
      {saved.value && apiSections.map((render, i) => <div key={i}>{render(tab.project, saved.value!, () => void load())}</div>)}
    </div>
  );
}
