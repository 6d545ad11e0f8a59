/** An API's settings: name, base URL, authentication, and what other features add (definition, mocks). */
import type { Api } from '../../../../protocol/model/api.js';
import { call } from '../state/rpc.js';
import { retitleTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { editDraft, openDraft, refreshDraft, type Draft } from '../state/drafts.js';
import { saveTab } from '../state/draft-actions.js';
import { AuthEditor } from '../components/AuthEditor.js';
import { withSecretStore } from '../components/SecretStoreDialog.js';
import { leftOutFields, noteLeftOut } from '../state/secret-storage.js';
import { literalSecrets } from '../../../../protocol/credentials/auth-secrets.js';
import { VarField } from '../code/VarField.js';
import type { EditorProps } from './registry.js';
import type { Tab } from '../state/tabs.js';

/** Sections other features add to the API tab (Definition group, mocks). */
export const apiSections: ((project: string, api: Api, reload: () => void) => preact.ComponentChildren)[] = [];

/** The API tab's draft (made the first time). */
export function apiDraft(tab: Tab): Draft<Api> {
  const doc: Draft<Api> = openDraft<Api>(tab.id, {
    load: () => call('api.get', { project: tab.project, id: tab.itemId }),
    save: async (api) => {
      const typed = [...literalSecrets(api.auth).keys()];
      const { value: next, leftOut } = await withSecretStore(
        (leaveOutSecrets) => call('api.save', { project: tab.project, api, ...(leaveOutSecrets ? { leaveOutSecrets } : {}) }),
        { leaveOut: 'Save without the secret', what: "the secret typed into the API's authentication" },
      );
      noteLeftOut(tab.id, leftOut ? typed : []);
      retitleTab(tab.id, next.name);
      toast('success', `${next.name} saved.`);
      return next;
    },
    concerns: (project, changed) => project === tab.project && changed.includes(tab.itemId),
    label: (): string => doc.draft.value?.name ?? tab.title,
  });
  return doc;
}

export function ApiEditor({ tab }: EditorProps) {
  const doc = apiDraft(tab);
  if (doc.loadError.value) return <div class="pane-message">{doc.loadError.value}</div>;
  const api = doc.draft.value;
  if (!api) return <div class="pane-message">Loading…</div>;
  const change = (patch: Partial<Api>) => editDraft(doc, (current) => ({ ...current, ...patch }));
  const save = () => void saveTab(tab.id);
  const saved = doc.saved;
  const dirty = doc.dirty.value;
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
          <VarField class="input-like mono" label="Base URL" project={tab.project} value={api.baseUrl} placeholder="https://api.example.com/v1" onChange={(baseUrl) => change({ baseUrl })} />
        </label>
      </section>
      <section class="section">
        <h3>Authentication</h3>
        <p class="muted">Every request of this API whose auth is Inherit uses this, unless a folder it is in sets an auth of its own (Folder settings…).</p>
        <AuthEditor auth={api.auth} project={tab.project} allowInherit={false} leftOut={leftOutFields.value.get(tab.id)} onChange={(auth) => change({ auth })} />
      </section>
      {saved.value && apiSections.map((render, i) => <div key={i}>{render(tab.project, saved.value!, () => void refreshDraft(doc))}</div>)}
    </div>
  );
}
