/**
 * A gRPC call's response below its editor (docs/grpc.md): the status by code and name with its
 * message, then the response message as JSON (the body viewer's) for a unary call, or the
 * stream's messages both ways in the Events view's form; the status details (google.rpc.Status),
 * headers and trailers; once ended, Timing, Raw and a Query.
 */
import { useMemo } from 'preact/hooks';
import { EventsView } from '../../editors/response/EventsView.js';
import { BodyView } from '../../editors/response/BodyView.js';
import { HeaderTable, RawView } from '../../editors/response/ResponsePane.js';
import { TimingView } from '../../editors/response/TimingView.js';
import { QueryView } from '../../editors/response/QueryView.js';
import { AssertionResults } from '../../editors/response/AssertionResults.js';
import { LiveStream } from '../../state/live-stream.js';
import type { GrpcTabState, GrpcView } from './grpc-tabs.js';

export function GrpcResponse({ state }: { state: GrpcTabState }) {
  const live = state.live.value;
  const exchange = state.exchange.value;
  const error = state.error.value;
  if (state.running.value && !live) {
    return (
      <section class="response-pane response-empty" aria-label="Response">
        <div class="sending">
          <span class="spinner" /> Calling…
        </div>
      </section>
    );
  }
  if (error && !live) {
    const refused = error.code === 'unresolved' || error.message.startsWith('Not sent');
    return (
      <section class="response-pane response-empty" aria-label="Response">
        <div class={`response-error${error.code === 'cancelled' ? ' stopped' : ''}`} role="alert">
          <strong>{error.code === 'cancelled' ? 'Cancelled' : refused ? 'Not sent' : 'Call failed'}</strong>
          <p>{error.code === 'cancelled' ? 'The call was cancelled before it ended.' : error.message.replace(/^Not sent:\s*/, '')}</p>
          {!refused && error.code !== 'cancelled' && <code class="muted">{error.code}</code>}
        </div>
      </section>
    );
  }
  if (!live && !exchange) {
    return (
      <section class="response-pane" aria-label="Response">
        <p class="muted empty-response">Send the call: its status, response message, headers and trailers show here; a stream's messages, both ways, as they come.</p>
      </section>
    );
  }
  return <Call state={state} />;
}

function Call({ state }: { state: GrpcTabState }) {
  const exchange = state.exchange.value;
  const record = exchange?.response.stream;
  const live = useMemo(() => {
    const own = state.live.value;
    if (own) return own;
    return exchange && record ? LiveStream.ofRecord(exchange.response, record) : null;
  }, [state.live.value, exchange]);
  const response = exchange?.response;
  const grpc = response?.grpc;
  const open = live?.state.value === 'open' && state.running.value;
  const head = live?.head ?? response!;
  const views: [GrpcView, string][] = [
    ...(live ? ([['events', `Messages (${(live.events.value ?? 0).toLocaleString('en-US')})`]] as [GrpcView, string][]) : ([['body', 'Response']] as [GrpcView, string][])),
    ['headers', `Headers (${head.headers.length})`],
    ...(grpc ? ([['trailers', `Trailers (${grpc.trailers.length})`]] as [GrpcView, string][]) : []),
    ...(!open && exchange ? ([['timing', 'Timing'], ['raw', 'Raw'], ['query', 'Query']] as [GrpcView, string][]) : []),
  ];
  const view = views.some(([v]) => v === state.view.value) ? state.view.value : views[0]![0];
  const tone = !grpc ? 's2' : grpc.code === 0 ? 's2' : grpc.code === 1 ? 's3' : 's5';
  return (
    <section class="response-pane" aria-label="Response">
      <div class="status-line">
        <span class={`status ${tone}`} data-testid="status">
          {grpc ? `${grpc.code} ${grpc.name}` : open ? 'streaming…' : ''}
        </span>
        <span class="muted">gRPC</span>
        {grpc?.message && (
          <span class="grpc-status-message" data-testid="status-message">
            {grpc.message}
          </span>
        )}
        {response && <span class="muted">{Math.round(response.timing.total)} ms</span>}
      </div>
      {exchange?.assertions && exchange.assertions.length > 0 && <AssertionResults results={exchange.assertions} />}
      {grpc?.details && (
        <details class="grpc-details" open>
          <summary>Status details</summary>
          <pre class="mono" data-testid="status-details">
            {grpc.details}
          </pre>
        </details>
      )}
      <nav class="subtabs" role="tablist" aria-label="Response views">
        {views.map(([id, label]) => (
          <button key={id} role="tab" aria-selected={view === id} class={view === id ? 'active' : ''} onClick={() => (state.view.value = id)}>
            {label}
          </button>
        ))}
      </nav>
      <div class={`response-body${view === 'events' ? ' response-events' : ''}`}>
        {view === 'events' && live && <EventsView live={live} showOthers={state.showOthers} socket />}
        {view === 'body' && response && <BodyView result={response} kind={response.body.size === 0 ? 'empty' : 'json'} exchange={exchange} />}
        {view === 'headers' && <HeaderTable headers={head.headers} />}
        {view === 'trailers' && grpc && <HeaderTable headers={grpc.trailers} />}
        {view === 'timing' && exchange && <TimingView timing={exchange.response.timing} />}
        {view === 'raw' && exchange && <RawView exchange={exchange} />}
        {view === 'query' && exchange && <QueryView query={state.query} exchange={exchange} />}
      </div>
    </section>
  );
}
