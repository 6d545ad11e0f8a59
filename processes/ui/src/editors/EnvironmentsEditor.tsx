/**
 * Workspace environments and globals. Values are used by `${name}`; a secret variable keeps
 * only a `${secret:name}` reference here and its value in the OS keychain.
 */
import { useSignal } from '@preact/signals';
import type { Row } from '../../../../protocol/model/common.js';
import type { Environment } from '../../../../protocol/model/workspace.js';
import { workspace } from '../state/app.js';
import { attempt, call } from '../state/rpc.js';
import { setDirty } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { openForm } from '../state/overlays.js';
import { RowsTable } from '../components/RowsTable.js';
import type { EditorProps } from './registry.js';
import { openCookieJar } from './cookies/jar-state.js';

function newEnvId(): string {
  return `e_${Math.random().toString(36).slice(2, 12)}`;
}

export function EnvironmentsEditor({ tab }: EditorProps) {
  const ws = workspace.value;
  const envs = useSignal<Environment[]>(structuredClone(ws?.environments ?? []));
  const globals = useSignal<Row[]>(structuredClone(ws?.globals ?? []));
  const selected = useSignal<string>(envs.value[0]?.id ?? '@globals');
  const dirty = useSignal(false);
  if (!ws) return <div class="pane-message">Loading…</div>;
  const touch = () => {
    dirty.value = true;
    setDirty(tab.id, true);
  };
  const current = envs.value.find((e) => e.id === selected.value);
  const save = async () => {
    const next = await attempt('environments.save', { environments: envs.value, globals: globals.value, activeEnvironment: ws.activeEnvironment });
    if (next) {
      dirty.value = false;
      setDirty(tab.id, false);
      toast('success', 'Environments saved.');
    }
  };
  const addSecret = (apply: (rows: Row[]) => void, rows: Row[]) =>
    openForm({
      title: 'Add a secret variable',
      submitLabel: 'Store in keychain',
      fields: [
        { name: 'name', label: 'Variable name', required: true, placeholder: 'apiToken' },
        { name: 'value', label: 'Secret value', required: true },
      ],
      onSubmit: async ({ name, value }) => {
        const key = `env/${selected.value}/${name!.trim()}`;
        try {
          const { ref } = await call('secret.set', { name: key, value: value! });
          apply([...rows.filter((r) => r.name !== name), { name: name!.trim(), value: ref, enabled: true }]);
          touch();
        } catch (err) {
          return (err as Error).message;
        }
      },
    });
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
        <button class="button primary" disabled={!dirty.value} onClick={save}>
          Save
        </button>
      </header>
      <div class="env-layout">
        <ul class="env-list" role="listbox" aria-label="Environments">
          <li class={selected.value === '@globals' ? 'active' : ''} role="option" aria-selected={selected.value === '@globals'} onClick={() => (selected.value = '@globals')}>
            Globals
          </li>
          {envs.value.map((env) => (
            <li key={env.id} role="option" aria-selected={selected.value === env.id} class={selected.value === env.id ? 'active' : ''} onClick={() => (selected.value = env.id)}>
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
                    if (envs.value.some((e) => e.name.toLowerCase() === name!.trim().toLowerCase())) return `An environment is already named ${name}.`;
                    const env = { id: newEnvId(), name: name!.trim(), variables: [] };
                    envs.value = [...envs.value, env];
                    selected.value = env.id;
                    touch();
                  },
                })
              }
            >
              + New environment
            </button>
          </li>
        </ul>
        <section class="env-vars">
          {selected.value === '@globals' ? (
            <>
              <h3>Globals</h3>
              <p class="muted">Used when neither the active environment nor the project defines a name.</p>
              <RowsTable label="Global" rows={globals.value} maskValue={(r) => r.value.startsWith('${secret:')} onChange={(rows) => ((globals.value = rows), touch())} />
              <button class="button small" onClick={() => addSecret((rows) => (globals.value = rows), globals.value)}>
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
                    envs.value = envs.value.map((env) => (env.id === current.id ? { ...env, name: (e.target as HTMLInputElement).value } : env));
                    touch();
                  }}
                />
                <span class="spacer" />
                <button
                  class="button small danger"
                  onClick={() => {
                    if (!confirm(`Delete the environment ${current.name}?`)) return;
                    envs.value = envs.value.filter((env) => env.id !== current.id);
                    selected.value = '@globals';
                    touch();
                  }}
                >
                  Delete
                </button>
              </div>
              <RowsTable
                label="Variable"
                rows={current.variables}
                maskValue={(r) => r.value.startsWith('${secret:')}
                onChange={(rows) => {
                  envs.value = envs.value.map((env) => (env.id === current.id ? { ...env, variables: rows } : env));
                  touch();
                }}
              />
              <button
                class="button small"
                onClick={() =>
                  addSecret((rows) => (envs.value = envs.value.map((env) => (env.id === current.id ? { ...env, variables: rows } : env))), current.variables)
                }
              >
                Add secret…
              </button>
            </>
          ) : null}
        </section>
      </div>
    </div>
  );
}
