/**
 * The Runner (docs/run.md "The runner in the app"): a project's, an API's or a folder's requests
 * in the tree's order with checkboxes, iterations, delay, a data file (previewed), the
 * environment; Run, Stop, Run failed again; the results as they arrive (status, time, size,
 * assertions, contract verdict, captures) under a progress line; and Export JUnit / JSON, the reports
 * `parley run` writes, from the same engine in the supervisor (`run.*`).
 */
import { useComputed } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { RunReportFormat, RunRow } from '../../../../protocol/model/run.js';
import { PROJECT_SCOPE, requestsUnder, type OrderedRequest } from '../../../../protocol/project/tree-order.js';
import { kindTone } from '../../../../protocol/verdict-label.js';
import { peer, projectByRoot, workspace } from '../state/app.js';
import { call } from '../state/rpc.js';
import { toast } from '../state/toasts.js';
import { openForm } from '../state/overlays.js';
import { chooseFile, formatBytes } from '../components/FileChooser.js';
import { MethodBadge } from '../components/Icons.js';
import { statusClass } from '../history/format.js';
import type { EditorProps } from '../editors/registry.js';
import { ACTIVE_ENVIRONMENT, NO_ENVIRONMENT, runnerTab, runSettings, type RunnerTab } from './runner-tabs.js';
import { adoptRun, pageRuns, type PageRun } from './runs.js';
import './runner.css';

/** A request of the runner's list: where it is in the tree, its method, and the folders it is in below the runner's own place. */
type Listed = OrderedRequest & { method: string; where: string[] };

export function RunnerView({ tab }: EditorProps) {
  const state = runnerTab(tab);
  // Only a change of the tree makes the list again; a run's events redraw the parts that show it.
  const requests = useComputed<Listed[] | null>(() => {
    const tree = projectByRoot(tab.project);
    const under = tree ? requestsUnder(tree, tab.itemId) : null;
    if (!tree || !under) return null;
    const methods = new Map(tree.items.flatMap((i) => (i.kind === 'request' ? [[i.id, i.method] as const] : [])));
    // Below a folder, the folders it is in go without saying; across a project, the API does not.
    let depth = 0;
    const folders = new Map(tree.items.flatMap((i) => (i.kind === 'folder' ? [[i.id, i.parent] as const] : [])));
    for (let at: string | undefined = tab.itemId; at !== undefined && folders.has(at); at = folders.get(at)) depth++;
    return under.map((r) => ({ ...r, method: methods.get(r.id) ?? 'GET', where: tab.itemId === PROJECT_SCOPE ? [r.apiName, ...r.folders] : r.folders.slice(depth) }));
  }).value;

  // The newest run of this runner, when the tab opens (or the page reconnects): one may be going.
  useEffect(() => {
    if (!peer.value) return;
    void call('run.latest', { project: tab.project, scope: tab.itemId }).then(
      ({ state: found }) => {
        if (!found || (state.run.value && state.run.value !== found.run)) return;
        adoptRun(found);
        state.run.value = found.run;
      },
      () => undefined,
    );
  }, [peer.value, tab.project, tab.itemId]);

  if (!projectByRoot(tab.project)) return <div class="pane-message">This project is closed.</div>;
  if (!requests) return <div class="pane-message">This {tab.itemId.includes('/') ? 'folder' : 'API'} is no longer in the project (renamed, moved or deleted): open the runner again from the tree.</div>;
  return (
    <div class="editor runner">
      <RunControls tab={tab} state={state} requests={requests} />
      <div class="runner-body">
        <aside class="runner-setup">
          <RequestPicker state={state} requests={requests} />
          <RunOptions state={state} />
        </aside>
        <section class="runner-results" aria-label="Results">
          <ProgressLine state={state} />
          <ResultsTable state={state} />
        </section>
      </div>
    </div>
  );
}

const shownRun = (state: RunnerTab): PageRun | null => (state.run.value ? (pageRuns.value.get(state.run.value) ?? null) : null);

