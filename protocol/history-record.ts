/**
 * What History records of an exchange, redacted before anything is written: by SPEC's
 * credential-name rule the values of Authorization, Cookie, Set-Cookie and every
 * credential-named header, query parameter, form field, multipart text part, JSON key and XML
 * element or attribute are masked, in the request and in the response alike. One rule for a
 * live send (the supervisor, which first turns secret values into their `${secret:name}`
 * references with `redact`) and for an exchange recorded in a HAR capture (the importer).
 */
import type { GrpcOutcome, Header, Hop, HopTiming, OutgoingBody, ResponseBody, SentHead } from './model/exchange.js';
import type { RecordedResponse, SentRequest } from './model/history.js';
import type { LoggedHop } from './model/http-log.js';
import { MASK, bodySyntax, isCredentialName, isReferenceOnly, maskBody, maskHeaders, maskUrl } from './credentials/index.js';

/** Bodies are recorded up to this many bytes. */
export const PREVIEW_LIMIT = 256 * 1024;

export interface RecordedSend {
  request: SentRequest;
  /** Something was masked by name (secret references aside). */
  masked: boolean;
}

/** What of a request History needs. */
export interface RecordableRequest {
  method: string;
  url: string;
  headers: readonly Header[];
  body: OutgoingBody;
}

/** What of a response History needs. */
export interface RecordableResponse {
  status: number;
  statusText: string;
  headers: readonly Header[];
  body: Pick<ResponseBody, 'bytes' | 'size'>;
  url: string;
  timing: { total: number };
  grpc?: GrpcOutcome;
}

type Redact = (text: string) => string;
const asIs: Redact = (text) => text;

const headerOf = (headers: readonly Header[], name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

export function recordRequest(spec: RecordableRequest, redact: Redact = asIs): RecordedSend {
  const url = maskUrl(redact(spec.url));
  const headers = maskHeaders(spec.headers.map(([n, v]) => [n, redact(v)] as const));
  let masked = url.masked + headers.masked;
  let body = '';
  let bodyKind: SentRequest['bodyKind'] = 'none';
  let bodyTruncated = false;
  switch (spec.body.type) {
    case 'none':
      break;
    case 'bytes': {
      bodyKind = 'text';
      bodyTruncated = spec.body.data.byteLength > PREVIEW_LIMIT;
      const text = maskText(redact(decodePreview(spec.body.data)), headerOf(spec.headers, 'content-type'));
      body = text.text;
      masked += text.masked;
      break;
    }
    case 'file':
      bodyKind = 'file';
      body = `[file ${spec.body.path}]`;
      break;
    case 'multipart':
      bodyKind = 'multipart';
      body = spec.body.parts
        .map((p) => {
          if (p.kind === 'file') return `${p.name}=[file ${p.path}]`;
          const value = redact(p.value);
          if (isCredentialName(p.name) && !isReferenceOnly(value)) {
            masked++;
            return `${p.name}=${MASK}`;
          }
          return `${p.name}=${value}`;
        })
        .join('\n');
      break;
  }
  return {
    request: { method: spec.method, url: url.text, headers: headers.headers, body, bodyKind, ...(bodyTruncated ? { bodyTruncated } : {}) },
    masked: masked > 0,
  };
}

export function recordResponse(r: RecordableResponse, redact: Redact = asIs): { response: RecordedResponse; masked: boolean } {
  const headers = maskHeaders(r.headers.map(([n, v]) => [n, redact(v)] as const));
  const body = maskText(redact(decodePreview(r.body.bytes)), headerOf(r.headers, 'content-type'));
  const bodyTruncated = r.body.size > Math.min(r.body.bytes.byteLength, PREVIEW_LIMIT);
  // A gRPC call's trailers are masked as its headers are.
  const trailers = r.grpc ? maskHeaders(r.grpc.trailers.map(([n, v]) => [n, redact(v)] as const)) : undefined;
  return {
    response: {
      status: r.status,
      statusText: r.statusText,
      headers: headers.headers,
      body: body.text,
      size: r.body.size,
      timeMs: r.timing.total,
      url: maskUrl(redact(r.url)).text,
      ...(bodyTruncated ? { bodyTruncated } : {}),
      ...(trailers ? { grpc: { ...r.grpc!, message: redact(r.grpc!.message), ...(r.grpc!.details !== undefined ? { details: redact(r.grpc!.details) } : {}), trailers: trailers.headers } } : {}),
    },
    masked: headers.masked + body.masked + (trailers?.masked ?? 0) > 0,
  };
}

/** What of a send's hops HAR export needs: the redirects, and the final hop as it went out. */
export interface RecordableWire {
  hops: readonly Hop[];
  status: number;
  statusText: string;
  headers: readonly Header[];
  url: string;
  sent?: SentHead;
  hopTiming?: HopTiming;
}

/**
 * Every hop of a send, the final one last, masked by the same rule as the rest of the record:
 * secret and carried values by `redact`, then credential headers by name (the jar's Cookie keeps
 * its cookie names) and credential query parameters in the URLs and Locations. Undefined when the
 * final hop's request was not reported (a response Parley did not send).
 */
export function recordWire(r: RecordableWire, redact: Redact = asIs): { hops: LoggedHop[]; masked: boolean } | undefined {
  if (r.sent === undefined || r.hopTiming === undefined) return undefined;
  let masked = 0;
  const headers = (list: readonly Header[]): [string, string][] => {
    const out = maskHeaders(list.map(([n, v]) => [n, n.toLowerCase() === 'location' ? maskUrl(redact(v)).text : redact(v)] as const));
    masked += out.masked;
    return out.headers;
  };
  const hop = (h: { method: string; url: string; status: number; statusText: string; headers: readonly Header[] }, sent: SentHead, timing: HopTiming): LoggedHop => {
    const url = maskUrl(redact(h.url));
    masked += url.masked;
    return { method: sent.method, url: url.text, requestHeaders: headers(sent.headers), requestBodySize: sent.bodySize, status: h.status, statusText: h.statusText, headers: headers(h.headers), timing };
  };
  const hops = [...r.hops.map((h) => hop(h, h.sent, h.timing)), hop({ ...r, method: r.sent.method }, r.sent, r.hopTiming)];
  return { hops, masked: masked > 0 };
}

/** A body's credential values masked, when its Content-Type or first character says how to read it. */
export function maskText(text: string, contentType: string | undefined): { text: string; masked: number } {
  const syntax = bodySyntax(contentType, text);
  return syntax ? maskBody(text, syntax) : { text, masked: 0 };
}

function decodePreview(bytes: Uint8Array): string {
  // A cut through a multi-byte character decodes to one replacement character at the end.
  return new TextDecoder().decode(bytes.subarray(0, PREVIEW_LIMIT));
}
