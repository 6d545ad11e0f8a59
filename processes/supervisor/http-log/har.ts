/**
 * HAR 1.2 export of HTTP Log entries, as recorded: credentials already masked, bodies as kept
 * (their first 256 KB). An event stream's response content is its kept rows written back as
 * text/event-stream (a comment line marks the rows not kept), and its events are also listed in
 * `_eventSourceMessages` (time in seconds, eventName, eventId, data), the field HAR tools that
 * record streams use; `_parleyStream` says how it ended and how many rows it had and kept.
 * The document is produced in pieces of about CHUNK_CHARS, so no piece outgrows a bus frame.
 */
import type { Header } from '../../../protocol/model/exchange.js';
import type { HttpLogEntry } from '../../../protocol/model/http-log.js';
import type { StreamRecord } from '../../../protocol/model/stream.js';

export const CHUNK_CHARS = 1024 * 1024;

interface Creator {
  name: string;
  version: string;
}

/** The HAR document of `entries`, in pieces of text that join into one JSON document. */
export function* harPieces(entries: readonly HttpLogEntry[], creator: Creator): Generator<string> {
  let buffer = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[`;
  let first = true;
  for (const entry of entries) {
    buffer += (first ? '' : ',') + JSON.stringify(harEntry(entry));
    first = false;
    while (buffer.length >= CHUNK_CHARS) {
      const cut = safeCut(buffer, CHUNK_CHARS);
      yield buffer.slice(0, cut);
      buffer = buffer.slice(cut);
    }
  }
  yield `${buffer}]}}`;
}

/** A cut that never splits a surrogate pair (half of one cannot travel on its own). */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

function harHeaders(headers: readonly Header[]): { name: string; value: string }[] {
  return headers.map(([name, value]) => ({ name, value }));
}

function headerOf(headers: readonly Header[], name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

function queryString(url: string): { name: string; value: string }[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

export function harEntry(entry: HttpLogEntry): Record<string, unknown> {
  const { row, request, response, timing } = entry;
  const requestType = headerOf(request.headers, 'content-type') ?? '';
  const har: Record<string, unknown> = {
    startedDateTime: row.at,
    time: timing?.total ?? 0,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: `HTTP/${entry.httpVersion ?? '1.1'}`,
      cookies: [],
      headers: harHeaders(request.headers),
      queryString: queryString(request.url),
      headersSize: -1,
      bodySize: request.body === '' ? 0 : -1,
      ...(request.bodyKind && request.bodyKind !== 'none'
        ? { postData: { mimeType: requestType, text: request.body, ...(request.bodyTruncated || request.bodyKind !== 'text' ? { comment: request.bodyTruncated ? 'The first 256 KB of the body.' : 'A file or multipart body, named rather than included.' } : {}) } }
        : {}),
    },
    response: response
      ? {
          status: response.status,
          statusText: response.statusText,
          httpVersion: `HTTP/${entry.httpVersion ?? '1.1'}`,
          cookies: [],
          headers: harHeaders(response.headers),
          content: {
            size: response.size,
            mimeType: headerOf(response.headers, 'content-type') ?? '',
            text: response.stream ? streamText(response.stream) : response.body,
            ...(response.bodyTruncated ? { comment: 'The first 256 KB of the body.' } : {}),
          },
          redirectURL: headerOf(response.headers, 'location') ?? '',
          headersSize: -1,
          bodySize: response.size,
        }
      : { status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1, _error: row.error?.message ?? '' },
    cache: {},
    timings: timing
      ? { blocked: -1, dns: timing.dns, connect: timing.connect + timing.tls, ssl: timing.tls, send: timing.send, wait: timing.wait, receive: timing.download }
      : { send: 0, wait: 0, receive: 0 },
  };
  if (response?.stream) {
    const s = response.stream;
    har['_eventSourceMessages'] = s.rows.filter((r) => r.kind === 'event').map((r) => ({ time: r.at / 1000, eventName: r.name ?? 'message', eventId: r.id ?? '', data: r.data }));
    har['_parleyStream'] = { state: s.state, total: s.total, events: s.events, kept: s.rows.length, notKept: s.notKept, ...(s.error ? { error: s.error } : {}) };
  }
  if (row.redacted) har['comment'] = 'Secret and credential values were masked before this exchange was logged.';
  return har;
}

/** The kept rows as the stream's text: each event, comment and retry field as the server wrote it. */
export function streamText(stream: StreamRecord): string {
  const lines: string[] = [];
  let previous = 0;
  for (const row of stream.rows) {
    if (row.n > previous + 1) lines.push(`: ${row.n - previous - 1} rows not kept\n`);
    previous = row.n;
    if (row.kind === 'comment') lines.push(`: ${row.data}\n`);
    else if (row.kind === 'retry') lines.push(`retry: ${row.data}\n`);
    else {
      let text = '';
      if (row.name !== undefined) text += `event: ${row.name}\n`;
      if (row.id !== undefined) text += `id: ${row.id}\n`;
      for (const line of row.data.split('\n')) text += `data: ${line}\n`;
      lines.push(`${text}\n`);
    }
  }
  if (stream.total > previous) lines.push(`: ${stream.total - previous} rows not kept\n`);
  return lines.join('');
}
