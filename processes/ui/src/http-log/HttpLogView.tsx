/**
 * The HTTP Log (SPEC "Events" 6, "Errors"): every exchange of this session, newest first, an
 * event stream as one multi-message exchange. Tick rows and Export HAR (a download of the HAR
 * 1.2 document the supervisor writes); open a row for its request and response, Copy as cURL
 * (`-N` for a stream) or Re-send it (a streamed row is refused, and the refusal is shown).
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { HttpLogEntry, HttpLogRow } from '../../../../protocol/model/http-log.js';
import { MethodBadge } from '../components/Icons.js';
import { formatBytes } from '../components/FileChooser.js';
import { peer } from '../state/app.js';
import { call } from '../state/rpc.js';
import { toast } from '../state/toasts.js';
import { openCopyCurl } from '../history/CopyCurlDialog.js';
import { statusClass, when } from '../history/format.js';
import { RawMessage } from '../history/RawMessage.js';
import { RecordedStream } from '../editors/response/RecordedStream.js';
import '../history/history.css';
import './http-log.css';

/** Saves `text` as a file through the browser's (or Electron's) download. */
function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function harFileName(now = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `parley-${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}.har`;
}

export function HttpLogView() {
  const rows = useSignal<HttpLogRow[] | null>(null);
  const dropped = useSignal(0);
  const error = useSignal('');
  const picked = useSignal<string[]>([]);
  const open = useSignal<string | null>(null);
  const exporting = useSignal(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      timer = undefined;
      call('httpLog.list', {}).then(
        (list) => {
          rows.value = list.rows;
          dropped.value = list.dropped;
          const ids = new Set(list.rows.map((r) => r.id));
          picked.value = picked.value.filter((id) => ids.has(id));
          error.value = '';
        },
        (err: Error) => (error.value = err.message),
      );
    };
    load();
    // A running stream changes its row about once a second: reloads are settled, never one per event.
    const off = peer.value?.on('httpLog.changed', () => void (timer ??= setTimeout(load, 200)));
    return () => {
      off?.();
      clearTimeout(timer);
    };
  }, [peer.value]);

  const list = rows.value ?? [];
  const allPicked = list.length > 0 && picked.value.length === list.length;
  const toggle = (id: string) => (picked.value = picked.value.includes(id) ? picked.value.filter((p) => p !== id) : [...picked.value, id]);

  const exportHar = async () => {
    if (picked.value.length === 0 || exporting.value) return;
    exporting.value = true;
    const pieces: string[] = [];
    try {
      const { entries } = await call('httpLog.har', { ids: picked.value }, { onChunk: ({ text }) => void pieces.push(text) });
      download(harFileName(), pieces.join(''), 'application/json');
      toast('success', `Exported ${entries} ${entries === 1 ? 'exchange' : 'exchanges'} as HAR.`);
    } catch (err) {
      toast('error', (err as Error).message);
    } finally {
      exporting.value = false;
    }
  };

  const clear = async () => {
    if (!confirm('Forget every exchange of this session in the HTTP Log?')) return;
    await call('httpLog.clear', {}).catch((err: Error) => toast('error', err.message));
    picked.value = [];
    open.value = null;
  };

  return (
    <div class="editor http-log">
      <header class="editor-header">
        <h2>HTTP Log</h2>
        <span class="muted">every exchange of this session, newest first; kept until Parley quits</span>
      </header>
      <div class="http-log-toolbar">
        <label class="checkbox">
          <input type="checkbox" aria-label="Pick every row" checked={allPicked} disabled={list.length === 0} onChange={() => (picked.value = allPicked ? [] : list.map((r) => r.id))} /> All
        </label>
        <button class="button small primary" disabled={picked.value.length === 0 || exporting.value} onClick={() => void exportHar()}>
          {exporting.value ? 'Exporting…' : `Export HAR${picked.value.length ? ` (${picked.value.length})` : ''}`}
        </button>
        <span class="spacer" />
        {dropped.value > 0 && <span class="muted">{dropped.value.toLocaleString('en-US')} older exchanges let go</span>}
        <button class="button small" disabled={list.length === 0} onClick={() => void clear()}>
          Clear…
        </button>
      </div>
      {error.value ? (
        <p class="inline-error">{error.value}</p>
      ) : !rows.value ? (
        <p class="muted">Loading…</p>
      ) : list.length === 0 ? (
        <p class="muted http-log-empty">Nothing sent yet in this session. Every send, from any project, shows here.</p>
      ) : (
        <ul class="http-log-list" aria-label="HTTP Log">
          {list.map((row) => (
            <li key={row.id} class={`http-log-item${open.value === row.id ? ' open' : ''}${picked.value.includes(row.id) ? ' picked' : ''}`}>
              <div class="http-log-line">
                <input type="checkbox" aria-label={`Pick ${row.method} ${row.url}`} checked={picked.value.includes(row.id)} onChange={() => toggle(row.id)} />
                <button class="http-log-row" aria-expanded={open.value === row.id} onClick={() => (open.value = open.value === row.id ? null : row.id)}>
                  <span class="muted mono http-log-time">{when(row.at)}</span>
                  <MethodBadge method={row.method} small />
                  <span class="http-log-name">{row.requestName}</span>
                  <span class="mono http-log-url" title={row.url}>
                    {row.url}
                  </span>
                  {row.status !== undefined ? <span class={`status ${statusClass(row.status)}`}>{row.status}</span> : row.error ? <span class="badge badge-err">{row.error.code}</span> : <span class="muted">…</span>}
                  {row.stream && (
                    <span class={`stream-state ${row.stream.state}`} title={`${row.stream.total.toLocaleString('en-US')} rows in all`}>
                      {row.stream.state === 'open' && <span class="live-dot" aria-hidden="true" />}
                      stream · {row.stream.events.toLocaleString('en-US')} events · {row.stream.state}
                    </span>
                  )}
                  {row.timeMs !== undefined && <span class="muted http-log-ms">{row.timeMs.toFixed(0)} ms</span>}
                  {row.size !== undefined && !row.stream && <span class="muted http-log-size">{formatBytes(row.size)}</span>}
                </button>
              </div>
              {open.value === row.id && <ExchangeDetail row={row} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ExchangeDetail({ row }: { row: HttpLogRow }) {
  const entry = useSignal<HttpLogEntry | null>(null);
  const error = useSignal('');
  const refusal = useSignal('');
  const busy = useSignal(false);
  useEffect(() => {
    call('httpLog.get', { id: row.id }).then(
      (e) => (entry.value = e),
      (err: Error) => (error.value = err.message),
    );
  }, [row.id, row.stream?.state, row.status]);
  const resend = async () => {
    busy.value = true;
    refusal.value = '';
    try {
      const exchange = await call('httpLog.resend', { id: row.id });
      toast('success', `Re-sent: ${exchange.response.status} ${exchange.response.statusText}.`);
    } catch (err) {
      refusal.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  };
  const e = entry.value;
  return (
    <div class="http-log-detail">
      <div class="toolbar">
        <button class="button small" onClick={() => openCopyCurl('Copy as cURL', () => call('httpLog.curl', { id: row.id }).then((r) => r.command), { secrets: false })}>
          Copy as cURL…
        </button>
        <button class="button small" disabled={busy.value} onClick={() => void resend()}>
          {busy.value ? 'Sending…' : 'Re-send'}
        </button>
      </div>
      {refusal.value && (
        <p class="inline-error" role="alert">
          {refusal.value}
        </p>
      )}
      {error.value && <p class="inline-error">{error.value}</p>}
      {!e && !error.value && <p class="muted">Loading…</p>}
      {e && (
        <div class="history-exchange">
          <section aria-label="Logged request">
            <h4>Request</h4>
            <RawMessage firstLine={`${e.request.method} ${e.request.url}`} headers={e.request.headers} body={e.request.body} />
          </section>
          <section aria-label="Logged response">
            <h4>Response</h4>
            {e.row.error && <p class="inline-error">{e.row.error.message}</p>}
            {e.response && (
              <>
                <RawMessage
                  firstLine={`${e.response.status} ${e.response.statusText}${e.httpVersion ? ` · HTTP/${e.httpVersion}` : ''}`}
                  headers={e.response.headers}
                  body={e.response.stream ? undefined : e.response.body}
                />
                {e.response.stream && <RecordedStream record={e.response.stream} />}
              </>
            )}
            {!e.response && !e.row.error && <p class="muted">Waiting for the response…</p>}
          </section>
        </div>
      )}
    </div>
  );
}
