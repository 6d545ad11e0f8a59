/**
 * HAR 1.2 export of HTTP Log entries, as recorded: credentials already masked, bodies as kept
 * (their first 256 KB). A send is one HAR entry per hop, as it went on the wire: a redirect's
 * entry has that hop's request headers as written (the jar's Cookie included, its values
 * masked), its status and headers, `redirectURL`, and no body (`content.size` 0, `bodySize` -1:
 * a redirect's body is read past, not kept); the final hop's entry has the response body. Each
 * entry's `time` is the sum of its timings that are not -1 (`ssl` is part of `connect`, so it is
 * not counted twice). An event stream's response content is its kept rows written back as
 * text/event-stream (a comment line marks the rows not kept), and its events are also listed in
 * `_eventSourceMessages` (time in seconds, eventName, eventId, data), the field HAR tools that
 * record streams use; `_parleyStream` says how it ended and how many rows it had and kept.
 * The document is produced in pieces of about CHUNK_CHARS, so no piece outgrows a bus frame.
 */
import { Cookie } from 'tough-cookie';
import type { Header, HopTiming, Timing } from '../../../protocol/model/exchange.js';
import type { HttpLogEntry, LoggedHop } from '../../../protocol/model/http-log.js';
import type { StreamRecord } from '../../../protocol/model/stream.js';

export const CHUNK_CHARS = 1024 * 1024;

interface Creator {
  name: string;
  version: string;
}

type HarObject = Record<string, unknown>;

