/**
 * The response: status line with the contract chip and the assertions' outcome, then Body
 * (Pretty, and Preview for HTML), Assertions, Captures, Headers, Cookies, Redirects, Timing, Raw, Query and
 * History. For an event stream Events replaces Body: while it runs only Events and Headers are
 * shown, the rest when it ends (SPEC "Events").
 */
import { useMemo } from 'preact/hooks';
import type { Exchange } from '../../../../../protocol/model/history.js';
import type { SendResult } from '../../../../../protocol/model/exchange.js';
import type { RequestTabState, ResponseView } from '../../state/request-tabs.js';
import { mod } from '../../state/commands.js';
import { formatBytes } from '../../components/FileChooser.js';
import { bodyKind, decodeText } from './body-view.js';
import { CodeEditor } from '../../code/CodeEditor.js';
import { WrapToggle } from '../../code/WrapToggle.js';
import { BodyView } from './BodyView.js';
import { VerdictChip } from './VerdictChip.js';
import { AssertionResults, AssertionsChip } from './AssertionResults.js';
import { CaptureResults, CapturesChip } from './CaptureResults.js';
import { TimingView } from './TimingView.js';
import { HistoryView } from './HistoryView.js';
import { EventsView } from './EventsView.js';
import { QueryView } from './QueryView.js';
import { LiveStream } from '../../state/live-stream.js';
import { ExampleControls, ExampleView, hasExamples, openExample } from '../../history/Examples.js';
import { ResponseCookies, setCookieCount } from '../cookies/ResponseCookies.js';
import { SoapFaultBadge, SoapFaultDetails } from '../soap/SoapFault.js';

export function ResponsePane({ state }: { state: RequestTabState }) {
  const live = state.live.value;
  if (state.sending.value && live) return <OpenStreamView state={state} live={live} />;
  if (state.sending.value) {
    return (
      <section class="response-pane response-empty" aria-label="Response">
        <div class="sending">
          <span class="spinner" /> Sending…
        </div>
      </section>
    );
  }
  const example = openExample(state);
  if (example) return <ExampleView tab={state} example={example} />;
  const error = state.error.value;
  if (error) {
    const refused = error.code === 'unresolved' || error.message.startsWith('Not sent');
    return (
      <section class="response-pane response-empty" aria-label="Response">
        <div class={`response-error${error.code === 'cancelled' ? ' stopped' : ''}`} role="alert">
          <strong>{error.code === 'cancelled' ? 'Stopped' : refused ? 'Not sent' : 'Request failed'}</strong>
          <p>{error.code === 'cancelled' ? 'The send was stopped before a response arrived.' : refused ? afterHeading(error.message) : error.message}</p>
          {!refused && error.code !== 'cancelled' && <code class="muted">{error.code}</code>}
        </div>
      </section>
    );
  }
  const exchange = state.exchange.value;
  if (!exchange) {
    return (
      <section class="response-pane" aria-label="Response">
        {hasExamples(state) && (
          <div class="status-line">
            <ExampleControls tab={state} />
          </div>
        )}
        <p class="muted empty-response">
          Send the request to see its response. <kbd>{mod}+Enter</kbd>
        </p>
        <h4 class="muted">Earlier sends</h4>
        <div class="response-body">
          <HistoryView state={state} />
        </div>
      </section>
    );
  }
  return <ExchangeView state={state} exchange={exchange} />;
}

/** An event stream while it runs: Events and Headers, and Send reads Stop. */
function OpenStreamView({ state, live }: { state: RequestTabState; live: LiveStream }) {
  const head = live.head;
  const views: [ResponseView, string][] = [
    ['events', `Events (${live.events.value.toLocaleString('en-US')})`],
    ['headers', `Headers (${head.headers.length})`],
  ];
  const view = views.some(([v]) => v === state.responseView.value) ? state.responseView.value : 'events';
  return (
    <section class="response-pane" aria-label="Response">
      <div class="status-line">
        <span class={`status ${statusClassOf(head.status)}`} data-testid="status">
          {head.status} {head.statusText}
        </span>
        <span class="muted">HTTP/{head.httpVersion}</span>
        <span class="muted">{streamName(head.url)}</span>
      </div>
      <ViewTabs views={views} view={view} state={state} />
      <div class="response-body response-events">
        {view === 'events' && <EventsView live={live} showOthers={state.showStreamOthers} />}
        {view === 'headers' && <HeaderTable headers={head.headers} />}
      </div>
    </section>
  );
}

/** What the rows are of: a GraphQL subscription's messages come over a WebSocket (docs/graphql.md), an event stream's over HTTP. */
function streamName(url: string): string {
  return /^wss?:/i.test(url) ? 'GraphQL subscription' : 'event stream';
}

function statusClassOf(status: number): string {
  return status >= 500 ? 's5' : status >= 400 ? 's4' : status >= 300 ? 's3' : 's2';
}

function ViewTabs({ views, view, state }: { views: [ResponseView, string][]; view: ResponseView; state: RequestTabState }) {
  return (
    <nav class="subtabs" role="tablist" aria-label="Response views">
      {views.map(([id, label]) => (
        <button key={id} role="tab" aria-selected={view === id} class={view === id ? 'active' : ''} onClick={() => (state.responseView.value = id)}>
          {label}
        </button>
      ))}
    </nav>
  );
}

