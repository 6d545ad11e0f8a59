/** This request's past sends, newest first, each with the contract chip it got. */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { HistoryEntry } from '../../../../../protocol/model/history.js';
import type { RequestTabState } from '../../state/request-tabs.js';
import { call } from '../../state/rpc.js';
import { chipLabel } from './VerdictChip.js';

export function HistoryView({ state }: { state: RequestTabState }) {
  const entries = useSignal<HistoryEntry[] | null>(null);
  const open = useSignal<string | null>(null);
  const error = useSignal('');
  useEffect(() => {
    call('history.list', { project: state.tab.project, requestId: state.tab.itemId }).then(
      (list) => (entries.value = list),
      (err: Error) => (error.value = err.message),
    );
  }, [state.exchange.value, state.error.value]);
  if (error.value) return <p class="inline-error">{error.value}</p>;
  if (!entries.value) return <p class="muted">Loading…</p>;
  if (entries.value.length === 0) return <p class="muted">No sends yet.</p>;
  return (
    <ul class="history-list" aria-label="History">
      {entries.value.map((entry) => {
        const label = entry.verdict ? chipLabel(entry.verdict) : null;
        const status = entry.response?.status;
        return (
          <li key={entry.id}>
            <button class="history-row" aria-expanded={open.value === entry.id} onClick={() => (open.value = open.value === entry.id ? null : entry.id)}>
              <span class="muted mono">{new Date(entry.at).toLocaleString()}</span>
              <span class="method">{entry.request.method}</span>
              <span class="history-url mono">{entry.request.url}</span>
              {status !== undefined ? <span class={`status ${status >= 400 ? 's4' : status >= 300 ? 's3' : 's2'}`}>{status}</span> : <span class="badge badge-err">{entry.error?.code}</span>}
              {entry.response && <span class="muted">{entry.response.timeMs.toFixed(0)} ms</span>}
              {label && <span class={`chip chip-${entry.verdict!.kind === 'pass' ? 'ok' : entry.verdict!.kind === 'problems' || entry.verdict!.kind === 'unexpected-status' ? 'err' : 'neutral'}`}>{label}</span>}
              {entry.redacted && <span class="badge" title="Secret values were replaced by their references">redacted</span>}
            </button>
            {open.value === entry.id && (
              <div class="history-detail">
                {entry.error && <p class="inline-error">{entry.error.message}</p>}
                <pre class="raw mono">
                  {entry.request.method} {entry.request.url}
                  {'\n'}
                  {entry.request.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}
                  {entry.request.body ? `\n\n${entry.request.body}` : ''}
                </pre>
                {entry.response && (
                  <pre class="raw mono">
                    {entry.response.status} {entry.response.statusText}
                    {'\n'}
                    {entry.response.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}
                    {'\n\n'}
                    {entry.response.body}
                  </pre>
                )}
                {entry.verdict && entry.verdict.problems.length > 0 && (
                  <ul class="problem-list">
                    {entry.verdict.problems.map((p, i) => (
                      <li key={i}>
                        <code>{p.pointer || '/'}</code> {p.message}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