/** The HAR document of `entries`, in pieces of text that join into one JSON document. */
export function* harPieces(entries: readonly HttpLogEntry[], creator: Creator): Generator<string> {
  let buffer = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[`;
  let first = true;
  for (const entry of entries) {
    for (const har of harEntries(entry)) {
      buffer += (first ? '' : ',') + JSON.stringify(har);
      first = false;
    }
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

/** The cookies of the request's Cookie headers (values as recorded: masked). */
function requestCookies(headers: readonly Header[]): HarObject[] {
  const cookies: HarObject[] = [];
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'cookie') continue;
    for (const pair of value.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0) cookies.push({ name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() });
    }
  }
  return cookies;
}

/** The cookies the response's Set-Cookie headers set (values as recorded: masked). */
function responseCookies(headers: readonly Header[]): HarObject[] {
  const cookies: HarObject[] = [];
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'set-cookie') continue;
    const cookie = Cookie.parse(value, { loose: true });
    if (!cookie) continue;
    const expires = cookie.expires instanceof Date && !Number.isNaN(cookie.expires.getTime()) ? cookie.expires.toISOString() : undefined;
    cookies.push({
      name: cookie.key,
      value: cookie.value,
      ...(cookie.path ? { path: cookie.path } : {}),
      ...(cookie.domain ? { domain: cookie.domain } : {}),
      ...(expires ? { expires } : {}),
      httpOnly: cookie.httpOnly,
      secure: cookie.secure,
    });
  }
  return cookies;
}

/** HAR's timings of a hop and its `time`, their sum (-1: not there; `ssl` is inside `connect`). */
function harTimings(t: Omit<HopTiming, 'startedAt'>): { time: number; timings: HarObject } {
  const timings = { blocked: t.blocked, dns: t.dns, connect: t.connect, ssl: t.ssl, send: t.send, wait: t.wait, receive: t.receive };
  const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].reduce((total, ms) => (ms >= 0 ? total + ms : total), 0);
  return { time: Math.round(sum * 1000) / 1000, timings };
}

/** The phases of an entry logged without its hops (a send whose final hop was not reported). */
function timingOf(timing: Timing): Omit<HopTiming, 'startedAt'> {
  return { blocked: -1, dns: timing.dns, connect: timing.connect + timing.tls, ssl: timing.tls > 0 ? timing.tls : -1, send: timing.send, wait: timing.wait, receive: timing.download };
}

/** One HAR entry per hop of the send (one for a send that got no response). */
export function harEntries(entry: HttpLogEntry): HarObject[] {
  const { row, response, hops } = entry;
  if (!response || !hops || hops.length === 0) return [oneEntry(entry)];
  const startedAt = Date.parse(row.at);
  return hops.map((hop, i) => {
    const last = i === hops.length - 1;
    const { time, timings } = harTimings(hop.timing);
    const url = i === 0 ? firstHopUrl(entry, hop) : hop.url;
    const har: HarObject = {
      startedDateTime: Number.isNaN(startedAt) ? row.at : new Date(startedAt + Math.round(hop.timing.startedAt)).toISOString(),
      time,
      request: {
        method: hop.method,
        url,
        httpVersion: httpVersion(entry),
        cookies: requestCookies(hop.requestHeaders),
        headers: harHeaders(hop.requestHeaders),
        queryString: queryString(url),
        headersSize: -1,
        bodySize: hop.requestBodySize,
        // The same body goes on every hop that carries one (307 and 308 keep it).
        ...(hop.requestBodySize > 0 ? postData(entry, hop.requestHeaders) : {}),
      },
      response: last ? finalResponse(entry, hop) : redirectResponse(entry, hop),
      cache: {},
      timings,
    };
    if (last) addStream(har, entry);
    if (row.redacted) har['comment'] = REDACTED;
    return har;
  });
}

/**
 * The first hop's URL as the request was recorded, its user info kept with the password masked
 * (maskUrl, docs/history.md), when it is the URL sent but for that user info: the sender sends
 * user info as an Authorization header, never in the URL, and the reader still learns a user was
 * given. Otherwise (the URL was resolved differently) the URL as sent.
 */
function firstHopUrl(entry: HttpLogEntry, hop: LoggedHop): string {
  try {
    const recorded = new URL(entry.request.url);
    if (recorded.username === '' && recorded.password === '') return hop.url;
    recorded.username = '';
    recorded.password = '';
    return recorded.href === new URL(hop.url).href ? entry.request.url : hop.url;
  } catch {
    return hop.url;
  }
}

function httpVersion(entry: HttpLogEntry): string {
  return `HTTP/${entry.httpVersion ?? '1.1'}`;
}

function postData(entry: HttpLogEntry, headers: readonly Header[]): { postData: HarObject } | Record<string, never> {
  const { request } = entry;
  if (!request.bodyKind || request.bodyKind === 'none') return {};
  const note = request.bodyTruncated ? 'The first 256 KB of the body.' : request.bodyKind !== 'text' ? 'A file or multipart body, named rather than included.' : undefined;
  return { postData: { mimeType: headerOf(headers, 'content-type') ?? '', text: request.body, ...(note ? { comment: note } : {}) } };
}

function redirectResponse(entry: HttpLogEntry, hop: LoggedHop): HarObject {
  return {
    status: hop.status,
    statusText: hop.statusText,
    httpVersion: httpVersion(entry),
    cookies: responseCookies(hop.headers),
    headers: harHeaders(hop.headers),
    content: { size: 0, mimeType: headerOf(hop.headers, 'content-type') ?? '', comment: 'A redirect’s body is read past, not kept.' },
    redirectURL: headerOf(hop.headers, 'location') ?? '',
    headersSize: -1,
    bodySize: -1,
  };
}

function finalResponse(entry: HttpLogEntry, hop: LoggedHop | undefined): HarObject {
  const response = entry.response!;
  const headers = hop?.headers ?? response.headers;
  return {
    status: response.status,
    statusText: response.statusText,
    httpVersion: httpVersion(entry),
    cookies: responseCookies(headers),
    headers: harHeaders(headers),
    content: {
      size: response.size,
      mimeType: headerOf(headers, 'content-type') ?? '',
      text: response.stream ? streamText(response.stream) : response.body,
      ...(response.bodyTruncated ? { comment: 'The first 256 KB of the body.' } : {}),
    },
    redirectURL: headerOf(headers, 'location') ?? '',
    headersSize: -1,
    bodySize: response.size,
  };
}

function addStream(har: HarObject, entry: HttpLogEntry): void {
  const s = entry.response?.stream;
  if (!s) return;
  har['_eventSourceMessages'] = s.rows.filter((r) => r.kind === 'event').map((r) => ({ time: r.at / 1000, eventName: r.name ?? 'message', eventId: r.id ?? '', data: r.data }));
  har['_parleyStream'] = { state: s.state, total: s.total, events: s.events, kept: s.rows.length, notKept: s.notKept, ...(s.error ? { error: s.error } : {}) };
}

const REDACTED = 'Secret and credential values were masked before this exchange was logged.';

/** A send logged without its hops: a failed send (no response), or a response whose hops were not reported. */
function oneEntry(entry: HttpLogEntry): HarObject {
  const { row, request, response, timing } = entry;
  const { time, timings } = timing ? harTimings(timingOf(timing)) : { time: 0, timings: { send: 0, wait: 0, receive: 0 } };
  const har: HarObject = {
    startedDateTime: row.at,
    time,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: httpVersion(entry),
      cookies: requestCookies(request.headers),
      headers: harHeaders(request.headers),
      queryString: queryString(request.url),
      headersSize: -1,
      bodySize: request.body === '' ? 0 : -1,
      ...postData(entry, request.headers),
    },
    response: response
      ? finalResponse(entry, undefined)
      : { status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1, _error: row.error?.message ?? '' },
    cache: {},
    timings,
  };
  addStream(har, entry);
  if (row.redacted) har['comment'] = REDACTED;
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
