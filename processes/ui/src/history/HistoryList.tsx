/**
 * History as a searchable list: newest first, filtered by words (URL, method, status, chip),
 * method, status and chip. A row opens its entry (request and response as recorded); an entry
 * can be re-sent, copied as cURL, and two entries ticked and compared.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { HistoryEntry, HistoryQuery, HistorySummary, ResendResult } from '../../../../protocol/model/history.js';
import { chipLabel, chipTone } from '../../../../protocol/verdict-label.js';
import { MethodBadge } from '../components/Icons.js';
import { formatBytes } from '../components/FileChooser.js';
import { projectByRoot } from '../state/app.js';
import { METHODS } from '../state/actions.js';
import { call } from '../state/rpc.js';
import { openTab, requestTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { openCopyCurl } from './CopyCurlDialog.js';
import { RecordedStream } from '../editors/response/RecordedStream.js';
import { statusClass, when } from './format.js';
import { RawMessage } from './RawMessage.js';
import './history.css';

export interface HistoryListProps {
  project: string;
  /** Only this request's entries (the request's History tab). */
  requestId?: string;
  /**
   * Re-sends an entry, its response shown where the owner puts it (its request's editor, where an
   * event stream streams live); answers when the send does (a stream's end).
   */
  resend: (entry: HistorySummary) => Promise<ResendResult>;
  /** Anything that changes when History may have grown (the tab's last response). */
  refreshKey?: unknown;
}

const CHIPS: [NonNullable<HistoryQuery['chip']>, string][] = [
  ['pass', 'Contract ✓'],
  ['problems', 'Contract problems'],
  ['unexpected-status', 'Unexpected status'],
  ['no-schema', 'No schema'],
  ['skipped', 'Skipped'],
  ['not-checked', 'Not checked'],
  ['none', 'No chip'],
];

