/**
 * A request's URL is the text the user typed: a full URL or a path, its query string and its
 * fragment, kept as written. The query rows are a view of that text: reading it gives the rows
 * (`queryRows`), and editing a row rewrites only that row's `name=value` (`withQueryRows`), so
 * the text is never rebuilt from the rows. A fragment stays in the text and is never sent
 * (`sentUrlText`). Rows switched off are not in the text: they wait in the request's `query`
 * until switched back on. `{name}` path segments are path parameters.
 */
import type { Row } from './model/common.js';

export interface PathParam {
  name: string;
  value: string;
}

/** A URL as typed, cut at its first `?` and first `#`: null where the text has no `?` or `#`. */
export interface UrlText {
  base: string;
  query: string | null;
  fragment: string | null;
}

export function splitUrlText(text: string): UrlText {
  const hash = text.indexOf('#');
  const beforeHash = hash < 0 ? text : text.slice(0, hash);
  const fragment = hash < 0 ? null : text.slice(hash + 1);
  const q = beforeHash.indexOf('?');
  return q < 0 ? { base: beforeHash, query: null, fragment } : { base: beforeHash.slice(0, q), query: beforeHash.slice(q + 1), fragment };
}

export function joinUrlText({ base, query, fragment }: UrlText): string {
  return `${base}${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`;
}

/** The text without its fragment: what a send puts on the wire (a fragment is the browser's, never sent). */
export function sentUrlText(text: string): string {
  const hash = text.indexOf('#');
  return hash < 0 ? text : text.slice(0, hash);
}

/**
 * The rows of the text's query string, in order, one per `&`-separated pair: none without a `?`,
 * one empty row for a bare `?`, an empty row for each `&&`. Decoded as a server reads a form
 * (`+` is a space); `${...}` placeholders are kept as written.
 */
export function queryRows(text: string): Row[] {
  const { query } = splitUrlText(text);
  return query === null ? [] : query.split('&').map(pairRow);
}

/**
 * The text with `rows` (their `enabled` ignored) as its query string. The pairs at the start and
 * the end that still say what their row says keep their text byte for byte; only the rows in
 * between are written afresh, so an edit of one row rewrites that row's part of the URL and
 * nothing else. No rows: the `?` goes too.
 */
export function withQueryRows(text: string, rows: readonly Row[]): string {
  const parts = splitUrlText(text);
  if (rows.length === 0) return joinUrlText({ ...parts, query: null });
  const old = parts.query === null ? [] : parts.query.split('&');
  const same = (raw: string, row: Row) => {
    const read = pairRow(raw);
    return read.name === row.name && read.value === row.value;
  };
  let start = 0;
  while (start < old.length && start < rows.length && same(old[start]!, rows[start]!)) start++;
  let endOld = old.length;
  let endNew = rows.length;
  while (endOld > start && endNew > start && same(old[endOld - 1]!, rows[endNew - 1]!)) {
    endOld--;
    endNew--;
  }
  const pairs = [...old.slice(0, start), ...rows.slice(start, endNew).map(formatPair), ...old.slice(endOld)];
  return joinUrlText({ ...parts, query: pairs.join('&') });
}

/** A row as a `name=value` pair, encoded so that reading it back gives the row (`name` alone when the value is empty). */
export function formatPair(row: Pick<Row, 'name' | 'value'>): string {
  const name = encodeComponent(row.name, true);
  return row.value === '' ? name : `${name}=${encodeComponent(row.value, false)}`;
}

function pairRow(raw: string): Row {
  const eq = raw.indexOf('=');
  const name = eq < 0 ? raw : raw.slice(0, eq);
  const value = eq < 0 ? '' : raw.slice(eq + 1);
  return { name: decodeComponent(name), value: decodeComponent(value), enabled: true };
}

/** Rows that carry something: what a send has always put on the wire from a request's `query`. */
const carries = (row: Row) => row.enabled && (row.name !== '' || row.value !== '');

interface UrlAndRows {
  url: string;
  query: Row[];
}