function ExchangeView({ state, exchange }: { state: RequestTabState; exchange: Exchange }) {
  const r = exchange.response;
  const kind = bodyKind(r);
  const record = r.stream;
  // The send's own stream when it is this one, else the record made into one (a re-send's).
  const live = useMemo(() => {
    if (!record) return null;
    const own = state.live.value;
    return own && own.state.value !== 'open' && own.rows === record.rows ? own : LiveStream.ofRecord(r, record);
  }, [exchange]);
  const views: [ResponseView, string][] = [
    record ? ['events', `Events (${record.events.toLocaleString('en-US')})`] : ['body', 'Body'],
    ...(exchange.assertions && exchange.assertions.length > 0 ? ([['assertions', `Assertions (${exchange.assertions.filter((a) => a.passed).length}/${exchange.assertions.length})`]] as [ResponseView, string][]) : []),
    ...(exchange.captures && exchange.captures.length > 0 ? ([['captures', `Captures (${exchange.captures.filter((c) => c.ok).length}/${exchange.captures.length})`]] as [ResponseView, string][]) : []),
    ['headers', `Headers (${r.headers.length})`],
    ['cookies', `Cookies${setCookieCount(r) ? ` (${setCookieCount(r)})` : ''}`],
    ['redirects', `Redirects${r.hops.length ? ` (${r.hops.length})` : ''}`],
    ['timing', 'Timing'],
    ['raw', 'Raw'],
    ['query', 'Query'],
    ['history', 'History'],
  ];
  const view = views.some(([v]) => v === state.responseView.value) ? state.responseView.value : views[0]![0];
  const statusClass = statusClassOf(r.status);
  return (
    <section class="response-pane" aria-label="Response">
      <div class="status-line">
        <span class={`status ${statusClass}`} data-testid="status">
          {r.status} {r.statusText}
        </span>
        <SoapFaultBadge result={r} />
        <span class="muted">{r.timing.total.toFixed(0)} ms</span>
        {record ? <span class="muted">{streamName(r.url)}, {record.state}</span> : <span class="muted">{formatBytes(r.body.size)}</span>}
        <span class="muted">HTTP/{r.httpVersion}</span>
        {exchange.verdict && (
          <VerdictChip
            verdict={exchange.verdict}
            onShowProblems={() => {
              state.responseView.value = 'body';
            }}
          />
        )}
        {exchange.assertions && exchange.assertions.length > 0 && <AssertionsChip results={exchange.assertions} onOpen={() => (state.responseView.value = 'assertions')} />}
        {exchange.captures && exchange.captures.length > 0 && <CapturesChip results={exchange.captures} onOpen={() => (state.responseView.value = 'captures')} />}
        <ExampleControls tab={state} exchange={exchange} />
      </div>
      <ViewTabs views={views} view={view} state={state} />
      <div class={`response-body${view === 'events' ? ' response-events' : ''}`}>
        {view === 'body' && <SoapFaultDetails result={r} />}
        {view === 'body' && <BodyView result={r} kind={kind} exchange={exchange} mode={state.bodyMode} />}
        {view === 'events' && live && <EventsView live={live} showOthers={state.showStreamOthers} />}
        {view === 'query' && <QueryView query={state.query} exchange={exchange} />}
        {view === 'assertions' && <AssertionResults results={exchange.assertions ?? []} />}
        {view === 'captures' && <CaptureResults results={exchange.captures ?? []} />}
        {view === 'headers' && <HeaderTable headers={r.headers} />}
        {view === 'cookies' && <ResponseCookies result={r} />}
        {view === 'redirects' && <RedirectsView result={r} />}
        {view === 'timing' && <TimingView timing={r.timing} />}
        {view === 'history' && <HistoryView state={state} />}
        {view === 'raw' && <RawView exchange={exchange} />}
      </div>
    </section>
  );
}

/** The exchange as on the wire: the request as sent, then the response's head and its body. */
export function RawView({ exchange }: { exchange: Exchange }) {
  const r = exchange.response;
  const text = useMemo(() => {
    const body = r.stream ? '[an event stream: see Events]' : r.body.size === 0 ? '' : bodyKind(r) === 'binary' || bodyKind(r) === 'image' ? `[${r.body.size} bytes binary]` : decodeText(r);
    const cut = r.body.spooledTo ? `\n[body cut: the first ${formatBytes(r.body.bytes.byteLength)} of ${formatBytes(r.body.size)} shown; the whole body is in ${r.body.spooledTo}]` : '';
    return `${exchange.request.method} ${exchange.request.url}\n${r.raw.request}\n\n${r.raw.response.replace(/(\r?\n)+$/, '')}\n\n${body}${cut}`;
  }, [exchange]);
  return (
    <div class="body-view">
      <div class="toolbar">
        <WrapToggle />
      </div>
      <CodeEditor class="response-code" label="Raw exchange" language="text" value={text} readOnly />
    </div>
  );
}

export function HeaderTable({ headers }: { headers: [string, string][] }) {
  return (
    <table class="kv-table">
      <tbody>
        {headers.map(([name, value], i) => (
          <tr key={i}>
            <th>{name}</th>
            <td class="mono">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RedirectsView({ result }: { result: SendResult }) {
  if (result.hops.length === 0) return <p class="muted">No redirects: the first response was the final one.</p>;
  return (
    <ol class="hops">
      {result.hops.map((hop, i) => (
        <li key={i}>
          <span class="status s3">{hop.status}</span> <span class="method">{hop.method}</span> <code>{hop.url}</code>
          {hop.location && (
            <div class="muted">
              → Location: <code>{hop.location}</code>
            </div>
          )}
        </li>
      ))}
      <li>
        <span class={`status ${result.status >= 400 ? 's4' : 's2'}`}>{result.status}</span> <code>{result.url}</code> <span class="muted">(final)</span>
      </li>
    </ol>
  );
}

/** A refusal's message under its "Not sent" heading, without saying "Not sent" a second time. */
export function afterHeading(message: string): string {
  const rest = message.replace(/^Not sent:\s*/, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}
