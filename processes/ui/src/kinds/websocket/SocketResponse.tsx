/**
 * A WebSocket request's session below its editor: the handshake's status and headers, then its
 * messages in the Events view's form (direction, time, size, content, a filter, the true count
 * with the newest kept, pings and pongs on a toggle), how it closed; once closed, Timing, Raw and
 * a Query over the messages kept.
 */
import { useMemo } from 'preact/hooks';
import type { StreamRow } from '../../../../../protocol/model/stream.js';
import { EventsView } from '../../editors/response/EventsView.js';
import { HeaderTable, RawView } from '../../editors/response/ResponsePane.js';
import { TimingView } from '../../editors/response/TimingView.js';
import { QueryView } from '../../editors/response/QueryView.js';
import { LiveStream } from '../../state/live-stream.js';
import type { SocketTabState, SocketView } from './socket-tabs.js';

export function SocketResponse({ state }: { state: SocketTabState }) {
  const live = state.live.value;
  const exchange = state.exchange.value;
  const error = state.error.value;
  if (state.sending.value && !live) {
    return (
      <section class="response-pane response-empty" aria-label="Response">
        <div class="sending">
          <span class="spinner" /> Connecting…
        </div>
      </section>
    );
  }
  if (error && !live) {
    const refused = error.code === 'unresolved' || error.message.startsWith('Not sent');
    return (
      <section class="response-pane response-empty" aria-label="Response">
        <div class={`response-error${error.code === 'cancelled' ? ' stopped' : ''}`} role="alert">
          <strong>{error.code === 'cancelled' ? 'Cancelled' : refused ? 'Not connected' : 'Connection failed'}</strong>
          <p>{error.code === 'cancelled' ? 'The handshake was cancelled before the server answered.' : error.message.replace(/^Not sent:\s*/, '')}</p>
          {!refused && error.code !== 'cancelled' && <code class="muted">{error.code}</code>}
        </div>
      </section>
    );
  }
  if (!live && !exchange) {
    return (
      <section class="response-pane" aria-label="Response">
        <p class="muted empty-response">Connect to open the session; its messages, both ways, are listed here.</p>
      </section>
    );
  }
  return <Session state={state} />;
}

function Session({ state }: { state: SocketTabState }) {
  const exchange = state.exchange.value;
  // A refused handshake (401, 404) answers as a response: its status, headers and body.
  const record = exchange?.response.stream;
  const live = useMemo(() => {
    const own = state.live.value;
    if (own) return own;
    return exchange && record ? LiveStream.ofRecord(exchange.response, record) : null;
  }, [state.live.value, exchange]);
  const head = live?.head ?? exchange!.response;
  const open = live?.state.value === 'open' && state.sending.value;
  const closeRow = record?.rows.findLast((row: StreamRow) => row.kind === 'close');
  const views: [SocketView, string][] = [
    ['events', `Messages (${(live?.events.value ?? 0).toLocaleString('en-US')})`],
    ['headers', `Headers (${head.headers.length})`],
    ...(!open && exchange ? ([['timing', 'Timing'], ['raw', 'Raw'], ...(record ? [['query', 'Query']] : [])] as [SocketView, string][]) : []),
  ];
  const view = views.some(([v]) => v === state.view.value) ? state.view.value : views[0]![0];
  return (
    <section class="response-pane" aria-label="Response">
      <div class="status-line">
        <span class={`status ${head.status === 101 ? 's2' : head.status >= 500 ? 's5' : 's4'}`} data-testid="status">
          {head.status} {head.statusText}
        </span>
        <span class="muted">WebSocket</span>
        {head.headers.find(([n]) => n.toLowerCase() === 'sec-websocket-protocol') && (
          <span class="muted" data-testid="subprotocol">
            subprotocol {head.headers.find(([n]) => n.toLowerCase() === 'sec-websocket-protocol')![1]}
          </span>
        )}
        {closeRow && (
          <span class="muted" data-testid="close">
            {closeRow.name === 'client' ? 'closed by Parley' : 'closed by the server'}: {closeRow.data}
          </span>
        )}
      </div>
      <nav class="subtabs" role="tablist" aria-label="Response views">
        {views.map(([id, label]) => (
          <button key={id} role="tab" aria-selected={view === id} class={view === id ? 'active' : ''} onClick={() => (state.view.value = id)}>
            {label}
          </button>
        ))}
      </nav>
      <div class={`response-body${view === 'events' ? ' response-events' : ''}`}>
        {view === 'events' && live && <EventsView live={live} showOthers={state.showPings} socket />}
        {view === 'events' && !live && exchange && <p class="muted">The server refused the handshake: {new TextDecoder().decode(exchange.response.body.bytes.subarray(0, 4096)) || 'no body'}</p>}
        {view === 'headers' && <HeaderTable headers={head.headers} />}
        {view === 'timing' && exchange && <TimingView timing={exchange.response.timing} />}
        {view === 'raw' && exchange && <RawView exchange={exchange} />}
        {view === 'query' && exchange && <QueryView query={state.query} exchange={exchange} />}
      </div>
    </section>
  );
}
