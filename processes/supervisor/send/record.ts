/**
 * What History records of a send, redacted before anything is written: secret values become
 * their `${secret:name}` references, and by SPEC's credential-name rule the values of
 * Authorization, Cookie, Set-Cookie and every credential-named header, query parameter, form
 * field, multipart text part, JSON key and XML element or attribute are masked, in the request
 * and in the response alike.
 */
import type { Header, SendResult, SendSpec } from '../../../protocol/model/exchange.js';
import type { HistoryEntry, RecordedResponse, SentRequest } from '../../../protocol/model/history.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import type { StreamRecord, StreamRow } from '../../../protocol/model/stream.js';
import { Slicer } from '../store/slicer.js';
import { MASK, bodySyntax, isCredentialName, isReferenceOnly, maskBody, maskHeaders, maskUrl } from '../../../protocol/credentials/index.js';
import { redactSecrets } from './expand.js';

/** Bodies are recorded up to this many bytes. */
export const PREVIEW_LIMIT = 256 * 1024;

export interface RecordedSend {
  request: SentRequest;
  /** Something was masked by name (secret references aside). */
  masked: boolean;
}

const headerOf = (headers: readonly Header[], name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];

export function recordSent(spec: SendSpec, secrets: Map<string, string>): RecordedSend {
  const redact = (text: string) => redactSecrets(text, secrets);
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

export function recordResponse(r: SendResult, secrets: Map<string, string>): { response: RecordedResponse; masked: boolean } {
  const redact = (text: string) => redactSecrets(text, secrets);
  const headers = maskHeaders(r.headers.map(([n, v]) => [n, redact(v)] as const));
  const body = maskText(redact(decodePreview(r.body.bytes)), headerOf(r.headers, 'content-type'));
  const bodyTruncated = r.body.size > Math.min(r.body.bytes.byteLength, PREVIEW_LIMIT);
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
    },
    masked: headers.masked + body.masked > 0,
  };
}

export function historyEntry(input: { id: string; at: string; requestId: string; sent: RecordedSend; response: SendResult; verdict: Verdict | undefined; secrets: Map<string, string> }): HistoryEntry {
  const recorded = recordResponse(input.response, input.secrets);
  return {
    id: input.id,
    at: input.at,
    requestId: input.requestId,
    request: input.sent.request,
    response: recorded.response,
    ...(input.verdict ? { verdict: input.verdict } : {}),
    redacted: input.sent.masked || recorded.masked || input.secrets.size > 0,
  };
}

function maskText(text: string, contentType: string | undefined): { text: string; masked: number } {
  const syntax = bodySyntax(contentType, text);
  return syntax ? maskBody(text, syntax) : { text, masked: 0 };
}

function decodePreview(bytes: Uint8Array): string {
  // A cut through a multi-byte character decodes to one replacement character at the end.
  return new TextDecoder().decode(bytes.subarray(0, PREVIEW_LIMIT));
}

/**
 * A stream as History and the HTTP Log keep it: each row's data masked as a body of its own
 * (JSON or XML data by the credential-name rule; every secret value the send used), in slices
 * between which the supervisor's loop runs (32 MB of rows take a while).
 */
export async function recordStream(record: StreamRecord, secrets: Map<string, string>): Promise<{ stream: StreamRecord; masked: boolean }> {
  const slicer = new Slicer();
  let masked = 0;
  const rows: StreamRow[] = [];
  for (const row of record.rows) {
    await slicer.tick();
    const text = maskText(redactSecrets(row.data, secrets), undefined);
    const id = row.id === undefined ? undefined : redactSecrets(row.id, secrets);
    masked += text.masked + (text.text !== row.data || id !== row.id ? 1 : 0);
    rows.push(text.text === row.data && id === row.id ? row : { ...row, data: text.text, ...(id === undefined ? {} : { id }) });
  }
  return { stream: { ...record, rows }, masked: masked > 0 };
}
