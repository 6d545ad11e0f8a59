/** Under the editor: the live log (with a detail view) and the stubs the contract does not allow. */
import type { BodyPreview, MockHeader, MockLogEntry } from '../../../../../protocol/model/mock.js';
import { highlightJson, highlightMarkup } from '../response/highlight.js';
import { loadOlderLog, type MockTabState } from './mock-tabs.js';
import { Splitter } from '../../components/Splitter.js';
import { paneSize } from '../../state/layout.js';

const DEFAULT_LOG_HEIGHT = () => Math.round(innerHeight * 0.3);
const maxLogHeight = () => Math.max(120, innerHeight - 300);

export function BottomPanel({ state }: { state: MockTabState }) {
  const view = state.view.value!;
  const errors = view.findings.filter((f) => f.severity === 'error').length;
  const height = Math.max(120, Math.min(maxLogHeight(), paneSize('mockLog', DEFAULT_LOG_HEIGHT())));
  return (
    <>
      <Splitter pane="mockLog" label="Resize the mock log" orientation="horizontal" fallback={DEFAULT_LOG_HEIGHT()} min={120} max={maxLogHeight()} after />
      <section class="mock-bottom" style={{ flexBasis: `${height}px` }}>
        <nav class="subtabs" role="tablist" aria-label="Mock views">
          <button role="tab" aria-selected={state.bottom.value === 'log'} class={state.bottom.value === 'log' ? 'active' : ''} onClick={() => (state.bottom.value = 'log')}>
            Log{' '}
            <span class="count" data-testid="log-count" title={state.logMore.value ? 'The newest entries; older ones are kept: Load older entries under the last row.' : undefined}>
              {state.log.value.length}
              {state.logMore.value ? '+' : ''}
            </span>
          </button>
          <button role="tab" aria-selected={state.bottom.value === 'findings'} class={state.bottom.value === 'findings' ? 'active' : ''} onClick={() => (state.bottom.value = 'findings')}>
            Against the contract{' '}
            <span class={`count${errors > 0 ? ' count-err' : ''}`} data-testid="finding-count">
              {view.findings.length}
            </span>
          </button>
        </nav>
        {state.bottom.value === 'log' ? <LogView state={state} /> : <Findings state={state} />}
      </section>
    </>
  );
}

