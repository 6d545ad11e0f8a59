/**
 * Import cURL: paste a curl command and see what it becomes before anything is written (method
 * and URL, header names, body kind, Basic user; never a header value or a password). Import
 * writes the request into the API or folder the dialog names and opens it; a toast names every
 * option the import ignored and every file it copied. Files of this computer that the command
 * sends from outside the project are listed with their size, and copied into the project only
 * when the user ticks the box under them (a command someone else wrote must not bring them in
 * unasked); unticked, the request is imported without them.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { CurlImportReport, CurlLocalFile } from '../../../../protocol/model/curl.js';
import { formatBytes } from '../components/FileChooser.js';
import { MethodBadge } from '../components/Icons.js';
import { openCustom } from '../state/overlays.js';
import { call } from '../state/rpc.js';
import { openTab, requestTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { withSecretStore } from '../components/SecretStoreDialog.js';
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
  /** The user's yes to copying the listed local files: never carried over to another list. */
  const copyLocal = useSignal(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => input.current?.focus(), []);
  const project = target.value.project;

  useEffect(() => {
    const text = command.value.trim();
    if (!text) {
      report.value = null;
      problem.value = '';
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      call('curl.preview', { command: text, project }).then(
        (r) => {
          if (!current) return;
          if (localKey(r.localFiles) !== localKey(report.value?.localFiles)) copyLocal.value = false;
          report.value = r;
          problem.value = '';
        },
        (err: Error) => current && ((report.value = null), (problem.value = err.message)),
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [command.value, project]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!report.value) return;
    busy.value = true;
    try {
      const t = target.value;
      // Only the files shown, by the paths shown: a file that appeared since is not copied.
      const copyLocalFiles = copyLocal.value ? (report.value.localFiles ?? []).map((f) => f.path) : [];
      // A password or token with nowhere to go: a vault, its passphrase, or the import without it.
      const { value: done } = await withSecretStore(
        (leaveOutSecrets) =>
          call('curl.import', { project: t.project, parent: t.parent, command: command.value.trim(), copyLocalFiles, ...(name.value.trim() ? { name: name.value.trim() } : {}), ...(leaveOutSecrets ? { leaveOutSecrets } : {}) }),
        { leaveOut: 'Import without the password', what: "the command's password or token" },
      );
      close();
      expand(rowKey(t.project, t.parent.split('/')[0]!));
      if (t.parent.includes('/')) expand(rowKey(t.project, t.parent));
      openTab(requestTab(t.project, done.request));
      const { ignored, copied = [], localFiles = [] } = done.report;
      const left = localFiles.filter((f) => !copied.some((c) => c.from === f.path));
      // Notes the import added to what the preview showed (a password left out).
      const added = done.report.notes.filter((n) => !report.value?.notes.includes(n));
      const parts = [`Imported ${done.request.name} into ${t.label}.`];
      if (copied.length > 0) parts.push(`Copied into the project: ${copied.map((c) => `${c.from} -> ${c.to}`).join(', ')}.`);
      if (left.length > 0) parts.push(`Not copied (the request has no file there): ${left.map((f) => f.path).join(', ')}.`);
      if (ignored.length > 0) parts.push(`Ignored: ${ignored.join(', ')}.`);
      parts.push(...added);
      toast(ignored.length > 0 || left.length > 0 || added.length > 0 ? 'warning' : 'success', parts.join(' '), parts.length > 1 ? 12_000 : undefined);
    } catch (err) {
      if ((err as { code?: string }).code === 'cancelled') return;
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
          {r.localFiles && r.localFiles.length > 0 && <LocalFiles files={r.localFiles} copy={copyLocal.value} onCopy={(yes) => (copyLocal.value = yes)} />}
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
        <span class="muted">Header values and passwords are not shown here; a password or token goes to secure storage (the system keychain, or the vault).</span>
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

/** The list a yes is given to: the same files in the same order. */
function localKey(files: readonly CurlLocalFile[] | undefined): string {
  return JSON.stringify((files ?? []).map((f) => [f.path, f.size]));
}

/** The files of this computer the command sends, and the box that allows copying them into the project. */
function LocalFiles({ files, copy, onCopy }: { files: readonly CurlLocalFile[]; copy: boolean; onCopy: (yes: boolean) => void }) {
  return (
    <section class="curl-local-files" aria-label="Local files">
      <p class="curl-local-warning">
        This command sends {files.length === 1 ? 'a file' : `${files.length} files`} from this computer, outside the project. Importing can copy{' '}
        {files.length === 1 ? 'it' : 'them'} into the project's <code>files/</code> folder, which is shared with everyone who gets the project.
      </p>
      <ul class="curl-local-list">
        {files.map((f, i) => (
          <li key={i}>
            <code class="mono">{f.path}</code> <span class="muted">{formatBytes(f.size)}, the {f.field}</span>
          </li>
        ))}
      </ul>
      <label class="curl-local-consent">
        <input type="checkbox" checked={copy} onChange={(e) => onCopy((e.target as HTMLInputElement).checked)} />
        Copy {files.length === 1 ? 'this file' : 'these files'} into the project
      </label>
      {!copy && <p class="muted">Unticked, the request is imported without {files.length === 1 ? 'it' : 'them'}: choose a file on its Body tab later.</p>}
    </section>
  );
}
