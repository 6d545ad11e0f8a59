/**
 * A kept event stream as History and the HTTP Log show it: how it ended (with the error of a
 * dropped connection), the true counts, how many rows were not kept, and the kept rows as they
 * were received (a mark where rows were let go).
 */
import type { StreamRecord } from '../../../../../protocol/model/stream.js';
import { shownRows } from '../../state/live-stream.js';
import { arrivalTime } from './EventsView.js';

export function RecordedStream({ record }: { record: StreamRecord }) {
  const rows = shownRows(record.rows, true);
  const count = (n: number) => n.toLocaleString('en-US');
  return (
    <div class="recorded-stream" aria-label="Recorded stream">
      <p class="recorded-stream-summary">
        <span class={`stream-state ${record.state}`}>{record.state}</span> {count(record.events)} events, {count(record.total)} rows in all
        {record.notKept > 0 && <span class="muted"> · {count(record.notKept)} rows not kept</span>}
      </p>
      {record.error && (
        <p class="stream-error" role="alert">
          The connection dropped: {record.error.message}
        </p>
      )}
      <pre class="raw mono recorded-stream-rows">
        {rows.map((item, i) =>
          item.kind === 'gap' ? (
            <div key={`g${i}`} class="muted">
              … {count(item.missing)} rows not kept …
            </div>
          ) : (
            <div key={item.row.n}>
              <span class="muted">
                {String(item.row.n).padStart(5)} {arrivalTime(item.row.at)}{' '}
              </span>
              {item.row.kind === 'event' ? `${item.row.name ?? 'message'}${item.row.id !== undefined ? ` #${item.row.id}` : ''}: ${item.row.data}` : item.row.kind === 'comment' ? `: ${item.row.data}` : `retry: ${item.row.data}`}
            </div>
          ),
        )}
      </pre>
    </div>
  );
}
