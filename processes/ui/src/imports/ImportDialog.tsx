/**
 * The Import dialog (Ctrl+I): source tabs URL, File, Paste; format with the auto-detect badge;
 * the target project; the OpenAPI options; then the import with its progress and Cancel, and the
 * summary. The dialog's state lives in a session outside the component so that the browser's
 * file chooser, which borrows the dialog slot, does not lose it.
 */
import { takeTree } from '../state/project-trees.js';
import { signal, type Signal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { Ref } from 'preact';
import type { ParleyError } from '../../../../protocol/errors.js';
import type { ResOf } from '../../../../protocol/messages.js';
import type { ImportProgress, ImportSource } from '../../../../protocol/model/import.js';
import { projects } from '../state/app.js';
import { customDialog, openCustom, type CustomDialog } from '../state/overlays.js';
import { call, openProjectTree } from '../state/rpc.js';
import { toast } from '../state/toasts.js';
import { expand } from '../state/tree.js';
import { rowKey } from '../components/tree-rows.js';
import { buildRunRequest, wsdlCredentialsOffered, emptyForm, firstProgress, FORMAT_OPTIONS, formatTakes, landsInWorkspace, type ImportForm, type ImportFormat, type RecordedResponses, type ServerDraft, type SourceTab } from './import-form.js';
import { FetchAuthSection } from './FetchAuthSection.js';
import { ProgressLine } from './ProgressLine.js';
import { ImportSummary } from './ImportSummary.js';
import { FilePathField } from './FilePathField.js';
import { withSecretStore } from '../components/SecretStoreDialog.js';
import './imports.css';

export const IMPORT_TITLE = 'Import';

type Detection = NonNullable<ResOf<'import.detect'>['detection']>;
type DetectState = { state: 'idle' } | { state: 'checking' } | { state: 'found'; detection: Detection; environmentsBeside?: number } | { state: 'unknown' } | { state: 'failed'; message: string };

export interface ImportSession {
  form: Signal<ImportForm>;
  stage: Signal<'form' | 'running' | 'summary'>;
  progress: Signal<ImportProgress>;
  error: Signal<string>;
  notice: Signal<string>;
  detection: Signal<DetectState>;
  /** What the badge was last computed for, so a remount after the file chooser does not ask again. */
  detectedFor: string;
  result: Signal<ResOf<'import.run'> | null>;
  createdProject: boolean;
  controller: AbortController | null;
}

/** Opens the dialog, into `project` when given (the row it was opened from, or the active tab's). */
export function openImportDialog(project?: string, preset: Partial<Pick<ImportForm, 'format' | 'tab'>> = {}): void {
  if (customDialog.value?.title === IMPORT_TITLE) return;
  const open = projects.value.map((p) => p.root);
  const session: ImportSession = {
    form: signal({ ...emptyForm(project && open.includes(project) ? project : open[0]), ...preset }),
    stage: signal('form'),
    progress: signal({ phase: 'read', message: '' }),
    error: signal(''),
    notice: signal(''),
    detection: signal({ state: 'idle' }),
    detectedFor: '',
    result: signal(null),
    createdProject: false,
    controller: null,
  };
  const dialog: CustomDialog = { title: IMPORT_TITLE, wide: true, render: (close) => <ImportDialog session={session} close={close} /> };
  openCustom(dialog);
}

function ImportDialog({ session, close }: { session: ImportSession; close(): void }) {
  // Closing the dialog (Escape, the close button) while the import runs cancels it.
  useEffect(
    () => () => {
      if (session.stage.peek() === 'running') session.controller?.abort();
    },
    [],
  );
  const result = session.result.value;
  if (session.stage.value === 'summary' && result) return <ImportSummary result={result} createdProject={session.createdProject} close={close} />;
  return <ImportFormView session={session} close={close} />;
}

/** What each Recorded responses choice does with a capture's responses (SPEC "HAR grouping"). */
const RECORDED_HINTS: Record<RecordedResponses, string> = {
  none: 'Only the requests are imported.',
  history: 'Each exchange goes into History at its recorded time, credentials masked.',
  examples: 'Up to 5 responses per request, one per status code, credentials masked.',
};

const TABS: { id: SourceTab; label: string }[] = [
  { id: 'url', label: 'URL' },
  { id: 'file', label: 'File' },
  { id: 'paste', label: 'Paste' },
  { id: 'server', label: 'Server' },
];

function ImportFormView({ session, close }: { session: ImportSession; close(): void }) {
  const form = session.form.value;
  const running = session.stage.value === 'running';
  const set = (patch: Partial<ImportForm>) => {
    session.form.value = { ...session.form.value, ...patch };
    if (session.error.peek()) session.error.value = '';
  };
  useDetection(session);
  const firstRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useLayoutEffect(() => firstRef.current?.focus(), [form.tab]);
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => errorRef.current?.scrollIntoView({ block: 'nearest' }), [session.error.value]);
  const open = projects.value;
  const detection = session.detection.value;
  const detected = detection.state === 'found' ? detection.detection.format : undefined;
  const workspaceTarget = landsInWorkspace(form.format, detected);
  // The OpenAPI options show for OpenAPI, and for Auto-detect until something else is recognised.
  const openApiOptions = form.format === 'openapi' || (form.format === 'auto' && (detected === undefined || detected === 'openapi'));
  const wsdlOptions = form.format === 'wsdl' || (form.format === 'auto' && detected === 'wsdl');
  const harOptions = form.format === 'har' || (form.format === 'auto' && detected === 'har');
  const soapuiSource = form.format === 'soapui' || (form.format === 'auto' && detected === 'soapui');
  // SPEC ".http import rules": the environment files found beside a picked .http file are offered, ticked.
  const environmentsBeside = form.tab === 'file' && detection.state === 'found' && detected === 'http' && (form.format === 'auto' || form.format === 'http') ? (detection.environmentsBeside ?? 0) : 0;

  return (
    <form
      class="dialog-body import-dialog"
      // Our own messages say what is missing, beside the buttons, not the browser's bubbles.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!running) void runImport(session);
      }}
    >
      <fieldset class="import-fieldset" disabled={running}>
        <div class="subtabs import-tabs" role="tablist" aria-label="Source">
          {TABS.filter((t) => formatTakes(form.format, t.id)).map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`import-tab-${t.id}`}
              aria-selected={form.tab === t.id}
              aria-controls="import-source-panel"
              class={form.tab === t.id ? 'active' : ''}
              onClick={() => set({ tab: t.id })}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div class="import-source" role="tabpanel" id="import-source-panel" aria-labelledby={`import-tab-${form.tab}`}>
          {form.tab === 'url' && (
            <>
              <label class="import-field">
                <span>URL</span>
                <input ref={firstRef} class="mono" type="url" aria-label="Document URL" placeholder="https://api.example.com/openapi.yaml" value={form.url} onInput={(e) => set({ url: (e.target as HTMLInputElement).value })} />
              </label>
              <FetchAuthSection draft={form.auth} modes={['none', 'basic', 'bearer', 'apikey', 'kerberos']} onChange={(auth) => set({ auth })} />
              {wsdlCredentialsOffered(form) && (
                <label class="checkbox">
                  <input type="checkbox" checked={form.useCredentialsForRequests} onChange={(e) => set({ useCredentialsForRequests: (e.target as HTMLInputElement).checked })} />
                  Use these credentials for requests too (WSDL)
                </label>
              )}
            </>
          )}
          {form.tab === 'server' && <ServerFields inputRef={firstRef} draft={form.server} onChange={(server) => set({ server: { ...form.server, ...server } })} name={form.name} onName={(name) => set({ name })} />}
          {form.tab === 'file' && <FilePathField inputRef={firstRef} value={form.filePath} onChange={(filePath) => set({ filePath })} />}
          {form.tab === 'paste' && (
            <label class="import-field">
              <span>Text (YAML, JSON or XML)</span>
              <textarea
                ref={firstRef}
                class="code import-paste"
                aria-label="Pasted document"
                spellcheck={false}
                placeholder={'openapi: 3.1.0\ninfo:\n  title: …\n\nor a Postman collection, environment or globals export (JSON)'}
                value={form.text}
                onInput={(e) => set({ text: (e.target as HTMLTextAreaElement).value })}
              />
            </label>
          )}
        </div>

        <div class="import-columns">
          <div class="import-column">
            <label class="import-field">
              <span>Format</span>
              <select aria-label="Format" value={form.format} onChange={(e) => {
                  const format = (e.target as HTMLSelectElement).value as ImportFormat;
                  // A format that takes no URL moves the dialog to the File tab.
                  set({ format, ...(formatTakes(format, form.tab) ? {} : { tab: 'file' as SourceTab }) });
                }}>
                {FORMAT_OPTIONS.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.label}
                  </option>
                ))}
              </select>
            </label>
            {form.format === 'auto' && <DetectionBadge tab={form.tab} state={session.detection.value} />}

            {workspaceTarget && <p class="muted import-workspace-note">Environments and globals go into the workspace; no project is needed.</p>}
            {!workspaceTarget && (
            <fieldset class="import-target" role="radiogroup" aria-label="Into project">
              <legend>Into project</legend>
              <label class="checkbox">
                <input type="radio" name="import-target" checked={form.target === 'project'} disabled={open.length === 0} onChange={() => set({ target: 'project' })} />
                An open project
              </label>
              {form.target === 'project' && (
                <select class="import-indent" aria-label="Open project" value={form.project} onChange={(e) => set({ project: (e.target as HTMLSelectElement).value })}>
                  {open.map((p) => (
                    <option key={p.root} value={p.root}>
                      {p.name}
                    </option>
                  ))}
                </select>
              )}
              <label class="checkbox">
                <input type="radio" name="import-target" checked={form.target === 'new'} onChange={() => set({ target: 'new' })} />A new project
              </label>
              {form.target === 'new' && (
                <div class="import-indent import-new-project">
                  <input class="mono" aria-label="New project folder" placeholder="/path/to/new-project" value={form.newPath} onInput={(e) => set({ newPath: (e.target as HTMLInputElement).value })} />
                  <input aria-label="New project name" placeholder={soapuiSource ? 'Name (optional; default: the SoapUI project’s name)' : 'Name (optional)'} value={form.newName} onInput={(e) => set({ newName: (e.target as HTMLInputElement).value })} />
                </div>
              )}
            </fieldset>
            )}
          </div>

          {openApiOptions && (
          <fieldset class="import-column import-options">
            <legend>Options</legend>
            <label class="import-field">
              <span>Name override</span>
              <input aria-label="Name override" placeholder="The document’s title" value={form.name} onInput={(e) => set({ name: (e.target as HTMLInputElement).value })} />
            </label>
            <label class="import-field">
              <span>Base URL override</span>
              <input class="mono" aria-label="Base URL override" placeholder="The document’s first server" value={form.baseUrl} onInput={(e) => set({ baseUrl: (e.target as HTMLInputElement).value })} />
            </label>
            <label class="checkbox">
              <input type="checkbox" checked={form.cacheDefinition} onChange={(e) => set({ cacheDefinition: (e.target as HTMLInputElement).checked })} />
              Cache specification documents with the project
            </label>
            <label class="checkbox">
              <input type="checkbox" checked={form.importWebhooks} onChange={(e) => set({ importWebhooks: (e.target as HTMLInputElement).checked })} />
              Import webhooks &amp; callbacks
            </label>
          </fieldset>
          )}
          {wsdlOptions && (
            <fieldset class="import-column import-options">
              <legend>Options</legend>
              <label class="import-field">
                <span>Name override</span>
                <input aria-label="Name override" placeholder="Each binding’s name" value={form.name} onInput={(e) => set({ name: (e.target as HTMLInputElement).value })} />
              </label>
              <label class="import-field">
                <span>Endpoint override</span>
                <input class="mono" aria-label="Endpoint override" placeholder="The port’s soap:address" value={form.baseUrl} onInput={(e) => set({ baseUrl: (e.target as HTMLInputElement).value })} />
              </label>
              <label class="checkbox">
                <input type="checkbox" checked={form.cacheDefinition} onChange={(e) => set({ cacheDefinition: (e.target as HTMLInputElement).checked })} />
                Cache the WSDL and its imports with the project
              </label>
            </fieldset>
          )}
          {harOptions && (
            <fieldset class="import-column import-options">
              <legend>Options</legend>
              <label class="checkbox">
                <input type="checkbox" checked={form.includeStaticAssets} onChange={(e) => set({ includeStaticAssets: (e.target as HTMLInputElement).checked })} />
                Include static assets
              </label>
              <label class="import-field">
                <span>Recorded responses</span>
                <select aria-label="Recorded responses" value={form.recordedResponses} onChange={(e) => set({ recordedResponses: (e.target as HTMLSelectElement).value as RecordedResponses })}>
                  <option value="none">Don’t keep</option>
                  <option value="history">Record into History</option>
                  <option value="examples">Save as examples</option>
                </select>
              </label>
              <p class="muted import-hint">{RECORDED_HINTS[form.recordedResponses]}</p>
            </fieldset>
          )}
          {environmentsBeside > 0 && (
            <fieldset class="import-column import-options" aria-label=".http file">
              <legend>Environments</legend>
              <label class="checkbox">
                <input type="checkbox" checked={form.httpEnvironments} onChange={(e) => set({ httpEnvironments: (e.target as HTMLInputElement).checked })} />
                Also import {environmentsBeside} environment{environmentsBeside === 1 ? '' : 's'} found beside the file
              </label>
            </fieldset>
          )}
          {soapuiSource && (
            <fieldset class="import-column import-options" aria-label="SoapUI project">
              <legend>SoapUI project</legend>
              <p class="muted import-hint">WSDL interfaces (from the copy the file carries), saved requests, endpoints, properties and environments. Scripts are saved as text in imported-scripts/ and never run; passwords are never imported.</p>
              <p class="muted import-hint">A new project takes the SoapUI project’s name unless you give one in New project name.</p>
            </fieldset>
          )}
        </div>
      </fieldset>

      <footer class="import-footer">
        {session.error.value && (
          <p ref={errorRef} class="inline-error import-error" role="alert">
            {session.error.value}
          </p>
        )}
        {!session.error.value && session.notice.value && !running && (
          <p class="muted import-notice" role="status">
            {session.notice.value}
          </p>
        )}
        {running && <ProgressLine progress={session.progress.value} label="Import progress" />}
        <div class="import-buttons">
          <span class="spacer" />
          {running ? (
            <button
              type="button"
              class="button"
              disabled={session.progress.value.phase === 'done'}
              title={session.progress.value.phase === 'done' ? 'Saving: the import can no longer be cancelled' : undefined}
              onClick={() => session.controller?.abort()}
            >
              Cancel
            </button>
          ) : (
            <button type="button" class="button" onClick={close}>
              Close
            </button>
          )}
          <button type="submit" class="button primary" disabled={running}>
            {running ? 'Importing…' : 'Import'}
          </button>
        </div>
      </footer>
    </form>
  );
}

