/**
 * The response: status line with the contract chip and the assertions' outcome, then Body
 * (Pretty, and Preview for HTML), Assertions, Headers, Cookies, Redirects, Timing, Raw, Query and
 * History. For an event stream Events replaces Body: while it runs only Events and Headers are
 * shown, the rest when it ends (SPEC "Events").
 */
import { useSignal, type Signal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { Exchange } from '../../../../../protocol/model/history.js';
import type { SendResult } from '../../../../../protocol/model/exchange.js';
import type { RequestTabState, ResponseView } from '../../state/request-tabs.js';
import { mod } from '../../state/commands.js';
import { formatBytes } from '../../components/FileChooser.js';
import { HIGHLIGHT_LIMIT, bodyKind, decodeText, header, prettyText, type BodyKind } from './body-view.js';
import { highlightJson, highlightMarkup } from './highlight.js';
import { lineForPointer, prettyJson } from './pretty-json.js';
import { VerdictChip } from './VerdictChip.js';
import { AssertionResults, AssertionsChip } from './AssertionResults.js';
import { HtmlPreview } from './HtmlPreview.js';
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
          <p>{error.code === 'cancelled' ? 'The send was stopped before a response arrived.' : error.message}</p>
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
        <span class="muted">event stream</span>
      </div>
      <ViewTabs views={views} view={view} state={state} />
      <div class="response-body response-events">
        {view === 'events' && <EventsView live={live} showOthers={state.showStreamOthers} />}
        {view === 'headers' && <HeaderTable headers={head.headers} />}
      </div>
    </section>
  );
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
  const problemLine = useSignal<number | null>(null);
  return (
    <section class="response-pane" aria-label="Response">
      <div class="status-line">
        <span class={`status ${statusClass}`} data-testid="status">
          {r.status} {r.statusText}
        </span>
        <SoapFaultBadge result={r} />
        <span class="muted">{r.timing.total.toFixed(0)} ms</span>
        {record ? <span class="muted">event stream, {record.state}</span> : <span class="muted">{formatBytes(r.body.size)}</span>}
        <span class="muted">HTTP/{r.httpVersion}</span>
        {exchange.verdict && (
          <VerdictChip
            verdict={exchange.verdict}
            onShowProblems={() => {
              state.responseView.value = 'body';
              problemLine.value = null;
            }}
          />
        )}
        {exchange.assertions && exchange.assertions.length > 0 && <AssertionsChip results={exchange.assertions} onOpen={() => (state.responseView.value = 'assertions')} />}
        <ExampleControls tab={state} exchange={exchange} />
      </div>
      <ViewTabs views={views} view={view} state={state} />
      <div class={`response-body${view === 'events' ? ' response-events' : ''}`}>
        {view === 'body' && <SoapFaultDetails result={r} />}
        {view === 'body' && <BodyView result={r} kind={kind} exchange={exchange} mode={state.bodyMode} />}
        {view === 'events' && live && <EventsView live={live} showOthers={state.showStreamOthers} />}
        {view === 'query' && <QueryView query={state.query} exchange={exchange} />}
        {view === 'assertions' && <AssertionResults results={exchange.assertions ?? []} />}
        {view === 'headers' && <HeaderTable headers={r.headers} />}
        {view === 'cookies' && <ResponseCookies result={r} />}
        {view === 'redirects' && <RedirectsView result={r} />}
        {view === 'timing' && <TimingView timing={r.timing} />}
        {view === 'history' && <HistoryView state={state} />}
        {view === 'raw' && (
          <pre class="raw mono">
            {exchange.request.method} {exchange.request.url}
            {'\n'}
            {r.raw.request}
            {'\n\n'}
            {r.raw.response}
          </pre>
        )}
      </div>
    </section>
  );
}

