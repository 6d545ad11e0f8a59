/**
 * A request's URL as the editor shows it and as the sender builds it. The query string is a
 * second view of the query rows: editing either rewrites the other, and a disabled row is kept
 * in the rows but left out of the URL. `{name}` path segments become fixed-name rows.
 */
import type { Row } from './model/common.js';

export interface PathParam {
  name: string;
  value: string;
}

/** Splits "https://x/a?b=1#f" into the part before `?` and the raw query (without `?`, without fragment). */
export function splitUrl(url: string): { base: string; query: string } {
  const hash = url.indexOf('#');
  const noFragment = hash < 0 ? url : url.slice(0, hash);
  const q = noFragment.indexOf('?');
  return q < 0 ? { base: noFragment, query: '' } : { base: noFragment.slice(0, q), query: noFragment.slice(q + 1) };
}

/** Rows from a query string, decoded; `${...}` expansions are kept as written. */
export function parseQuery(query: string): Row[] {
  if (!query) return [];
  return query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    return { name: decodePart(name), value: decodePart(value), enabled: true };
  });
}

/** The query string of the enabled rows, encoded the way a user would type it. */
export function formatQuery(rows: Row[]): string {
  return rows
    .filter((r) => r.enabled && (r.name !== '' || r.value !== ''))
    .map((r) => (r.value === '' && !r.name.endsWith('=') ? encodePart(r.name) : `${encodePart(r.name)}=${encodePart(r.value)}`))
    .join('&');
}

/**
 * Applies a typed URL to the rows: enabled rows are replaced by the URL's query; disabled rows
 * are kept (after the enabled ones) unless the URL now names them, which switches them back on.
 */
export function applyUrlToRows(typed: string, rows: Row[]): { url: string; query: Row[] } {
  const { base, query } = splitUrl(typed);
  const parsed = parseQuery(query);
  const named = new Set(parsed.map((r) => r.name));
  const disabled = rows.filter((r) => !r.enabled && !named.has(r.name));
  return { url: base, query: [...parsed, ...disabled] };
}

/** What the URL box shows: the base plus the enabled rows. */
export function displayUrl(url: string, rows: Row[]): string {
  const query = formatQuery(rows);
  return query ? `${url}?${query}` : url;
}

/** `{name}` placeholders in the path part, in order, each once. */
export function pathParamNames(url: string): string[] {
  const { base } = splitUrl(url);
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

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/** Encodes what must be encoded and leaves `${...}`, `{}`, `,`, `:` and `/` readable. */
function encodePart(part: string): string {
  return encodeURIComponent(part).replace(/%24%7B([^%]*)%7D/g, '${$1}').replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2F/g, '/').replace(/%7B/g, '{').replace(/%7D/g, '}');
}