/** The header: Run, Stop, Run failed again, Export JUnit… and Export JSON…. */
function RunControls({ tab, state, requests }: { tab: EditorProps['tab']; state: RunnerTab; requests: Listed[] }) {
  const run = shownRun(state);
  const chosen = requests.filter((r) => !state.unticked.value.has(r.id));
  const start = async (ids: string[]) => {
    const settings = runSettings(state);
    if (typeof settings === 'string') return void toast('error', settings);
    state.starting.value = true;
    try {
      const started = await call('run.start', { project: tab.project, scope: tab.itemId, requests: ids, ...settings });
      adoptRun(started);
      state.run.value = started.run;
    } catch (err) {
      toast('error', (err as Error).message);
    } finally {
      state.starting.value = false;
    }
  };
  const running = run?.running ?? false;
  const known = new Set(requests.map((r) => r.id));
  const failedAgain = run && !run.running ? run.failedRequests.filter((id) => known.has(id)) : [];
  const project = projectByRoot(tab.project)?.name ?? '';
  return (
    <header class="editor-header">
      <h2>Runner</h2>
      <span class="muted">{scopeLabel(tab.project, tab.itemId)}</span>
      <span class="spacer" />
      <button class="button primary" disabled={running || state.starting.value || chosen.length === 0} onClick={() => void start(chosen.map((r) => r.id))}>
        Run
      </button>
      <button class="button" disabled={!running} onClick={() => run && void call('run.stop', { run: run.id }).catch((err: Error) => toast('error', err.message))}>
        Stop
      </button>
      <button class="button" disabled={running || state.starting.value || failedAgain.length === 0} title="Runs the requests that failed, with the settings shown" onClick={() => void start(failedAgain)}>
        Run failed again{failedAgain.length > 0 ? ` (${failedAgain.length})` : ''}
      </button>
      <button class="button" disabled={!run || running} onClick={() => run && exportDialog(run, 'junit', project)}>
        Export JUnit…
      </button>
      <button class="button" disabled={!run || running} onClick={() => run && exportDialog(run, 'json', project)}>
        Export JSON…
      </button>
    </header>
  );
}

function scopeLabel(project: string, scope: string): string {
  const tree = projectByRoot(project);
  if (!tree) return '';
  if (scope === PROJECT_SCOPE) return `every request of ${tree.name}`;
  const item = tree.items.find((i) => i.id === scope && (i.kind === 'api' || i.kind === 'folder'));
  if (!item) return '';
  if (item.kind === 'api') return `API ${item.name}`;
  const names: string[] = [];
  for (let at: typeof item | undefined = item; at; ) {
    names.unshift(at.name);
    const parent: string = at.kind === 'folder' ? at.parent : '';
    at = tree.items.find((i) => i.id === parent && (i.kind === 'folder' || i.kind === 'api')) as typeof item | undefined;
  }
  return `folder ${names.join(' / ')}`;
}