/**
 * A request with its whole query in its URL text: switched-on rows in `query` (a file written
 * before the URL kept its query, an importer's rows) are appended to the text's query string,
 * which is where a send has always put them; only rows switched off stay in `query`. Empty
 * switched-on rows, which were never sent, are dropped. The same request when it has none.
 */
export function queryInUrl<T extends UrlAndRows>(request: T): T {
  if (!request.query.some((r) => r.enabled)) return request;
  const url = withQueryRows(request.url, [...queryRows(request.url), ...request.query.filter(carries)]);
  return { ...request, url, query: request.query.filter((r) => !r.enabled) };
}

/**
 * The other way, for code that works on rows (a definition update's merge): the URL without its
 * query string, and every row, the text's first. `queryBackInUrl` puts them back.
 */
export function queryAsRows<T extends UrlAndRows>(request: T): T {
  const parts = splitUrlText(request.url);
  return { ...request, url: joinUrlText({ ...parts, query: null }), query: [...queryRows(request.url), ...request.query] };
}

/** Undoes `queryAsRows`: the switched-on rows become the query of `request.url` again, each pair as `before` (the text it came from) wrote it where it is unchanged. */
export function queryBackInUrl<T extends UrlAndRows>(request: T, before: string): T {
  const parts = splitUrlText(request.url);
  const text = joinUrlText({ ...parts, query: parts.query ?? splitUrlText(before).query });
  return { ...request, url: withQueryRows(text, request.query.filter((r) => r.enabled)), query: request.query.filter((r) => !r.enabled) };
}

/** `{name}` placeholders in the path part, in order, each once. */
export function pathParamNames(url: string): string[] {
  const { base } = splitUrlText(url);
  const path = base.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  const names: string[] = [];
  for (const match of path.matchAll(/\{([^{}/?#]+)\}/g)) {
    // `${name}` is a property expansion, not a path parameter.
    if (match.index! > 0 && path[match.index! - 1] === '$') continue;
    if (!names.includes(match[1]!)) names.push(match[1]!);
  }
  return names;
}

/** Rows for the URL's placeholders, keeping values already typed for names still present. */
export function syncPathParams(url: string, current: PathParam[]): PathParam[] {
  return pathParamNames(url).map((name) => current.find((p) => p.name === name) ?? { name, value: '' });
}

/** `${name}` as the sender finds it (processes/supervisor/send/expand.ts), and as rows keep it. */
const PLACEHOLDER = /\$\{[^{}]*\}/g;

/** A query component as a server reads it: `+` is a space, percent-escapes decoded (one that is not UTF-8 is left as written); placeholders kept. */
function decodeComponent(raw: string): string {
  let out = '';
  let last = 0;
  for (const match of raw.matchAll(PLACEHOLDER)) {
    out += decodeText(raw.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + decodeText(raw.slice(last));
}

function decodeText(text: string): string {
  return text.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * Encodes what a query component must not hold as typed (`&`, `#`, `%`, `+`, white space, `=` in
 * a name) and leaves the rest readable: `${...}` placeholders as written (unless they hold `&` or
 * `#`, or `=` in a name, which would split the pair), `{}`, `,`, `:`, `/`, `@`, and `=` in a value.
 */
function encodeComponent(text: string, isName: boolean): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const verbatim = !/[&#]/.test(match[0]) && !(isName && match[0].includes('='));
    if (!verbatim) continue;
    out += encodeText(text.slice(last, match.index), isName) + match[0];
    last = match.index + match[0].length;
  }
  return out + encodeText(text.slice(last), isName);
}

function encodeText(text: string, isName: boolean): string {
  // A lone surrogate (no character; encodeURIComponent throws on it) is written as U+FFFD.
  const whole = text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  // `$` stays %24, so a `${` that was not a placeholder never becomes one.
  return encodeURIComponent(whole).replace(isName ? /%(2C|3A|2F|40|7B|7D)/g : /%(2C|3A|2F|40|7B|7D|3D)/g, (escape) => decodeURIComponent(escape));
}
