/**
 * Import cURL: paste a curl command and see what it becomes before anything is written (method
 * and URL, header names, body kind, Basic user; never a header value or a password). Import
 * writes the request into the API or folder the dialog names and opens it; a toast names every
 * option the import ignored.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { CurlImportReport } from '../../../../protocol/model/curl.js';
import { MethodBadge } from '../components/Icons.js';
import { openCustom } from '../state/overlays.js';
import { call } from '../state/rpc.js';
import { openTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { expand } from '../state/tree.js';
import { rowKey } from '../components/tree-rows.js';
import { currentTarget, requestTargets, TargetPicker, type RequestTarget } from '../components/RequestTarget.js';
import './history.css';

/** Opens the dialog aimed at `parent` (an API or folder of `project`) when given, else at where the user is (the selected row's or the active tab's API or folder). */
export function openImportCurl(project?: string, parent?: string): void {
  const targets = requestTargets();
  if (targets.length === 0) {
    toast('warning', 'Create an API first: an imported curl command becomes a request under an API or folder.');
    return;
  }
  const asked = parent !== undefined ? targets.find((t) => t.parent === parent && (project === undefined || t.project === project)) : undefined;
  const chosen = asked ?? currentTarget(targets) ?? targets[0]!;
  openCustom({ title: 'Import cURL', wide: true, render: (close) => <ImportCurl targets={targets} initial={chosen} close={close} /> });
}

function ImportCurl({ targets, initial, close }: { targets: RequestTarget[]; initial: RequestTarget; close: () => void }) {
  const target = useSignal(initial);
  const command = useSignal('');
  const name = useSignal('');
  const report = useSignal<CurlImportReport | null>(null);
  const problem = useSignal('');
  const busy = useSignal(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => input.current?.focus(), []);

  useEffect(() => {
    const text = command.value.trim();
    if (!text) {
      report.value = null;
      problem.value = '';
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      call('curl.preview', { command: text }).then(
        (r) => current && ((report.value = r), (problem.value = '')),
        (err: Error) => current && ((report.value = null), (problem.value = err.message)),
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [command.value]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!report.value) return;
    busy.value = true;
    try {
      const t = target.value;
      const done = await call('curl.import', { project: t.project, parent: t.parent, command: command.value.trim(), ...(name.value.trim() ? { name: name.value.trim() } : {}) });
      close();
      expand(rowKey(t.project, t.parent.split('/')[0]!));
      if (t.parent.includes('/')) expand(rowKey(t.project, t.parent));
      openTab({ kind: 'request', project: t.project, itemId: done.request.id, title: done.request.name, method: done.request.method });
      const ignored = done.report.ignored;
      if (ignored.length > 0) toast('warning', `Imported ${done.request.name} into ${t.label}. Ignored: ${ignored.join(', ')}.`, 12_000);
      else toast('success', `Imported ${done.request.name} into ${t.label}.`);
    } catch (err) {
      problem.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  };

  const r = report.value;
  return (
    <form class="dialog-body curl-import" onSubmit={submit}>
      <label class="import-field">
        <span>Into</span>
        <TargetPicker label="Import into" targets={targets} value={target.value} onChange={(t) => (target.value = t)} />
      </label>
      <label class="import-field">
        <span>curl command</span>
        <textarea
          ref={input}
          class="code curl-command"
          aria-label="curl command"
          rows={7}
          spellcheck={false}
          placeholder={"curl https://api.example.com/pets -H 'Accept: application/json'"}
          value={command.value}
          onInput={(e) => (command.value = (e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <label class="import-field">
        <span>Name (optional)</span>
        <input aria-label="Request name" placeholder="Method and path" value={name.value} onInput={(e) => (name.value = (e.target as HTMLInputElement).value)} />
      </label>
      {problem.value && (
        <p class="inline-error" role="alert">
          {problem.value}
        </p>
      )}
      {r && (
        <div class="curl-preview" aria-label="Preview">
          <div class="curl-preview-line">
            <MethodBadge method={r.preview.method} />
            <span class="mono curl-preview-url">{r.preview.url}</span>
          </div>
          <dl class="curl-preview-facts">
            <dt>Headers</dt>
            <dd>{r.preview.headerNames.length ? r.preview.headerNames.map((h, i) => <code key={i}>{h}</code>) : <span class="muted">none</span>}</dd>
            <dt>Body</dt>
            <dd>{r.preview.bodyKind}</dd>
            <dt>Auth</dt>
            <dd>
              {r.preview.auth}
              {r.preview.basicUser !== undefined && (
                <>
                  {' '}
                  as user <code>{r.preview.basicUser}</code>
                </>
              )}
            </dd>
            {r.ignored.length > 0 && (
              <>
                <dt>Ignored</dt>
                <dd class="curl-ignored">{r.ignored.join(', ')}</dd>
              </>
            )}
          </dl>
          {r.notes.length > 0 && (
            <ul class="curl-notes">
              {r.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div class="dialog-footer">
        <span class="muted">Header values and passwords are not shown here; a password or token goes to the keychain.</span>
        <span class="spacer" />
        <button type="button" class="button" onClick={close}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={!r || busy.value}>
          {busy.value ? 'Importing…' : 'Import'}
        </button>
      </div>
    </form>
  );
}
