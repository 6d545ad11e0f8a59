/**
 * The Query tab (SPEC "What the service does" 1, "Events" 3): XPath 3.1 (over the JSON as maps
 * and arrays) or JSONPath over a JSON body, or over an event stream's kept events as one JSON
 * document. The checker runs it on its budget (`query.run`); the page only shows the items.
 * XML, HTML, text and binary bodies are not queried, and the tab says so.
 */
import type { Exchange } from '../../../../../protocol/model/history.js';
import type { QueryJob, QueryLanguage } from '../../../../../protocol/model/query.js';
import type { QueryState } from '../../state/request-tabs.js';
import { call } from '../../state/rpc.js';
import { bodyKind } from './body-view.js';
import { highlightJson } from './highlight.js';

const HIGHLIGHT_CHARS = 256 * 1024;

const EXAMPLES: Record<QueryLanguage, { stream: string; body: string }> = {
  jsonpath: { stream: '$[?(@.event == "message")].data', body: '$..id' },
  xpath: { stream: '?*[?event = "message"]?data', body: '?*?id' },
};

/** What the query reads, or why this response cannot be queried. */
export function querySource(exchange: Exchange): { source: QueryJob['source']; what: string } | { refused: string } {
  const r = exchange.response;
  if (r.stream) {
    const kept = r.stream.rows.filter((row) => row.kind === 'event').length;
    return { source: { kind: 'events', rows: r.stream.rows }, what: `the ${kept.toLocaleString('en-US')} events kept, as one JSON array of { n, event, id, data, json, time }` };
  }
  if (r.body.spooledTo) return { refused: 'This body was too large to hold in memory (only its start is here), so it is not queried.' };
  switch (bodyKind(r)) {
    case 'json':
      return { source: { kind: 'body', bytes: r.body.bytes }, what: 'the JSON body' };
    case 'xml':
      return { refused: 'XML responses are not queried: the Query tab reads JSON bodies and event streams.' };
    case 'html':
      return { refused: 'HTML responses are not queried: the Query tab reads JSON bodies and event streams. Body > Preview shows the page.' };
    case 'empty':
      return { refused: 'This response has no body to query.' };
    case 'image':
    case 'binary':
      return { refused: 'Binary responses are not queried: the Query tab reads JSON bodies and event streams.' };
    default:
      return { refused: 'Text responses are not queried: the Query tab reads JSON bodies and event streams.' };
  }
}

export function QueryView({ query, exchange }: { query: QueryState; exchange: Exchange }) {
  const from = querySource(exchange);
  if ('refused' in from) {
    return (
      <p class="query-refused muted" role="status">
        {from.refused}
      </p>
    );
  }
  const run = async () => {
    const expression = query.expression.value.trim();
    if (!expression || query.running.value) return;
    query.running.value = true;
    query.error.value = null;
    try {
      query.result.value = await call('query.run', { language: query.language.value, expression, source: from.source });
    } catch (err) {
      const e = err as { code: string; message: string };
      query.result.value = null;
      query.error.value = { code: e.code, message: e.message };
    } finally {
      query.running.value = false;
    }
  };
  const result = query.result.value;
  const error = query.error.value;
  const example = EXAMPLES[query.language.value][exchange.response.stream ? 'stream' : 'body'];
  return (
    <div class="query-view">
      <form
        class="query-bar"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <select aria-label="Query language" value={query.language.value} onChange={(e) => (query.language.value = (e.target as HTMLSelectElement).value as QueryLanguage)}>
          <option value="jsonpath">JSONPath</option>
          <option value="xpath">XPath 3.1</option>
        </select>
        <input
          class="mono query-expression"
          aria-label="Query expression"
          placeholder={example}
          spellcheck={false}
          value={query.expression.value}
          onInput={(e) => (query.expression.value = (e.target as HTMLInputElement).value)}
        />
        <button class="button primary" type="submit" disabled={query.running.value || !query.expression.value.trim()}>
          {query.running.value ? 'Running…' : 'Run'}
        </button>
      </form>
      <p class="muted query-what">Reads {from.what}.</p>
      {error && (
        <div class="query-error" role="alert">
          <strong>{error.code === 'query-invalid' ? 'The expression has an error' : error.code === 'not-json' ? 'Not queried' : 'The query failed'}</strong>
          <pre class="mono">{error.message}</pre>
        </div>
      )}
      {result && (
        <div class="query-result">
          <div class="query-count" data-testid="query-count">
            {result.count.toLocaleString('en-US')} {result.count === 1 ? 'result' : 'results'}
            {result.shown < result.count && <span class="muted"> · showing the first {result.shown.toLocaleString('en-US')}</span>}
          </div>
          <pre class="pretty mono query-json" aria-label="Query results">
            {result.json.length > HIGHLIGHT_CHARS ? result.json : result.json.split('\n').map((line, i) => <div key={i}>{highlightJson(line)}</div>)}
          </pre>
        </div>
      )}
    </div>
  );
}