export function HistoryList({ project, requestId, resend, refreshKey }: HistoryListProps) {
  const entries = useSignal<HistorySummary[] | null>(null);
  const error = useSignal('');
  const text = useSignal('');
  const method = useSignal('');
  const status = useSignal('');
  const chip = useSignal('');
  const open = useSignal<string | null>(null);
  const picked = useSignal<string[]>([]);
  const reloads = useSignal(0);
  const wholeProject = requestId === undefined;

  useEffect(() => {
    const query: HistoryQuery = {
      ...(requestId ? { requestId } : {}),
      ...(text.value.trim() ? { text: text.value.trim() } : {}),
      ...(method.value ? { method: method.value } : {}),
      ...(status.value ? { status: status.value } : {}),
      ...(chip.value ? { chip: chip.value as NonNullable<HistoryQuery['chip']> } : {}),
    };
    let current = true;
    // Typing settles for a moment before the search runs.
    const timer = setTimeout(() => {
      call('history.list', { project, ...query }).then(
        (list) => current && ((entries.value = list), (error.value = '')),
        (err: Error) => current && (error.value = err.message),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [project, requestId, text.value, method.value, status.value, chip.value, refreshKey, reloads.value]);

  const names = new Map((projectByRoot(project)?.items ?? []).filter((i) => i.kind === 'request').map((i) => [i.id, i.name]));
  const togglePick = (id: string) => {
    const now = picked.value;
    picked.value = now.includes(id) ? now.filter((p) => p !== id) : [...now, id].slice(-2);
  };
  const compare = () => {
    const list = entries.value ?? [];
    // Older on the left, newer on the right.
    const [a, b] = [...picked.value].sort((x, y) => list.findIndex((e) => e.id === y) - list.findIndex((e) => e.id === x));
    openTab({ kind: 'compare', project, itemId: `${a}~${b}`, title: 'Compare sends' });
  };
  const clear = async () => {
    if (!confirm(wholeProject ? 'Forget every send of this project?' : 'Forget every send of this request?')) return;
    await call('history.clear', { project, ...(requestId ? { requestId } : {}) }).catch((err: Error) => toast('error', err.message));
    picked.value = [];
    reloads.value++;
  };

  return (
    <div class="history">
      <div class="history-filters" role="search">
        <input class="history-search" type="search" aria-label="Search History" placeholder="Search URL, method, status, chip…" value={text.value} onInput={(e) => (text.value = (e.target as HTMLInputElement).value)} />
        <select aria-label="Method" value={method.value} onChange={(e) => (method.value = (e.target as HTMLSelectElement).value)}>
          <option value="">Any method</option>
          {METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <select aria-label="Status" value={status.value} onChange={(e) => (status.value = (e.target as HTMLSelectElement).value)}>
          <option value="">Any status</option>
          {['2xx', '3xx', '4xx', '5xx'].map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
          <option value="error">No response</option>
        </select>
        <select aria-label="Contract chip" value={chip.value} onChange={(e) => (chip.value = (e.target as HTMLSelectElement).value)}>
          <option value="">Any chip</option>
          {CHIPS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <span class="spacer" />
        <button class="button small" disabled={picked.value.length !== 2} title="Tick two entries to compare them" onClick={compare}>
          Compare{picked.value.length ? ` (${picked.value.length}/2)` : ''}
        </button>
        <button class="button small" disabled={!entries.value?.length} onClick={() => void clear()}>
          Clear…
        </button>
      </div>
      {error.value ? (
        <p class="inline-error">{error.value}</p>
      ) : !entries.value ? (
        <p class="muted">Loading…</p>
      ) : entries.value.length === 0 ? (
        <p class="muted history-empty">{text.value || method.value || status.value || chip.value ? 'No sends match.' : 'No sends yet.'}</p>
      ) : (
        <ul class="history-list" aria-label="History">
          {entries.value.map((entry) => (
            <li key={entry.id} class={`history-item${open.value === entry.id ? ' open' : ''}${picked.value.includes(entry.id) ? ' picked' : ''}`}>
              <div class="history-row-line">
                <input type="checkbox" class="history-pick" aria-label={`Pick for Compare: ${entry.method} ${entry.url} at ${when(entry.at)}`} checked={picked.value.includes(entry.id)} onChange={() => togglePick(entry.id)} />
                <button class="history-row" aria-expanded={open.value === entry.id} onClick={() => (open.value = open.value === entry.id ? null : entry.id)}>
                  <span class="history-time muted mono">{when(entry.at)}</span>
                  <MethodBadge method={entry.method} small />
                  {wholeProject && <span class="history-name">{names.get(entry.requestId) ?? 'Deleted request'}</span>}
                  <span class="history-url mono" title={entry.url}>
                    {entry.url}
                  </span>
                  {entry.status !== undefined ? <span class={`status ${statusClass(entry.status)}`}>{entry.status}</span> : <span class="badge badge-err">{entry.error?.code}</span>}
                  {entry.timeMs !== undefined && <span class="muted history-ms">{entry.timeMs.toFixed(0)} ms</span>}
                  {entry.verdict && chipLabel(entry.verdict) && <span class={`chip chip-${chipTone(entry.verdict)}`}>{chipLabel(entry.verdict)}</span>}
                  {entry.redacted && (
                    <span class="badge" title="Secret and credential values were masked before this entry was written">
                      redacted
                    </span>
                  )}
                </button>
              </div>
              {open.value === entry.id && <EntryDetail project={project} summary={entry} resend={resend} showRequestLink={wholeProject && names.has(entry.requestId)} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function EntryDetail({ project, summary, resend: resendEntry, showRequestLink }: { project: string; summary: HistorySummary; resend: HistoryListProps['resend']; showRequestLink: boolean }) {
  const entry = useSignal<HistoryEntry | null>(null);
  const error = useSignal('');
  const busy = useSignal(false);
  useEffect(() => {
    call('history.get', { project, id: summary.id }).then(
      (e) => (entry.value = e),
      (err: Error) => (error.value = err.message),
    );
  }, [summary.id]);
  const resend = async () => {
    busy.value = true;
    try {
      const result = await resendEntry(summary);
      if (result.from === 'request') toast('warning', result.reason ?? 'Re-sent from the request.');
      else toast('success', result.note ? `Re-sent. ${result.note}` : 'Re-sent this entry through the request.');
    } catch (err) {
      toast('error', (err as Error).message);
    } finally {
      busy.value = false;
    }
  };
  const e = entry.value;
  return (
    <div class="history-detail">
      <div class="toolbar">
        <button class="button small primary" disabled={busy.value} onClick={() => void resend()}>
          {busy.value ? 'Sending…' : 'Re-send'}
        </button>
        <button class="button small" onClick={() => openCopyCurl('Copy as cURL', (showSecrets) => call('history.curl', { project, id: summary.id, showSecrets }).then((r) => r.command))}>
          Copy as cURL…
        </button>
        {showRequestLink && (
          <button
            class="button small"
            onClick={() => {
              const item = projectByRoot(project)?.items.find((i) => i.id === summary.requestId);
              if (item?.kind === 'request') openTab(requestTab(project, item));
            }}
          >
            Open request
          </button>
        )}
      </div>
      {error.value && <p class="inline-error">{error.value}</p>}
      {!e && !error.value && <p class="muted">Loading…</p>}
      {e && (
        <div class="history-exchange">
          <section aria-label="Recorded request">
            <h4>Request</h4>
            <RawMessage firstLine={`${e.request.method} ${e.request.url}`} headers={e.request.headers} body={e.request.body} cutNote={e.request.bodyTruncated && 'History keeps the first 256 KB'} />
          </section>
          <section aria-label="Recorded response">
            <h4>Response</h4>
            {e.error && <p class="inline-error">{e.error.message}</p>}
            {e.response && (
              <RawMessage
                firstLine={
                  <>
                    {e.response.status} {e.response.statusText} <span class="muted">({formatBytes(e.response.size)}, {e.response.timeMs.toFixed(0)} ms)</span>
                  </>
                }
                headers={e.response.headers}
                body={e.response.stream ? undefined : e.response.body}
                cutNote={e.response.bodyTruncated && 'History keeps the first 256 KB'}
              />
            )}
            {e.response?.stream && <RecordedStream record={e.response.stream} />}
            {e.verdict && e.verdict.problems.length > 0 && (
              <ul class="problem-list">
                {e.verdict.problems.map((p, i) => (
                  <li key={i}>
                    <code>{p.pointer || '/'}</code> {p.message}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
