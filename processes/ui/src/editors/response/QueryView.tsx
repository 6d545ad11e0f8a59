/**
 * The Query tab (SPEC "What the service does" 1, "Events" 3): XPath 3.1 (over the JSON as maps
 * and arrays) or JSONPath over a JSON body, XPath 3.1 over an XML or SOAP body (the prefixes the
 * document declares usable, `*:name` for any namespace; results as XML fragments and values), or
 * either over an event stream's kept events as one JSON document. The checker runs it on its
 * budget (`query.run`); the page only shows the items. HTML, text and binary bodies are not
 * queried, and the tab says so.
 */
import type { Exchange } from '../../../../../protocol/model/history.js';
import type { QueryItem, QueryJob, QueryLanguage } from '../../../../../protocol/model/query.js';
import type { QueryState } from '../../state/request-tabs.js';
import { call } from '../../state/rpc.js';
import { bodyKind, decodeText } from './body-view.js';
import { highlightJson, highlightMarkup } from './highlight.js';

const HIGHLIGHT_CHARS = 256 * 1024;

const EXAMPLES: Record<QueryLanguage, { stream: string; body: string; xml: string }> = {
  jsonpath: { stream: '$[?(@.event == "message")].data', body: '$..id', xml: '' },
  xpath: { stream: '?*[?event = "message"]?data', body: '?*?id', xml: '//*:id/text()' },
};

/** Prefixes named in the hint, at most. */
const HINT_PREFIXES = 12;

/**
 * The namespace prefixes an XML body declares, in the order written (the first 2 MB read): the
 * ones the query can use. The checker binds each to its first declaration (body-query.ts).
 */
export function declaredPrefixes(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.slice(0, 2 * 1024 * 1024).matchAll(/\sxmlns:([A-Za-z_][\w.-]*)\s*=/g)) found.add(m[1]!);
  return [...found];
}

interface Queryable {
  source: QueryJob['source'];
  what: string;
  /** An XML body: XPath only, and the prefixes it declares. */
  xml?: { prefixes: string[] };
}

/** What the query reads, or why this response cannot be queried. */
export function querySource(exchange: Exchange): Queryable | { refused: string } {
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
      return { source: { kind: 'body', bytes: r.body.bytes, syntax: 'xml' }, what: 'the XML body', xml: { prefixes: declaredPrefixes(decodeText(r)) } };
    case 'html':
      return { refused: 'HTML responses are not queried: the Query tab reads JSON and XML bodies and event streams. Body > Preview shows the page.' };
    case 'empty':
      return { refused: 'This response has no body to query.' };
    case 'image':
    case 'binary':
      return { refused: 'Binary responses are not queried: the Query tab reads JSON and XML bodies and event streams.' };
    default:
      return { refused: 'Text responses are not queried: the Query tab reads JSON and XML bodies and event streams.' };
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
  // XML is read by XPath only: JSONPath stays chosen for the next JSON response.
  const language = from.xml ? 'xpath' : query.language.value;
  const run = async () => {
    const expression = query.expression.value.trim();
    if (!expression || query.running.value) return;
    query.running.value = true;
    query.error.value = null;
    try {
      query.result.value = await call('query.run', { language, expression, source: from.source });
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
  const example = from.xml ? EXAMPLES.xpath.xml : EXAMPLES[language][exchange.response.stream ? 'stream' : 'body'];
  return (
    <div class="query-view">
      <form
        class="query-bar"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <select aria-label="Query language" value={language} onChange={(e) => (query.language.value = (e.target as HTMLSelectElement).value as QueryLanguage)}>
          <option value="jsonpath" disabled={from.xml !== undefined} title={from.xml ? 'JSONPath reads JSON: this body is XML' : undefined}>
            JSONPath
          </option>
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
      <p class="muted query-what">
        Reads {from.what}
        {from.xml ? <XmlHint prefixes={from.xml.prefixes} /> : '.'}
      </p>
      {error && (
        <div class="query-error" role="alert">
          <strong>{error.code === 'query-invalid' ? 'The expression has an error' : error.code === 'not-json' || error.code === 'not-xml' ? 'Not queried' : 'The query failed'}</strong>
          <pre class="mono">{error.message}</pre>
        </div>
      )}
      {result && (
        <div class="query-result">
          <div class="query-count" data-testid="query-count">
            {result.count.toLocaleString('en-US')} {result.count === 1 ? 'result' : 'results'}
            {result.shown < result.count && <span class="muted"> · showing the first {result.shown.toLocaleString('en-US')}</span>}
          </div>
          {result.format === 'json' ? (
            <pre class="pretty mono query-json" aria-label="Query results">
              {result.json.length > HIGHLIGHT_CHARS ? result.json : result.json.split('\n').map((line, i) => <div key={i}>{highlightJson(line)}</div>)}
            </pre>
          ) : (
            <XmlItems items={result.items} />
          )}
        </div>
      )}
    </div>
  );
}

/** How the expression names things in an XML body: the prefixes it declares, and `*:name` for any namespace. */
function XmlHint({ prefixes }: { prefixes: string[] }) {
  const named = prefixes.slice(0, HINT_PREFIXES);
  return (
    <>
      {' with XPath 3.1. '}
      {named.length > 0 ? (
        <>
          Its prefixes can be used:{' '}
          {named.map((p, i) => (
            <span key={p}>
              {i > 0 && ', '}
              <code>{p}:</code>
            </span>
          ))}
          {prefixes.length > named.length && ` and ${prefixes.length - named.length} more`}.{' '}
        </>
      ) : (
        'It declares no prefixes. '
      )}
      An unprefixed name is in no namespace (or the root element’s default one); <code>*:name</code> matches a name in any namespace.
    </>
  );
}

/** XPath's items over XML, one after another: nodes as XML, values as text. */
function XmlItems({ items }: { items: QueryItem[] }) {
  const total = items.reduce((sum, item) => sum + item.text.length, 0);
  return (
    <ol class="query-items" aria-label="Query results">
      {items.map((item, i) => (
        <li key={i} class={`query-item query-${item.kind}`}>
          <pre class="pretty mono">{item.kind === 'node' && total <= HIGHLIGHT_CHARS ? highlightMarkup(item.text) : item.text}</pre>
        </li>
      ))}
    </ol>
  );
}
