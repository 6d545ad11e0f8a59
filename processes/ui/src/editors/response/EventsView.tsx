/**
 * The Events tab of an event stream (SPEC "Events" 2 and 7): one row per event (name, id, data,
 * arrival time), comment lines and `retry:` fields alongside unless hidden, the true counts, and
 * how the stream ended. The list is virtualized (rows of ROW_HEIGHT px, only the visible window
 * drawn) and follows the newest row while scrolled to the bottom; a row opens its whole data; a
 * filter keeps the rows whose data holds its text. A WebSocket session's messages are listed the
 * same way (`socket`): direction and size in place of name and id, pings and pongs on the toggle.
 */
import { useSignal, type Signal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { StreamRow } from '../../../../../protocol/model/stream.js';
import { STREAM_LIMITS } from '../../../../../protocol/model/stream.js';
import type { LiveStream, ShownRow } from '../../state/live-stream.js';
import { highlightJson } from './highlight.js';

const ROW_HEIGHT = 26;
const OVERSCAN = 10;

const count = (n: number) => n.toLocaleString('en-US');

export function arrivalTime(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function EventsView({ live, showOthers, socket = false }: { live: LiveStream; showOthers: Signal<boolean>; socket?: boolean }) {
  const listRef = useRef<HTMLDivElement>(null);
  const scrollTop = useSignal(0);
  const height = useSignal(400);
  const follow = useSignal(true);
  const selected = useSignal<number | null>(null);
  const filter = useSignal('');
  // Redrawn once per batch (version) or when the toggle changes; the list grows by each batch's
  // rows alone, and only its visible window is drawn. A filter goes over the rows held (at most
  // the live pane's 5,000, or a finished stream's kept rows) once per redraw.
  const version = live.version.value;
  const all = live.shown(showOthers.value);
  const rows = filter.value === '' ? all : all.slice(0, all.length).filter((item) => item.kind === 'row' && item.row.data.includes(filter.value));

  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => (height.value = el.clientHeight));
    observer.observe(el);
    height.value = el.clientHeight;
    return () => observer.disconnect();
  }, []);

  // New rows: stay on the newest while the list was at its bottom. Where the list was put last
  // is remembered: a scroll by the user whose event has not arrived yet is not undone.
  const pinnedAt = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    if (pinnedAt.current !== null && Math.abs(el.scrollTop - pinnedAt.current) > 1) follow.value = false;
    if (follow.value) {
      el.scrollTop = el.scrollHeight;
      scrollTop.value = el.scrollTop;
      pinnedAt.current = el.scrollTop;
    } else pinnedAt.current = null;
  }, [version, rows]);

  const first = Math.max(0, Math.floor(scrollTop.value / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop.value + height.value) / ROW_HEIGHT) + OVERSCAN);
  const state = live.state.value;
  const total = live.total.value;
  const events = live.events.value;
  const held = live.heldCount;
  const error = live.error.value;
  const picked = selected.value === null ? undefined : live.rowNumbered(selected.value);

  return (
    <div class="events-view">
      <div class="events-toolbar">
        <StreamState state={state} stopping={live.stopping.value} />
        <span class="events-count" data-testid="events-count">
          {count(events)} {socket ? (events === 1 ? 'message' : 'messages') : events === 1 ? 'event' : 'events'}
        </span>
        <span class="muted" data-testid="rows-count">
          {count(total)} {total === 1 ? 'row' : 'rows'} in all
          {held < total && (state === 'open' ? ` · showing the newest ${count(held)}` : ` · ${count(total - held)} not kept (a finished stream keeps its first ${STREAM_LIMITS.finished.first} and last ${count(STREAM_LIMITS.finished.last)})`)}
        </span>
        <span class="spacer" />
        <input class="events-filter" type="search" aria-label="Filter rows" placeholder="Filter" value={filter.value} onInput={(e) => (filter.value = (e.target as HTMLInputElement).value)} />
        <label class="checkbox events-toggle">
          <input type="checkbox" checked={showOthers.value} onChange={(e) => (showOthers.value = (e.target as HTMLInputElement).checked)} /> {socket ? 'Pings and pongs' : 'Comments and retry'}
        </label>
      </div>
      {error && (
        <p class="stream-error" role="alert">
          The connection dropped: {error.message} <code class="muted">{error.code}</code>
        </p>
      )}
      <div class="events-head" aria-hidden="true">
        <span class="ev-n">#</span>
        <span class="ev-time">Arrived</span>
        <span class="ev-name">{socket ? 'Direction' : 'Event'}</span>
        <span class="ev-id">{socket ? 'Size' : 'ID'}</span>
        <span class="ev-data">Data</span>
      </div>
      <div
        class="events-list mono"
        ref={listRef}
        role="table"
        aria-label="Events"
        aria-rowcount={rows.length}
        onScroll={(e) => {
          const el = e.currentTarget as HTMLDivElement;
          scrollTop.value = el.scrollTop;
          follow.value = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
          pinnedAt.current = follow.value ? el.scrollTop : null;
        }}
      >
        {rows.length === 0 && <p class="muted events-empty">{filter.value !== '' ? 'No row holds that text.' : state === 'open' ? (socket ? 'Connected: no message yet.' : 'Waiting for the first event…') : socket ? 'No message was sent or received.' : 'The stream sent no events.'}</p>}
        <div style={{ height: `${rows.length * ROW_HEIGHT}px`, position: 'relative' }}>
          {rows.slice(first, last).map((item, i) => (
            <EventRow key={item.kind === 'row' ? item.row.n : `gap${first + i}`} item={item} top={(first + i) * ROW_HEIGHT} selected={item.kind === 'row' && item.row.n === selected.value} onPick={(n) => (selected.value = selected.value === n ? null : n)} />
          ))}
        </div>
      </div>
      {picked && <RowDetail row={picked} onClose={() => (selected.value = null)} />}
    </div>
  );
}