function LogView({ state }: { state: MockTabState }) {
  const entries = state.log.value;
  const selected = entries.find((e) => e.id === state.logSelected.value);
  if (entries.length === 0) {
    return <p class="muted log-empty">{state.view.value?.running ? `No requests yet. Send one to ${state.view.value.running.url}` : 'No requests yet. Start the mock and call it.'}</p>;
  }
  return (
    <div class={`mock-log${selected ? ' with-detail' : ''}`}>
      <div class="log-table-wrap">
        <table class="log-table" aria-label="Mock log">
          <thead>
            <tr>
              <th>Time</th>
              <th>Request</th>
              <th>Operation</th>
              <th>Response</th>
              <th>Status</th>
              <th class="num">Duration</th>
            </tr>
          </thead>
          <tbody>
            {[...entries].reverse().map((e) => (
              <tr key={e.id} class={e.id === state.logSelected.value ? 'selected' : ''} onClick={() => (state.logSelected.value = e.id === state.logSelected.value ? null : e.id)}>
                <td class="mono muted">{timeOf(e.time)}</td>
                <td class="mono log-request">
                  <span class={`method method-${e.method.toLowerCase()}`}>{e.method}</span> {e.path}
                </td>
                <td>{e.operation || <span class="muted">none</span>}</td>
                <td>
                  {e.responseName || <span class="muted">-</span>}
                  {e.problems.length > 0 && (
                    <span class="badge badge-warn" title="Problems the contract check found in the request">
                      {e.problems.length} problem{e.problems.length === 1 ? '' : 's'}
                    </span>
                  )}
                </td>
                <td>
                  <span class={`status s${String(e.status)[0]}`}>{e.status}</span>
                </td>
                <td class="num mono muted">{e.durationMs} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
        {state.logMore.value && (
          <p class="log-more">
            <button class="button small" disabled={state.logLoading.value} onClick={() => void loadOlderLog(state)}>
              {state.logLoading.value ? 'Loading…' : 'Load older entries'}
            </button>
          </p>
        )}
      </div>
      {selected && <LogDetail entry={selected} onClose={() => (state.logSelected.value = null)} />}
    </div>
  );
}

function timeOf(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

function LogDetail({ entry, onClose }: { entry: MockLogEntry; onClose(): void }) {
  return (
    <aside class="log-detail" aria-label="Log entry">
      <header>
        <strong class="mono">
          {entry.method} {entry.path}
        </strong>
        <span class="spacer" />
        <button class="button small" onClick={onClose}>
          Close
        </button>
      </header>
      {entry.problems.length > 0 && (
        <section>
          <h4>Contract problems</h4>
          <ul class="detail-problems">
            {entry.problems.map((p, i) => (
              <li key={i}>
                <span class="badge">{p.in}</span> {p.pointer && <code>{p.pointer}</code>} {p.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      {entry.notes.length > 0 && (
        <section>
          <h4>Notes</h4>
          <ul class="detail-notes">
            {entry.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </section>
      )}
      <section>
        <h4>Request</h4>
        <Headers headers={entry.request.headers} />
        <Body body={entry.request.body} headers={entry.request.headers} />
      </section>
      <section>
        <h4>
          Response <span class={`status s${String(entry.status)[0]}`}>{entry.status}</span>{' '}
          {entry.responseName && <span class="muted">{entry.responseName}</span>}
        </h4>
        <Headers headers={entry.response.headers} />
        <Body body={entry.response.body} headers={entry.response.headers} />
      </section>
    </aside>
  );
}

function Headers({ headers }: { headers: MockHeader[] }) {
  if (headers.length === 0) return <p class="muted">No headers.</p>;
  return (
    <table class="kv-table">
      <tbody>
        {headers.map((h, i) => (
          <tr key={i}>
            <th>{h.name}</th>
            <td class="mono break">{h.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Body({ body, headers }: { body: BodyPreview; headers: MockHeader[] }) {
  if (body.size === 0) return <p class="muted">No body.</p>;
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  let text = body.text;
  let shown;
  if (/json/i.test(type)) {
    try {
      text = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Shown as sent: a cut or broken body is still worth reading.
    }
    shown = highlightJson(text);
  } else if (/xml|html/i.test(type)) shown = highlightMarkup(text);
  else shown = text;
  return (
    <>
      <pre class="detail-body pretty">{shown}</pre>
      {body.truncated && (
        <p class="muted">
          Showing the first {body.text.length.toLocaleString()} characters of {body.size.toLocaleString()} bytes.
        </p>
      )}
    </>
  );
}

function Findings({ state }: { state: MockTabState }) {
  const view = state.view.value!;
  if (view.findings.length === 0) {
    return <p class="muted log-empty">{view.mock ? 'Every response is one the contract allows.' : 'Fix the files above to check the responses.'}</p>;
  }
  return (
    <ul class="findings-list" aria-label="Responses against the contract">
      {view.findings.map((f, i) => (
        <li
          key={i}
          class={f.severity}
          onClick={() => {
            state.opId.value = f.operationId;
            if (f.responseId) state.responseId.value = f.responseId;
          }}
        >
          <span class={`sev ${f.severity}`}>{f.severity === 'error' ? '✕' : '!'}</span>
          <span class={`method method-${f.method.toLowerCase()}`}>{f.method}</span>
          <code>{f.path}</code>
          <span class="finding-where">
            {f.operation}
            {f.response ? ` › ${f.response}` : ''}
          </span>
          <span class="badge">{f.rule}</span>
          {f.pointer && <code>{f.pointer}</code>}
          <span class="finding-message">{f.message}</span>
        </li>
      ))}
    </ul>
  );
}