function DetectionBadge({ tab, state }: { tab: SourceTab; state: DetectState }) {
  let content;
  if (tab === 'url') content = <span class="muted">The format is recognised when the document is read.</span>;
  else if (tab === 'server') content = <span class="muted">The server’s services are read by reflection, as Protocol Buffers (gRPC).</span>;
  else if (state.state === 'idle') content = <span class="muted">{tab === 'file' ? 'Choose a file to see its format.' : 'Paste a document to see its format.'}</span>;
  else if (state.state === 'checking') content = <span class="muted">Recognising…</span>;
  else if (state.state === 'found')
    content = (
      <>
        <span class="badge badge-ok import-badge">{state.detection.label}</span>
        <span class="muted">{state.detection.settledBy === 'file-name' ? 'by its file name' : 'by its content'}</span>
      </>
    );
  else if (state.state === 'unknown') content = <span class="badge badge-warn import-badge">Not recognised</span>;
  else content = <span class="badge badge-err import-badge">{state.message}</span>;
  return (
    <div class="import-detected" role="status" aria-label="Detected format">
      {content}
    </div>
  );
}

/** The auto-detect badge follows the chosen file or the pasted text, asked for after a pause in typing. */
function useDetection(session: ImportSession): void {
  const form = session.form.value;
  let source: ImportSource | null = null;
  // A chosen .http format is asked too: auto-detect counts the environment files beside the file.
  if ((form.format === 'auto' || form.format === 'http') && form.tab === 'file' && form.filePath.trim()) source = { kind: 'file', path: form.filePath.trim() };
  if (form.format === 'auto' && form.tab === 'paste' && form.text.trim()) source = { kind: 'paste', text: form.text };
  const key = source ? (source.kind === 'file' ? `file:${source.path}` : `paste:${form.text}`) : '';
  useEffect(() => {
    if (!source) {
      session.detection.value = { state: 'idle' };
      session.detectedFor = '';
      return;
    }
    if (key === session.detectedFor) return;
    session.detection.value = { state: 'checking' };
    let stale = false;
    const timer = setTimeout(async () => {
      try {
        const { detection, environmentsBeside } = await call('import.detect', { source });
        if (stale) return;
        session.detection.value = detection ? { state: 'found', detection, ...(environmentsBeside !== undefined ? { environmentsBeside } : {}) } : { state: 'unknown' };
      } catch (err) {
        if (stale) return;
        session.detection.value = { state: 'failed', message: (err as Error).message };
      }
      session.detectedFor = key;
    }, 300);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [key]);
}

async function runImport(session: ImportSession): Promise<void> {
  const detection = session.detection.peek();
  const built = buildRunRequest(
    session.form.value,
    projects.value.map((p) => p.root),
    detection.state === 'found' ? detection.detection.format : undefined,
  );
  if ('problem' in built) {
    session.error.value = built.problem;
    return;
  }
  const controller = new AbortController();
  session.controller = controller;
  session.error.value = '';
  session.notice.value = '';
  session.progress.value = firstProgress(built.request.source);
  session.stage.value = 'running';
  try {
    // Secrets with nowhere to go (no keychain): a vault, its passphrase, or the import without them.
    const { value: result } = await withSecretStore(
      (leaveOutSecrets) => call('import.run', { ...built.request, ...(leaveOutSecrets ? { leaveOutSecrets } : {}) }, { signal: controller.signal, onChunk: (chunk) => (session.progress.value = chunk) }),
      { leaveOut: 'Import without the secrets', what: 'the secrets this import brings' },
    );
    session.createdProject = built.request.into?.kind === 'new' && result.project !== undefined;
    await showInSidebar(result, session.createdProject);
    session.result.value = result;
    session.stage.value = 'summary';
  } catch (err) {
    const e = err as ParleyError;
    if (e.code === 'cancelled') session.notice.value = 'Import cancelled: nothing was added.';
    else if (e.code === 'import-unrecognised' && built.request.format === 'auto') session.error.value = `${e.message} If you know its format, choose it in the Format list.`;
    else session.error.value = e.message;
    session.stage.value = 'form';
  } finally {
    session.controller = null;
  }
}

/** A new project is opened in the sidebar; either way the new APIs are shown expanded. */
async function showInSidebar(result: ResOf<'import.run'>, created: boolean): Promise<void> {
  const project = result.project;
  // Environments and globals land in the workspace, which the page hears of by workspace.changed.
  if (project === undefined) return;
  try {
    const tree = created ? await openProjectTree(project) : await call('project.tree', { project });
    takeTree(tree);
  } catch (err) {
    toast('error', (err as Error).message);
  }
  expand(rowKey(project, '@project'));
  for (const api of result.apis) expand(rowKey(project, api.id));
}

/** The Server tab (SPEC "gRPC import"): the address, the reflection version, TLS, and where calls go. */
function ServerFields({ draft, onChange, name, onName, inputRef }: { draft: ServerDraft; onChange(patch: Partial<ServerDraft>): void; name: string; onName(name: string): void; inputRef: Ref<HTMLInputElement & HTMLTextAreaElement> }) {
  return (
    <>
      <label class="import-field">
        <span>Address</span>
        <input ref={inputRef as Ref<HTMLInputElement>} class="mono" aria-label="Server address" placeholder="localhost:50051" value={draft.address} onInput={(e) => onChange({ address: (e.target as HTMLInputElement).value })} />
      </label>
      <label class="import-field">
        <span>Reflection version</span>
        <select aria-label="Reflection version" value={draft.reflection} onChange={(e) => onChange({ reflection: (e.target as HTMLSelectElement).value as ServerDraft['reflection'] })}>
          <option value="auto">Automatic</option>
          <option value="v1">v1</option>
          <option value="v1alpha">v1alpha</option>
        </select>
      </label>
      <label class="checkbox">
        <input type="checkbox" checked={draft.tls} onChange={(e) => onChange({ tls: (e.target as HTMLInputElement).checked })} />
        The server uses TLS
      </label>
      {draft.tls && (
        <label class="checkbox import-indent">
          <input type="checkbox" checked={draft.insecure} onChange={(e) => onChange({ insecure: (e.target as HTMLInputElement).checked })} />
          Ask even if the certificate does not verify
        </label>
      )}
      <label class="import-field">
        <span>Target</span>
        <input class="mono" aria-label="Target" placeholder="The address above" value={draft.target} onInput={(e) => onChange({ target: (e.target as HTMLInputElement).value })} />
      </label>
      {draft.target.trim() !== '' && (
        <label class="checkbox import-indent">
          <input type="checkbox" checked={draft.targetTls} onChange={(e) => onChange({ targetTls: (e.target as HTMLInputElement).checked })} />
          The target speaks TLS (grpcs)
        </label>
      )}
      <label class="import-field">
        <span>Name</span>
        <input aria-label="API name" placeholder="The service’s name" value={name} onInput={(e) => onName((e.target as HTMLInputElement).value)} />
      </label>
    </>
  );
}