function StreamState({ state, stopping }: { state: string; stopping: boolean }) {
  if (state === 'open') {
    return (
      <span class="stream-state open" data-testid="stream-state">
        <span class="live-dot" aria-hidden="true" />
        {stopping ? 'stopping…' : 'open'}
      </span>
    );
  }
  return (
    <span class={`stream-state ${state}`} data-testid="stream-state">
      {state}
    </span>
  );
}

function EventRow({ item, top, selected, onPick }: { item: ShownRow; top: number; selected: boolean; onPick: (n: number) => void }) {
  if (item.kind === 'gap') {
    return (
      <div class="ev-row ev-gap" role="row" style={{ top: `${top}px` }}>
        <span role="cell">
          … {count(item.missing)} {item.missing === 1 ? 'row' : 'rows'} not kept …
        </span>
      </div>
    );
  }
  const row = item.row;
  return (
    <div class={`ev-row ev-${row.kind}${selected ? ' selected' : ''}`} role="row" style={{ top: `${top}px` }} onClick={() => onPick(row.n)}>
      <span class="ev-n" role="cell">
        {row.n}
      </span>
      <span class="ev-time" role="cell">
        {arrivalTime(row.at)}
      </span>
      <span class="ev-name" role="cell">
        {rowName(row)}
      </span>
      <span class="ev-id" role="cell">
        {row.kind === 'sent' || row.kind === 'received' ? formatSize(messageSize(row)) : (row.id ?? '')}
      </span>
      <span class="ev-data" role="cell" title={row.data.length > 80 ? row.data.slice(0, 2000) : undefined}>
        {row.kind === 'retry' ? `${row.data} ms` : row.name === 'binary' && row.kind !== 'event' ? `base64 ${row.data}` : row.data.replace(/\n/g, ' ⏎ ')}
      </span>
    </div>
  );
}

/** What a row is, as its name cell says: an event's name, a comment, a retry field, a message's direction, a ping, a pong, the close. */
function rowName(row: StreamRow): string {
  switch (row.kind) {
    case 'event':
      return row.name ?? 'message';
    case 'comment':
      return ': comment';
    case 'retry':
      return 'retry:';
    case 'sent':
      return row.name === 'binary' ? '↑ sent (binary)' : '↑ sent';
    case 'received':
      return row.name === 'binary' ? '↓ received (binary)' : '↓ received';
    case 'ping':
      // Ours (the Ping button) is named `client`, as a close from our side is.
      return row.name === 'client' ? '↑ ping' : '↓ ping';
    case 'pong':
      return '↓ pong';
    case 'close':
      return row.name === 'client' ? 'closed by Parley' : 'closed by the server';
    default:
      return row.kind;
  }
}

/** A message's size in bytes: its text's UTF-8, or a binary one's bytes (its data is base64). */
export function messageSize(row: StreamRow): number {
  if (row.name === 'binary') return Math.floor((row.data.length * 3) / 4) - (row.data.endsWith('==') ? 2 : row.data.endsWith('=') ? 1 : 0);
  return new TextEncoder().encode(row.data).length;
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function RowDetail({ row, onClose }: { row: StreamRow; onClose: () => void }) {
  let pretty: string | null = null;
  if ((row.kind === 'event' || ((row.kind === 'sent' || row.kind === 'received') && row.name !== 'binary')) && row.data.length < 512 * 1024) {
    try {
      pretty = JSON.stringify(JSON.parse(row.data), null, 2);
    } catch {
      pretty = null;
    }
  }
  return (
    <div class="event-detail" role="region" aria-label="Event data">
      <div class="event-detail-head">
        <strong>#{row.n}</strong>
        <span>{rowName(row)}</span>
        {row.id !== undefined && <span class="muted">id {row.id}</span>}
        <span class="muted">{arrivalTime(row.at)}</span>
        <span class="spacer" />
        <button class="button small" onClick={onClose}>
          Close
        </button>
      </div>
      <pre class="pretty mono">{pretty === null ? row.data : pretty.split('\n').map((line, i) => <div key={i}>{highlightJson(line)}</div>)}</pre>
    </div>
  );
}
