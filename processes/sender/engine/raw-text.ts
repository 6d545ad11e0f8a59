import type { Header } from '../../../protocol/model/exchange.js';
import { BODY_PREVIEW_LIMIT, type HopTrace } from './hop-trace.js';

/** Shown when undici did not report the head (it should always); better than an empty pane. */
function fallbackHead(method: string, url: URL, headers: Header[]): string {
  return [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, ...headers.map(([n, v]) => `${n}: ${v}`)].join('\r\n');
}

/**
 * The request as sent: request line and headers, a blank line, then a body preview. HTTP/2
 * heads come as pseudo-header lines; they are shown as a request line like curl does.
 */
export function rawRequestText(trace: HopTrace, method: string, url: URL, headers: Header[]): string {
  const head = trace.requestHead === undefined ? fallbackHead(method, url, headers) : trace.requestHead.replace(/(\r\n)+$/, '');
  const text = trace.alpnProtocol === 'h2' ? h2HeadAsText(head, method, url) : head;
  const preview = bodyPreviewText(Buffer.concat(trace.bodyPreview), trace.bodySize);
  return `${text}\r\n\r\n${preview}`;
}

/**
 * The request's header lines as written on the wire, from the head the channels saw (HTTP/1.1:
 * after the request line, Host and the framing header included; HTTP/2: pseudo-headers as
 * `:name`); the headers handed to undici, after the Host, when no head was seen.
 */
export function sentHeaderLines(trace: HopTrace, url: URL, headers: Header[]): Header[] {
  if (trace.requestHead === undefined) return [['host', url.host], ...headers];
  const lines = trace.requestHead.split('\r\n');
  const out: Header[] = [];
  // An HTTP/1.1 head opens with its request line; an HTTP/2 one is header lines only.
  for (const line of trace.alpnProtocol === 'h2' ? lines : lines.slice(1)) {
    // A pseudo-header's name starts with its colon: the separator is the next one.
    const colon = line.indexOf(':', line.startsWith(':') ? 1 : 0);
    if (colon <= 0) continue;
    out.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return out;
}

function h2HeadAsText(head: string, method: string, url: URL): string {
  const lines = head.split('\r\n').filter((line) => line !== '' && !line.startsWith(':method:') && !line.startsWith(':path:'));
  const pseudo = lines.filter((line) => line.startsWith(':'));
  const regular = lines.filter((line) => !line.startsWith(':'));
  return [`${method} ${url.pathname}${url.search} HTTP/2`, ...pseudo, ...regular].join('\r\n');
}

/** Text up to 64 KiB with a note when cut; anything that is not text is `[N bytes binary]`. */
export function bodyPreviewText(preview: Buffer, total: number): string {
  if (total === 0) return '';
  const text = asText(preview);
  if (text === undefined) return `[${total} bytes binary]`;
  return total > preview.length ? `${text}\n[body cut: first ${BODY_PREVIEW_LIMIT} of ${total} bytes shown]` : text;
}

/** Valid UTF-8 without control characters other than whitespace, else undefined. */
function asText(bytes: Buffer): string | undefined {
  let text: string;
  try {
    // stream: true tolerates a character split by the preview cut.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return undefined;
  }
  return /[\u0000-\u0008\u000b\u000e-\u001a\u001c-\u001f\u007f]/.test(text) ? undefined : text;
}

/** The response head as received: status line and headers, nothing else. */
export function rawResponseText(httpVersion: string, status: number, statusText: string, headers: Header[]): string {
  const statusLine = httpVersion === '2' ? `HTTP/2 ${status}` : `HTTP/1.1 ${status}${statusText === '' ? '' : ` ${statusText}`}`;
  return [statusLine, ...headers.map(([name, value]) => `${name}: ${value}`)].join('\r\n') + '\r\n\r\n';
}
