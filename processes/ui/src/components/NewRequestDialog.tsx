/**
 * New request: its kind (protocol/kinds/: HTTP, WebSocket), name, method (HTTP) and URL, and where
 * it goes, shown and changeable in the dialog (`TargetPicker`), defaulting to where the user is
 * working (the selected row's or the active tab's API or folder), never silently to the first API
 * of the first project.
 */
import { useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { METHODS } from '../state/methods.js';
import { REQUEST_KINDS, kindById } from '../../../../protocol/kinds/index.js';
import { openCustom } from '../state/overlays.js';
import { call } from '../state/rpc.js';
import { openTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { expand } from '../state/tree.js';
import { currentTarget, requestTargets, TargetPicker, type RequestTarget } from './RequestTarget.js';
import { rowKey } from './tree-rows.js';

/** What the URL field of each kind looks like (a gRPC request's is its target; empty: the API's). */
const URL_PLACEHOLDERS = new Map([
  ['http', '/pets/{petId}'],
  ['websocket', 'wss://example.com/socket'],
  ['grpc', "empty: the API's grpc://host:port"],
]);

/** Opens the dialog aimed at `parent` (an API or folder of `project`) when given, else at where the user is; `kind`: the kind first chosen. */
export function newRequestDialog(project?: string, parent?: string, kind = 'http'): void {
  const targets = requestTargets();
  if (targets.length === 0) {
    toast('warning', 'Create an API first: a request lives under an API.');
    return;
  }
  const asked = parent !== undefined ? targets.find((t) => t.parent === parent && (project === undefined || t.project === project)) : undefined;
  const initial = asked ?? currentTarget(targets) ?? targets[0]!;
  openCustom({ title: 'New request', render: (close) => <NewRequest targets={targets} initial={initial} initialKind={kind} close={close} /> });
}

function NewRequest({ targets, initial, initialKind, close }: { targets: RequestTarget[]; initial: RequestTarget; initialKind: string; close: () => void }) {
  const target = useSignal(initial);
  const name = useSignal('');
  const kind = useSignal(initialKind);
  const method = useSignal('GET');
  const url = useSignal('');
  const problem = useSignal('');
  const busy = useSignal(false);
  const nameRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => nameRef.current?.focus(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!name.value.trim()) {
      problem.value = 'Name is required.';
      return;
    }
    busy.value = true;
    const t = target.value;
    try {
      // HTTP takes its method; another kind is made blank but for its name and URL.
      const request =
        kind.value === 'http'
          ? await call('request.create', { project: t.project, parent: t.parent, name: name.value.trim(), method: method.value, url: url.value.trim() })
          : await call('request.createOfKind', { project: t.project, parent: t.parent, kind: kind.value, name: name.value.trim(), url: url.value.trim() });
      close();
      expand(rowKey(t.project, t.parent.split('/')[0]!));
      if (t.parent.includes('/')) expand(rowKey(t.project, t.parent));
      openTab({ kind: 'request', project: t.project, itemId: request.id, title: request.name, method: kindById(kind.value).badge(request) });
    } catch (err) {
      problem.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  };

  return (
    <form class="dialog-body form-grid" onSubmit={submit}>
      <label>
        <span>Into</span>
        <TargetPicker label="Into" targets={targets} value={target.value} onChange={(t) => (target.value = t)} />
      </label>
      <label>
        <span>Name</span>
        <input ref={nameRef} name="name" placeholder="List pets" value={name.value} onInput={(e) => (name.value = (e.target as HTMLInputElement).value)} />
      </label>
      <label>
        <span>Kind</span>
        <select aria-label="Kind" value={kind.value} onChange={(e) => (kind.value = (e.target as HTMLSelectElement).value)}>
          {REQUEST_KINDS.map((k) => (
            <option key={k.id} value={k.id}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      {kind.value === 'http' && (
        <label>
          <span>Method</span>
          <select value={method.value} onChange={(e) => (method.value = (e.target as HTMLSelectElement).value)}>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        <span>URL or path</span>
        <input name="url" class="mono" placeholder={URL_PLACEHOLDERS.get(kind.value) ?? ''} spellcheck={false} value={url.value} onInput={(e) => (url.value = (e.target as HTMLInputElement).value)} />
      </label>
      {problem.value && (
        <p class="form-error" role="alert">
          {problem.value}
        </p>
      )}
      <footer class="dialog-footer">
        <button type="button" class="button" onClick={close}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy.value}>
          {busy.value ? 'Creating…' : 'Create request'}
        </button>
      </footer>
    </form>
  );
}
