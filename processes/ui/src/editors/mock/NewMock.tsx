/** New Mock… (tree menu and API tab) and the API tab's list of this API's mocks. */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { whyNotMockable, type Api } from '../../../../../protocol/model/api.js';
import { projectByRoot } from '../../state/app.js';
import { call } from '../../state/rpc.js';
import { openForm } from '../../state/overlays.js';
import { openTab } from '../../state/tabs.js';
import { expand } from '../../state/tree.js';
import { rowKey } from '../../components/tree-rows.js';
import { MockIcon } from '../../components/Icons.js';

export function newMockDialog(project: string, apiId: string, apiName: string): void {
  const taken = new Set((projectByRoot(project)?.items ?? []).filter((i) => i.kind === 'mock').map((i) => i.name.toLowerCase()));
  let name = `${apiName} mock`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${apiName} mock ${n}`;
  openForm({
    title: `New Mock of ${apiName}`,
    submitLabel: 'Create mock',
    fields: [{ name: 'name', label: 'Name (also its folder under mocks/)', value: name, required: true }],
    onSubmit: async ({ name: chosen }) => {
      try {
        const view = await call('mocks.create', { project, api: apiId, name: chosen!.trim() });
        expand(rowKey(project, '@project'));
        expand(rowKey(project, '@mocks'));
        openTab({ kind: 'mock', project, itemId: view.id, title: view.mock?.name ?? chosen!.trim() });
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
}

export function MockSection({ project, api }: { project: string; api: Api }) {
  const mocks = useSignal<{ id: string; name: string; operations: number }[] | null>(null);
  const tree = projectByRoot(project);
  const mockItems = (tree?.items ?? []).filter((i) => i.kind === 'mock');
  const key = mockItems.map((i) => i.id).join('|');
  useEffect(() => {
    let stale = false;
    void Promise.all(mockItems.map((i) => call('mocks.get', { project, id: i.id }).catch(() => null))).then((views) => {
      if (stale) return;
      mocks.value = views.flatMap((v) => (v?.mock && v.mock.api === api.id ? [{ id: v.id, name: v.mock.name, operations: v.mock.operations.length }] : []));
    });
    return () => {
      stale = true;
    };
  }, [project, api.id, key]);
  const blocked = whyNotMockable(api);
  return (
    <section class="section api-mocks" aria-label="Mock service">
      <h3>Mock service</h3>
      <p class="muted">
        {blocked ?? 'A mock answers for this API on 127.0.0.1 with responses you write, checked against its definition.'}
      </p>
      {mocks.value && mocks.value.length > 0 && (
        <ul class="api-mock-list">
          {mocks.value.map((m) => (
            <li key={m.id}>
              <MockIcon />
              <button class="link-button" onClick={() => openTab({ kind: 'mock', project, itemId: m.id, title: m.name })}>
                {m.name}
              </button>
              <span class="muted">{m.operations} operations</span>
            </li>
          ))}
        </ul>
      )}
      <button class="button" disabled={blocked !== undefined} onClick={() => newMockDialog(project, api.id, api.name)}>
        New Mock…
      </button>
    </section>
  );
}
