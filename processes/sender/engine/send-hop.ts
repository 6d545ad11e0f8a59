import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Header } from '../../../protocol/model/exchange.js';
import { dispatchTraced, newHopTrace, type HopTrace } from './hop-trace.js';
import { wireBody } from './outgoing-body.js';
import type { HopRequest } from './redirects.js';

/** One exchange's response head, its unread body, and what the channels saw of it. */
export interface HopResponse {
  status: number;
  statusText: string;
  headers: Header[];
  httpVersion: '1.1' | '2';
  body: Dispatcher.ResponseData['body'];
  trace: HopTrace;
  /** The headers actually handed to undici (the body's framing header included). */
  sentHeaders: Header[];
}

/** Thrown out of `sendHop` with the trace, so a failure can tell whether the request went out. */
export class HopFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly trace: HopTrace,
  ) {
    super('hop failed');
  }
}

/** Sends one request and resolves when its response headers arrive (the body is not read). */
export async function sendHop(dispatcher: Dispatcher, request: HopRequest, signal: AbortSignal): Promise<HopResponse> {
  const trace = newHopTrace();
  const wire = wireBody(request.body);
  const sentHeaders = [...request.headers, ...wire.headers];
  try {
    const response = await dispatchTraced(trace, () =>
      dispatcher.request({
        origin: request.url.origin,
        path: `${request.url.pathname}${request.url.search}`,
        method: request.method,
        headers: sentHeaders.flat(),
        body: wire.body,
        signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      }),
    );
    const httpVersion = trace.alpnProtocol === 'h2' ? '2' : '1.1';
    const head = trace.responseHead;
    const statusText = head?.statusText || (httpVersion === '2' ? (STATUS_CODES[response.statusCode] ?? '') : '');
    const headers = head === undefined ? headersFromObject(response.headers) : headersFromRaw(head.rawHeaders);
    return { status: response.statusCode, statusText, headers, httpVersion, body: response.body, trace, sentHeaders };
  } catch (err) {
    if (wire.body instanceof Readable) wire.body.destroy();
    throw new HopFailure(err, trace);
  } finally {
    trace.releaseSocket?.();
  }
}

/** Raw header names and values as received; latin1 keeps every byte as it came. */
function headersFromRaw(raw: Buffer[]): Header[] {
  const headers: Header[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i]!.toString('latin1'), raw[i + 1]!.toString('latin1')]);
  return headers;
}

function headersFromObject(object: Record<string, string | string[] | undefined>): Header[] {
  return Object.entries(object).flatMap(([name, value]) => (value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v): Header => [name, v])));
}
