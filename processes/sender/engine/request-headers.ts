import { ParleyError } from '../../../protocol/errors.js';
import type { Header, OutgoingBody } from '../../../protocol/model/exchange.js';

/**
 * Framing and connection headers belong to the HTTP layer: the engine frames the body itself
 * (content-length or chunked) and undici manages the connection, so hand-set ones are not sent
 * (undici refuses most of them outright). What was really sent shows in the raw view.
 */
const LAYER_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer', 'proxy-connection']);

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\u0000\r\n]/;

/**
 * The headers to send for a spec: layer headers removed, a hand-set Content-Type removed for
 * multipart (the encoder writes one with its boundary), Proxy-Authorization removed when a
 * proxy is used (undici sends the proxy's own and refuses one in the request). Names and values
 * are checked here so the error can name the header; a value is never quoted.
 */
export function requestHeaders(headers: Header[], body: OutgoingBody, proxied: boolean): Header[] {
  const kept: Header[] = [];
  let hasHost = false;
  for (const [name, value] of headers) {
    if (!TOKEN.test(name)) throw new ParleyError('bad-header', `The header name "${printable(name)}" is not a valid HTTP token.`, { header: printable(name) });
    if (BAD_VALUE.test(value)) throw new ParleyError('bad-header', `The value of header ${name} contains a line break or NUL.`, { header: name });
    const lower = name.toLowerCase();
    if (LAYER_HEADERS.has(lower)) continue;
    if (lower === 'content-type' && body.type === 'multipart') continue;
    if (lower === 'proxy-authorization' && proxied) continue;
    if (lower === 'host') {
      if (hasHost) continue;
      hasHost = true;
    }
    kept.push([name, value]);
  }
  return kept;
}

function printable(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 100);
}

/** Credentials written into the URL (http://user:pass@host) become Basic auth, like curl, unless Authorization is set. */
export function moveUrlCredentials(url: URL, headers: Header[]): Header[] {
  if (url.username === '' && url.password === '') return headers;
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  if (headers.some(([name]) => name.toLowerCase() === 'authorization')) return headers;
  return [...headers, ['Authorization', `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`]];
}