export function BodyView({ result, kind, exchange, mode }: { result: SendResult; kind: BodyKind; exchange?: Exchange; mode?: Signal<'pretty' | 'preview'> }) {
  const imageUrl = useMemo(() => (kind === 'image' ? URL.createObjectURL(new Blob([result.body.bytes as Uint8Array<ArrayBuffer>], { type: header(result, 'content-type') })) : null), [result, kind]);
  useEffect(() => () => void (imageUrl && URL.revokeObjectURL(imageUrl)), [imageUrl]);
  const spoolNote = result.body.spooledTo ? (
    <p class="note">
      Showing the first {formatBytes(result.body.bytes.byteLength)} of {formatBytes(result.body.size)}. The whole body was saved to <code>{result.body.spooledTo}</code>.
    </p>
  ) : null;
  if (kind === 'empty') return <p class="muted">No body.</p>;
  if (kind === 'image' && imageUrl) return <img class="body-image" src={imageUrl} alt="Response image" />;
  if (kind === 'binary') {
    return (
      <>
        {spoolNote}
        <p class="muted">Binary body ({formatBytes(result.body.size)}, {header(result, 'content-type') ?? 'no content type'}).</p>
      </>
    );
  }
  const text = decodeText(result);
  if (kind === 'html' && mode) {
    return (
      <div class="html-body">
        <div class="segmented" role="group" aria-label="HTML view">
          <button class={mode.value === 'pretty' ? 'active' : ''} aria-pressed={mode.value === 'pretty'} onClick={() => (mode.value = 'pretty')}>
            Pretty
          </button>
          <button class={mode.value === 'preview' ? 'active' : ''} aria-pressed={mode.value === 'preview'} onClick={() => (mode.value = 'preview')}>
            Preview
          </button>
        </div>
        {spoolNote}
        {mode.value === 'preview' ? <HtmlPreview html={text} /> : <pre class="pretty mono">{text.length > HIGHLIGHT_LIMIT ? text : highlightMarkup(text)}</pre>}
      </div>
    );
  }
  if (kind === 'json') return <JsonBody text={text} exchange={exchange} note={spoolNote} />;
  const pretty = prettyText(kind, text);
  const big = pretty.length > HIGHLIGHT_LIMIT;
  return (
    <>
      {spoolNote}
      <pre class="pretty mono">{big ? pretty : kind === 'text' ? pretty : highlightMarkup(pretty)}</pre>
    </>
  );
}

function JsonBody({ text, exchange, note }: { text: string; exchange?: Exchange; note: preact.ComponentChildren }) {
  const parsed = useMemo(() => {
    try {
      return { ok: true as const, pretty: prettyJson(JSON.parse(text)) };
    } catch {
      return { ok: false as const };
    }
  }, [text]);
  const listRef = useRef<HTMLDivElement>(null);
  const problems = exchange?.verdict?.problems ?? [];
  if (!parsed.ok || text.length > HIGHLIGHT_LIMIT * 4) {
    return (
      <>
        {note}
        <pre class="pretty mono">{text}</pre>
      </>
    );
  }
  const marks = new Map<number, string[]>();
  for (const p of problems) {
    const line = lineForPointer(parsed.pretty, p.pointer);
    marks.set(line, [...(marks.get(line) ?? []), `${p.pointer || '/'}: ${p.message}`]);
  }
  const jump = (pointer: string) => {
    const line = lineForPointer(parsed.pretty, pointer);
    const el = listRef.current?.querySelector(`[data-line="${line}"]`);
    el?.scrollIntoView({ block: 'center' });
    el?.classList.add('flash');
    setTimeout(() => el?.classList.remove('flash'), 1200);
  };
  return (
    <div class="json-body">
      {note}
      <div class="pretty mono code-lines" ref={listRef}>
        {parsed.pretty.lines.map((line, i) => (
          <div key={i} data-line={i} class={`code-line${marks.has(i) ? ' has-problem' : ''}`} title={marks.get(i)?.join('\n')}>
            <span class="gutter">{marks.has(i) ? <span class="problem-marker" aria-label="Contract problem">●</span> : i + 1}</span>
            <span class="code-text">{highlightJson(line)}</span>
          </div>
        ))}
      </div>
      {problems.length > 0 && (
        <div class="problems-panel" role="region" aria-label="Problems">
          <h4>
            Problems <span class="count">{problems.length}</span>
          </h4>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>
                <button class="problem-row" onClick={() => jump(p.pointer)}>
                  <code>{p.pointer || '/'}</code> <span>{p.message}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
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
