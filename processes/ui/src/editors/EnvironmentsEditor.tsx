/**
 * Workspace environments and globals. Values are used by `${name}`; a secret variable keeps
 * only a `${secret:name}` reference here and its value in the secret store (the OS keychain, or
 * the vault on a system without one).
 */
import { signal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import type { Row } from '../../../../protocol/model/common.js';
import type { Environment, Workspace } from '../../../../protocol/model/workspace.js';
import { workspace } from '../state/app.js';
import { attempt, call } from '../state/rpc.js';
import { toast } from '../state/toasts.js';
import { openForm } from '../state/overlays.js';
import { editDraft, openDraft, type Draft } from '../state/drafts.js';
import { saveTab } from '../state/draft-actions.js';
import { RowsTable } from '../components/RowsTable.js';
import type { EditorProps } from './registry.js';
import type { Tab } from '../state/tabs.js';
import type { EnvironmentsDoc } from '../../../../protocol/model/session.js';
import { openCookieJar } from './cookies/jar-state.js';
import { secretSlug } from '../../../../protocol/secret-names.js';
import { secretStorage } from '../state/secret-storage.js';
import { askSecretStore } from '../components/SecretStoreDialog.js';
import { environmentScope } from '../state/variable-scope.js';
import { SessionValues } from './SessionValues.js';
import { isCredentialName } from '../../../../protocol/credentials/index.js';

/** A value whose name says it is a credential is drawn masked (its `${references}` stay readable). */
const credentialRow = (row: Row) => isCredentialName(row.name);

function newEnvId(): string {
  return `e_${Math.random().toString(36).slice(2, 12)}`;
}

const docOf = (ws: Workspace): EnvironmentsDoc => ({ environments: ws.environments, globals: ws.globals });

/** The environment shown, kept across tab switches like the draft. */
const selectedEnv = signal<string | null>(null);

/** The Environments tab's draft: the workspace's environments and globals (made the first time). */
export function environmentsDraft(tab: Tab): Draft<EnvironmentsDoc> {
  return openDraft<EnvironmentsDoc>(tab.id, {
    load: async () => docOf(workspace.value ?? (await call('workspace.get', {}))),
    save: async (value) => {
      const ws = await call('environments.save', { ...value, activeEnvironment: workspace.value?.activeEnvironment });
      toast('success', 'Environments saved.');
      return docOf(ws);
    },
    fromWorkspace: docOf,
    label: () => 'Environments',
  });
}

/** The environment shown: the one picked, else the first, else the globals. */
function shownOf(envs: readonly Environment[]): string {
  return selectedEnv.value === '@globals' || envs.some((e) => e.id === selectedEnv.value) ? selectedEnv.value! : (envs[0]?.id ?? '@globals');
}

export function EnvironmentsEditor({ tab }: EditorProps) {
  const doc = environmentsDraft(tab);
  // The values' `${variables}` resolve in the environment shown over the globals, as edited.
  const scope = useMemo(
    () =>
      environmentScope(() => {
        const d = doc.draft.value;
        const id = shownOf(d?.environments ?? []);
        return { environment: d?.environments.find((e) => e.id === id) ?? null, globals: d?.globals ?? [] };
      }),
    [doc],
  );
  const ws = workspace.value;
  const value = doc.draft.value;
  if (!ws || !value) return <div class="pane-message">Loading…</div>;
  const envs = value.environments;
  const globals = value.globals;
  const selected = shownOf(envs);
  const select = (id: string) => (selectedEnv.value = id);
  const setEnvs = (change: (list: Environment[]) => Environment[]) => editDraft(doc, (d) => ({ ...d, environments: change(d.environments) }));
  const setGlobals = (rows: Row[]) => editDraft(doc, (d) => ({ ...d, globals: rows }));
  const current = envs.find((e) => e.id === selected);
  const save = () => void saveTab(tab.id);
  // A secret's name in the store: what `${secret:name}` says, shown and documented (docs/secrets.md).
  const addSecret = async (apply: (rows: Row[]) => void, rows: Row[]) => {
    // No keychain: a vault first (or its passphrase), else there is nowhere to put the value.
    if ((await askSecretStore({ what: 'secret variables' })) !== 'ready') return;
    const place = secretStorage.value?.backend === 'vault' ? 'vault' : 'keychain';
    const prefix = current ? `${secretSlug(current.name)}/` : '';
    openForm({
      title: current ? `Add a secret variable to ${current.name}` : 'Add a secret global',
      submitLabel: `Store in ${place}`,
      fields: [
        { name: 'name', label: 'Variable name', required: true, placeholder: 'apiToken' },
        { name: 'value', label: 'Secret value', kind: 'secret', required: true },
        {
          name: 'key',
          label: `Name in the ${place}`,
          placeholder: `${prefix}<variable name>`,
          hint: 'The variable gets ${secret:<this name>}: use ${variable} in requests, or ${secret:<this name>} anywhere. A secret of the same name is replaced.',
        },
      ],
      onSubmit: async ({ name, value, key }) => {
        const variable = name!.trim();
        const secretName = (key ?? '').trim() || `${prefix}${variable}`;
        try {
          const { ref } = await call('secret.set', { name: secretName, value: value! });
          apply([...rows.filter((r) => r.name !== variable), { name: variable, value: ref, enabled: true }]);
        } catch (err) {
          return (err as Error).message;
        }
      },
    });
  };
  const storage = secretStorage.value;
  return (
    <div class="editor env-editor">
      <header class="editor-header">
        <h2>Environments</h2>
        <span class="spacer" />
        <label class="inline-field">
          Active:
          <select
            aria-label="Active environment"
            value={ws.activeEnvironment ?? ''}
            onChange={(e) => void attempt('environments.setActive', (e.target as HTMLSelectElement).value ? { id: (e.target as HTMLSelectElement).value } : {})}
          >
            <option value="">No environment</option>
            {ws.environments.map((env) => (
              <option key={env.id} value={env.id}>
                {env.name}
              </option>
            ))}
          </select>
        </label>
        <button class="button" onClick={() => openCookieJar('')}>
          Cookies…
        </button>
        <button class="button primary" disabled={!doc.dirty.value} onClick={save}>
          Save
        </button>
      </header>
      <div class="env-layout">
        <ul class="env-list" role="listbox" aria-label="Environments">
          <li class={selected === '@globals' ? 'active' : ''} role="option" aria-selected={selected === '@globals'} onClick={() => select('@globals')}>
            Globals
          </li>
          {envs.map((env) => (
            <li key={env.id} role="option" aria-selected={selected === env.id} class={selected === env.id ? 'active' : ''} onClick={() => select(env.id)}>
              {env.name}
              {ws.activeEnvironment === env.id && <span class="badge badge-ok">active</span>}
            </li>
          ))}
          <li>
            <button
              class="link-button"
              onClick={() =>
                openForm({
                  title: 'New environment',
                  submitLabel: 'Add',
                  fields: [{ name: 'name', label: 'Name', required: true, placeholder: 'Staging' }],
                  onSubmit: ({ name }) => {
                    if (envs.some((e) => e.name.toLowerCase() === name!.trim().toLowerCase())) return `An environment is already named ${name}.`;
                    const env = { id: newEnvId(), name: name!.trim(), variables: [] };
                    setEnvs((list) => [...list, env]);
                    select(env.id);
                  },
                })
              }
            >
              + New environment
            </button>
          </li>
        </ul>
        <section class="env-vars">
          {storage?.available === false && (
            <p class="field-warning" role="alert">
              {storage.reason}
            </p>
          )}
          {storage?.backend === 'vault' && storage.available && <p class="muted">Secret values are kept in the vault {storage.vaultFile}, unlocked for this session.</p>}
          {selected === '@globals' ? (
            <>
              <h3>Globals</h3>
              <p class="muted">Used when neither the active environment nor the project defines a name.</p>
              <RowsTable label="Global" rows={globals} scope={scope} maskValue={credentialRow} onChange={setGlobals} />
              <button class="button small" onClick={() => void addSecret(setGlobals, globals)}>
                Add secret…
              </button>
            </>
          ) : current ? (
            <>
              <div class="toolbar">
                <input
                  aria-label="Environment name"
                  value={current.name}
                  onInput={(e) => {
                    const name = (e.target as HTMLInputElement).value;
                    setEnvs((list) => list.map((env) => (env.id === current.id ? { ...env, name } : env)));
                  }}
                />
                <span class="spacer" />
                <button
                  class="button small danger"
                  onClick={() => {
                    if (!confirm(`Delete the environment ${current.name}?`)) return;
                    setEnvs((list) => list.filter((env) => env.id !== current.id));
                    select('@globals');
                  }}
                >
                  Delete
                </button>
              </div>
              <RowsTable
                label="Variable"
                rows={current.variables}
                scope={scope}
                maskValue={credentialRow}
                onChange={(rows) => setEnvs((list) => list.map((env) => (env.id === current.id ? { ...env, variables: rows } : env)))}
              />
              <button
                class="button small"
                onClick={() =>
                  void addSecret((rows) => setEnvs((list) => list.map((env) => (env.id === current.id ? { ...env, variables: rows } : env))), current.variables)
                }
              >
                Add secret…
              </button>
            </>
          ) : null}
          <SessionValues />
        </section>
      </div>
    </div>
  );
}