function RequestPicker({ state, requests }: { state: RunnerTab; requests: Listed[] }) {
  const unticked = state.unticked.value;
  const ticked = requests.filter((r) => !unticked.has(r.id)).length;
  const toggle = (id: string) => {
    const next = new Set(unticked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    state.unticked.value = next;
  };
  return (
    <section class="runner-requests">
      <label class="checkbox runner-all">
        <input
          type="checkbox"
          aria-label="Every request"
          checked={ticked === requests.length && requests.length > 0}
          ref={(el) => void (el && (el.indeterminate = ticked > 0 && ticked < requests.length))}
          onChange={() => (state.unticked.value = ticked === requests.length ? new Set(requests.map((r) => r.id)) : new Set())}
        />
        <strong>Requests</strong>
        <span class="muted">
          {ticked} of {requests.length}, in the tree's order
        </span>
      </label>
      {requests.length === 0 ? (
        <p class="muted">Nothing to run here yet: add a request first.</p>
      ) : (
        <ul class="runner-request-list" aria-label="Requests to run">
          {requests.map((r) => (
            <li key={r.id}>
              <label class="checkbox">
                <input type="checkbox" aria-label={[r.apiName, ...r.folders, r.name].join('/')} checked={!unticked.has(r.id)} onChange={() => toggle(r.id)} />
                <MethodBadge method={r.method} small />
                <span class="runner-request-name">{r.name}</span>
                {r.where.length > 0 && <span class="muted runner-request-folder">{r.where.join(' / ')}</span>}
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RunOptions({ state }: { state: RunnerTab }) {
  const environments = workspace.value?.environments ?? [];
  const activeId = workspace.value?.activeEnvironment;
  const active = environments.find((e) => e.id === activeId);
  const previewTimer = useRef<ReturnType<typeof setTimeout>>();
  const readPreview = (file: string) => {
    clearTimeout(previewTimer.current);
    if (file.trim() === '') {
      state.preview.value = null;
      return;
    }
    state.preview.value = { file, loading: true };
    void call('run.dataPreview', { path: file }).then(
      (preview) => state.data.value === file && (state.preview.value = { file, preview }),
      (err: Error) => state.data.value === file && (state.preview.value = { file, error: err.message }),
    );
  };
  const dataFile = state.data.value.trim() !== '';
  return (
    <section class="runner-options form-grid">
      <label>
        <span>Iterations</span>
        <input type="number" min={1} aria-label="Iterations" placeholder={dataFile ? 'one per data row' : '1'} value={state.iterations.value} onInput={(e) => (state.iterations.value = (e.target as HTMLInputElement).value)} />
        {dataFile && <small class="muted">Empty: one per row of the data file; more than its rows: the rows are taken in turn.</small>}
      </label>
      <label>
        <span>Delay between requests (ms)</span>
        <input type="number" min={0} aria-label="Delay (ms)" value={state.delay.value} onInput={(e) => (state.delay.value = (e.target as HTMLInputElement).value)} />
      </label>
      <label>
        <span>Environment</span>
        <select aria-label="Environment" value={state.environment.value} onChange={(e) => (state.environment.value = (e.target as HTMLSelectElement).value)}>
          <option value={ACTIVE_ENVIRONMENT}>The active one{active ? ` (${active.name})` : ' (none)'}</option>
          {environments.map((env) => (
            <option key={env.id} value={env.id}>
              {env.name}
            </option>
          ))}
          <option value={NO_ENVIRONMENT}>No environment</option>
        </select>
      </label>
      <div class="runner-data">
        <span>Data file (CSV or JSON)</span>
        <div class="file-pick">
          <input
            aria-label="Data file"
            placeholder="None: each iteration uses the project's properties"
            value={state.data.value}
            onInput={(e) => {
              const file = (e.target as HTMLInputElement).value;
              state.data.value = file;
              clearTimeout(previewTimer.current);
              previewTimer.current = setTimeout(() => readPreview(file), 400);
            }}
          />
          <button
            class="button small"
            onClick={async () => {
              const picked = await chooseFile();
              if (!picked) return;
              state.data.value = picked;
              readPreview(picked);
            }}
          >
            Choose…
          </button>
          {dataFile && (
            <button
              class="button small"
              onClick={() => {
                state.data.value = '';
                readPreview('');
              }}
            >
              Clear
            </button>
          )}
        </div>
        <DataPreviewTable state={state} />
      </div>
    </section>
  );
}

function DataPreviewTable({ state }: { state: RunnerTab }) {
  const shown = state.preview.value;
  if (!shown || shown.file !== state.data.value) return null;
  if (shown.loading) return <p class="muted">Reading its first rows…</p>;
  if (shown.error) return <p class="inline-error">{shown.error}</p>;
  const p = shown.preview!;
  return (
    <div class="runner-preview">
      <table class="runner-preview-table" aria-label="Data file preview">
        <thead>
          <tr>
            <th class="muted">row</th>
            {p.columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {p.rows.map((row, i) => (
            <tr key={i}>
              <td class="muted">{i + 1}</td>
              {row.map((value, c) => (
                <td key={c}>{value}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <small class="muted">{p.more ? `The first ${p.rows.length} rows; the file has more.` : `${p.rows.length} ${p.rows.length === 1 ? 'row' : 'rows'}.`} Each row's columns are properties for its iteration.</small>
    </div>
  );
}

function ProgressLine({ state }: { state: RunnerTab }) {
  const run = shownRun(state);
  if (!run) return <p class="run-progress muted" role="status" aria-label="Run progress">Choose the requests and press Run. Results show here as they arrive.</p>;
  const t = run.totals;
  const { done, total, fraction } = run.progress;
  const counts = [t.failed > 0 ? `${t.failed} failed` : 'none failed', t.assertions.total > 0 ? `${t.assertions.total - t.assertions.failed}/${t.assertions.total} assertions passed` : '', t.captures && t.captures.failed > 0 ? `${t.captures.total - t.captures.failed}/${t.captures.total} captures set` : '', t.contractFailures > 0 ? `${t.contractFailures} with contract problems` : ''].filter(Boolean).join(' · ');
  const s = run.summary;
  let text: string;
  if (run.running) text = `Running… ${done}${total !== undefined ? ` of ${total}` : ''} requests · ${counts}`;
  else if (s?.error) text = `Stopped after ${s.requests} requests: ${s.error.message}`;
  else if (s?.interrupted) text = `Stopped after ${s.requests} requests · ${counts}`;
  else if (s) text = `${s.failed > 0 ? 'Failed' : 'Passed'}: ${s.requests} requests in ${(s.durationMs / 1000).toFixed(1)} s · ${counts}`;
  else text = `${done} requests · ${counts}`;
  return (
    <div class={`run-progress-line${s && !run.running ? (s.failed > 0 || s.error ? ' failed' : s.interrupted ? '' : ' passed') : ''}`}>
      <p class="run-progress" role="status" aria-label="Run progress">
        {text}
      </p>
      {run.running && <progress aria-label="How far the run is" {...(fraction !== undefined ? { value: fraction, max: 1 } : {})} />}
    </div>
  );
}

function ResultsTable({ state }: { state: RunnerTab }) {
  const run = shownRun(state);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  // While the newest row is in view, new rows keep it so; scrolled up, the view stays put.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [run?.rows]);
  if (!run || (run.rows.length === 0 && !run.running)) return null;
  // Several iterations (or data rows): each row says which.
  const several = (run.state?.iterations ?? 1) > 1 || run.state?.data !== undefined || run.rows.some((r) => r.iteration > 1 || r.row !== undefined);
  const hidden = run.totals.requests - run.rows.length;
  return (
    <div class="run-results-scroll" ref={scroller} onScroll={(e) => {
      const el = e.currentTarget;
      pinned.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
    }}>
      {hidden > 0 && <p class="muted run-hidden">The newest {run.rows.length.toLocaleString('en-US')} of {run.totals.requests.toLocaleString('en-US')} results are shown; the exported reports have every one.</p>}
      <table class="run-results" aria-label="Run results">
        <thead>
          <tr>
            <th>#</th>
            {several && <th>Iteration</th>}
            <th>Request</th>
            <th>Status</th>
            <th>Time</th>
            <th>Size</th>
            <th>Assertions</th>
            <th>Contract</th>
          </tr>
        </thead>
        <tbody>
          {run.rows.map((row) => (
            <ResultRow key={row.n} row={row} several={several} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ResultRow({ row, several }: { row: RunRow; several: boolean }) {
  const a = row.assertions;
  return (
    <tr class={row.failed ? 'failed' : ''} data-request={row.request.path}>
      <td class="muted">{row.n}</td>
      {several && (
        <td class="muted" title={row.row}>
          {row.iteration}
        </td>
      )}
      <td class="run-request">
        <span class="run-request-line">
          <span class={`run-mark ${row.failed ? 'x' : 'ok'}`} aria-label={row.failed ? 'failed' : 'passed'}>
            {row.failed ? '✗' : '✓'}
          </span>
          <MethodBadge method={row.request.method} small />
          <span title={row.request.url}>{row.request.path}</span>
        </span>
        <RowFailures row={row} />
        <RowCaptures row={row} />
      </td>
      <td>{row.response ? <span class={`status ${statusClass(row.response.status)}`}>{row.response.status}</span> : <span class="badge badge-err">{row.error?.code === 'unresolved' || row.error?.message.startsWith('Not sent') ? 'not sent' : 'error'}</span>}</td>
      <td class="muted run-time">{row.response ? `${row.response.timeMs.toFixed(0)} ms` : ''}</td>
      <td class="muted run-size">{row.response ? formatBytes(row.response.size) : ''}</td>
      <td>{a.total > 0 ? <span class={a.failed > 0 ? 'run-assert-failed' : 'run-assert-passed'}>{a.total - a.failed}/{a.total}</span> : <span class="muted">none</span>}</td>
      <td>{row.contract ? <span class={`chip chip-${kindTone(row.contract.kind)}`}>{row.contract.label}</span> : <span class="muted">—</span>}</td>
    </tr>
  );
}

/** Under a row: why it was not sent, its failed assertions and its contract problems (the first of each; the reports have all). */
function RowFailures({ row }: { row: RunRow }) {
  const lines: string[] = [];
  if (row.error) lines.push(row.error.message);
  for (const f of row.assertions.failures) lines.push(`${f.label}: ${f.message}`);
  if (row.contract && kindTone(row.contract.kind) === 'err') {
    for (const p of row.contract.problems) lines.push(`contract ${p.pointer || '/'}: ${p.message}`);
    if (row.contract.more > 0) lines.push(`and ${row.contract.more} more contract problems`);
  }
  if (lines.length === 0) return null;
  return (
    <ul class="run-failures">
      {lines.map((line, i) => (
        <li key={i}>{line}</li>
      ))}
    </ul>
  );
}

/**
 * Under a row: what its captures set for the requests after it (docs/captures.md), a credential's
 * value masked, or why one set nothing.
 */
function RowCaptures({ row }: { row: RunRow }) {
  if (!row.captures || row.captures.length === 0) return null;
  return (
    <ul class="run-captures" aria-label={`Captures of ${row.request.path}`}>
      {row.captures.map((c) => (
        <li key={c.index} class={c.ok ? '' : 'failed'}>
          {c.ok ? (
            <>
              <span class="mono">{c.name}</span> = <span class="mono">{c.value}</span>
              {c.message && <span class="muted"> ({c.message})</span>}
            </>
          ) : (
            <>
              capture <span class="mono">{c.name || '(no name)'}</span> from {c.label}: {c.message}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

let lastExportFolder: string | undefined;

/** Export JUnit… / JSON…: asks where, then the supervisor copies the run's report there. */
function exportDialog(run: PageRun, format: RunReportFormat, project: string): void {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const name = `parley-run-${project.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '') || 'project'}-${stamp}.${format === 'junit' ? 'xml' : 'json'}`;
  const what = format === 'junit' ? 'JUnit' : 'JSON';
  openForm({
    title: `Export the ${what} report`,
    submitLabel: 'Export',
    busyLabel: 'Exporting…',
    fields: [{ name: 'path', label: 'Save as', value: lastExportFolder ? `${lastExportFolder}/${name}` : name, required: true, hint: 'A file on this machine; a relative path is in your home folder. An existing file is never replaced.' }],
    onSubmit: async ({ path }) => {
      try {
        const written = await call('run.export', { run: run.id, format, path: path!.trim() });
        lastExportFolder = written.path.slice(0, Math.max(written.path.lastIndexOf('/'), written.path.lastIndexOf('\\')));
        toast('success', `${what} report written to ${written.path} (${formatBytes(written.bytes)}).`);
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
}
