/**
 * Copy as cURL (SPEC "User operations"): a request as it would be sent now (variables expanded,
 * auth applied), or a History entry as recorded. Unless show-secrets is on, keychain secrets
 * read as their `${secret:name}` references and every credential value (by SPEC's name rule) is
 * masked; `-N` is added when the enabled Accept header asks for text/event-stream.
 */
import type { SendSpec } from '../../../protocol/model/exchange.js';
import type { HistoryEntry } from '../../../protocol/model/history.js';
import { MASK, bodySyntax, isCredentialName, isReferenceOnly, maskBody, maskHeaderValue, maskUrl } from '../../../protocol/credentials/index.js';
import { toCurl, type CurlPart, type CurlSource } from '../../../protocol/curl/to-curl.js';
import { decodeBasic } from '../../../protocol/curl/curl-rules.js';
import { redactSecrets } from '../send/expand.js';

/** How secrets are shown: `null` shows them; otherwise the secret values used, by name, to mask. */
export type Masking = Map<string, string> | null;

/** `masked`: values masked by value too when secrets are masked (credentials captured from earlier responses). */
export function specToCurl(spec: SendSpec, masking: Masking, masked: readonly string[] = []): string {
  return toCurl(maskSource(sourceOfSpec(spec), masking, masked));
}

function sourceOfSpec(spec: SendSpec): CurlSource {
  const headers = [...spec.headers];
  let basic: CurlSource['basic'];
  const at = headers.findIndex(([n]) => n.toLowerCase() === 'authorization');
  if (at >= 0) {
    const decoded = decodeBasic(headers[at]![1]);
    if (decoded) {
      basic = decoded;
      headers.splice(at, 1);
    }
  }
  let body: CurlSource['body'];
  switch (spec.body.type) {
    case 'none':
      body = { type: 'none' };
      break;
    case 'bytes':
      body = { type: 'text', text: new TextDecoder().decode(spec.body.data) };
      break;
    case 'file':
      // Written as the request holds it: relative to the project folder.
      body = { type: 'file', path: spec.body.path };
      break;
    case 'multipart':
      body = { type: 'multipart', parts: spec.body.parts.map((p): CurlPart => (p.kind === 'text' ? p : { kind: 'file', name: p.name, path: p.path, contentType: p.contentType })) };
      break;
  }
  return { method: spec.method, url: spec.url, headers, body, ...(basic ? { basic } : {}), ...(spec.negotiate ? { negotiate: true } : {}) };
}

/** A History entry as recorded: its masks stay; with show-secrets, its `${secret:name}` references are filled from `secrets`. */
export function entryToCurl(entry: HistoryEntry, secrets: Map<string, string> | null): string {
  const fill = (text: string) => (secrets ? text.replace(/\$\{secret:([^{}]+)\}/g, (whole, name: string) => secrets.get(name) ?? whole) : text);
  const r = entry.request;
  const headers = r.headers.map(([n, v]) => [n, fill(v)] as [string, string]);
  let body: CurlSource['body'] = { type: 'none' };
  const kind = r.bodyKind ?? (r.body ? 'text' : 'none');
  if (kind === 'text') body = { type: 'text', text: fill(r.body) };
  else if (kind === 'file') body = { type: 'file', path: /^\[file (.*)\]$/s.exec(r.body)?.[1] ?? r.body };
  else if (kind === 'multipart') {
    body = {
      type: 'multipart',
      parts: r.body
        .split('\n')
        .filter(Boolean)
        .map((line): CurlPart => {
          const eq = line.indexOf('=');
          const name = line.slice(0, eq);
          const value = line.slice(eq + 1);
          const file = /^\[file (.*)\]$/.exec(value)?.[1];
          return file !== undefined ? { kind: 'file', name, path: file, contentType: '' } : { kind: 'text', name, value: fill(value) };
        }),
    };
  }
  // A recorded event stream is copied with -N, whatever Accept the request sent.
  return toCurl({ method: r.method, url: fill(r.url), headers, body, ...(entry.response?.stream ? { stream: true } : {}) });
}

function maskSource(source: CurlSource, secrets: Masking, masked: readonly string[] = []): CurlSource {
  if (!secrets) return source;
  const redact = (text: string) => redactSecrets(text, secrets, masked);
  const contentType = source.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  let body = source.body;
  if (body.type === 'text') {
    const text = redact(body.text);
    const syntax = bodySyntax(contentType, text);
    body = { type: 'text', text: syntax ? maskBody(text, syntax).text : text };
  } else if (body.type === 'multipart') {
    body = {
      type: 'multipart',
      parts: body.parts.map((p) => {
        if (p.kind !== 'text') return p;
        const value = redact(p.value);
        return { ...p, value: isCredentialName(p.name) && !isReferenceOnly(value) ? MASK : value };
      }),
    };
  }
  const password = source.basic ? redact(source.basic.password) : '';
  return {
    method: source.method,
    url: maskUrl(redact(source.url)).text,
    headers: source.headers.map(([n, v]) => [n, maskHeaderValue(n, redact(v))] as const),
    body,
    ...(source.negotiate ? { negotiate: true } : {}),
    ...(source.basic ? { basic: { username: redact(source.basic.username), password: password === '' || isReferenceOnly(password) ? password : MASK } } : {}),
  };
}
