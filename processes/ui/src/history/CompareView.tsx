/**
 * Compare two History entries side by side: the request (method and URL, headers, body) and the
 * response (status, headers, body). JSON bodies are compared as JSON (member order ignored,
 * array elements matched by value); other bodies line by line.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Header } from '../../../../protocol/model/exchange.js';
import type { HistoryEntry } from '../../../../protocol/model/history.js';
import { chipLabel } from '../../../../protocol/verdict-label.js';
import type { EditorProps } from '../editors/registry.js';
import { call } from '../state/rpc.js';
import { changes, diffHeaders, diffJson, diffText, parseJson, type DiffRow, type HeaderRow } from './diff.js';
import { headerValue, readableBody, statusClass, when } from './format.js';
import './history.css';

export function CompareView({ tab }: EditorProps) {
  const [idA, idB] = tab.itemId.split('~');
  const pair = useSignal<[HistoryEntry, HistoryEntry] | null>(null);
  const error = useSignal('');
  useEffect(() => {
    Promise.all([call('history.get', { project: tab.project, id: idA! }), call('history.get', { project: tab.project, id: idB! })]).then(
      (both) => (pair.value = both),
      (err: Error) => (error.value = err.message),
    );
  }, [tab.itemId]);
  if (error.value) return <div class="pane-message">{error.value}</div>;
  if (!pair.value) return <div class="pane-message">Loading…</div>;
  const [a, b] = pair.value;
  const requestLine = diffText(`${a.request.method} ${a.request.url}`, `${b.request.method} ${b.request.url}`);
  const requestHeaders = diffHeaders(a.request.headers, b.request.headers);
  const requestBody = bodyDiff(a.request.headers, a.request.body, b.request.headers, b.request.body);
  const statusLine = diffText(statusText(a), statusText(b));
  const responseHeaders = diffHeaders(a.response?.headers ?? [], b.response?.headers ?? []);
  const responseBody = bodyDiff(a.response?.headers ?? [], a.response?.body ?? '', b.response?.headers ?? [], b.response?.body ?? '');
  const total = changes(requestLine) + changes(requestHeaders) + changes(requestBody.rows) + changes(statusLine) + changes(responseHeaders) + changes(responseBody.rows);
  return (
    <div class="editor compare" aria-label="Compare sends">
      <header class="compare-header">
        <Side entry={a} label="A" />
        <Side entry={b} label="B" />
        <p class="compare-summary muted">{total === 0 ? 'The two sends are the same.' : `${total} difference${total === 1 ? '' : 's'}`}</p>
      </header>
      <h3 class="compare-group">Request</h3>
      <Section title="Method and URL" rows={requestLine} />
      <HeaderSection title="Headers" rows={requestHeaders} />
      <Section title={`Body${requestBody.json ? ' (compared as JSON)' : ''}`} rows={requestBody.rows} empty="No body on either side." />
      <h3 class="compare-group">Response</h3>
      <Section title="Status" rows={statusLine} />
      <HeaderSection title="Headers" rows={responseHeaders} />
      <Section title={`Body${responseBody.json ? ' (compared as JSON)' : ''}`} rows={responseBody.rows} empty="No body on either side." />
    </div>
  );
}

function statusText(e: HistoryEntry): string {
  if (!e.response) return `No response: ${e.error?.code ?? 'error'}`;
  const chip = e.verdict ? chipLabel(e.verdict) : null;
  return `${e.response.status} ${e.response.statusText}${chip ? ` · ${chip}` : ''}`;
}

function bodyDiff(ha: readonly Header[], a: string, hb: readonly Header[], b: string): { rows: DiffRow[]; json: boolean } {
  if (a === '' && b === '') return { rows: [], json: false };
  const ja = a.trim() ? parseJson(a) : undefined;
  const jb = b.trim() ? parseJson(b) : undefined;
  const jsonType = (h: readonly Header[]) => /json/i.test(headerValue(h, 'content-type') ?? 'json');
  if (ja !== undefined && jb !== undefined && jsonType(ha) && jsonType(hb)) return { rows: diffJson(ja, jb), json: true };
  return { rows: diffText(readableBody(ha, a), readableBody(hb, b)), json: false };
}

function Side({ entry, label }: { entry: HistoryEntry; label: string }) {
  return (
    <div class="compare-side">
      <span class="compare-label">{label}</span>
      <span class="mono muted">{when(entry.at)}</span>
      <span class="method">{entry.request.method}</span>
      <span class="mono compare-url" title={entry.request.url}>
        {entry.request.url}
      </span>
      {entry.response ? <span class={`status ${statusClass(entry.response.status)}`}>{entry.response.status}</span> : <span class="badge badge-err">{entry.error?.code}</span>}
    </div>
  );
}

function Section({ title, rows, empty }: { title: string; rows: DiffRow[]; empty?: string }) {
  const n = changes(rows);
  return (
    <section class="compare-section" aria-label={title}>
      <h4>
        {title} <span class={`count${n ? ' changed' : ''}`}>{n ? `${n} changed` : 'same'}</span>
      </h4>
      {rows.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <div class="diff mono" role="table">
          {rows.map((row, i) => (
            <div key={i} class={`diff-row diff-${row.kind}`} role="row">
              <span class="diff-cell left" role="cell">
                {row.left ?? ''}
              </span>
              <span class="diff-cell right" role="cell">
                {row.right ?? ''}
              </span>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

/** Header rows as diff rows: `Name: value` on each side that has the header. */
function HeaderSection({ title, rows }: { title: string; rows: HeaderRow[] }) {
  const lines = rows.map((r): DiffRow => ({ kind: r.kind, ...(r.left !== undefined ? { left: `${r.name}: ${r.left}` } : {}), ...(r.right !== undefined ? { right: `${r.name}: ${r.right}` } : {}) }));
  return <Section title={title} rows={lines} empty="No headers on either side." />;
}
