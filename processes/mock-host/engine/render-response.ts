/**
 * Turns a mock response into what goes on the wire. A response that declares no values is sent
 * exactly as written (and prepared once); a template has each `{{name}}` replaced in one pass,
 * escaped once for where it lands, and never re-read, so a value holding `{{x}}` stays literal.
 */
import { PLACEHOLDER_PATTERN, type MockBodyKind, type MockResponse } from '../../../protocol/model/mock.js';
import type { RequestValues } from './request-values.js';

export interface RenderedResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

export type RenderOutcome = { ok: true; response: RenderedResponse } | { ok: false; header: string; reason: string };

// node:http frames the body itself; a stub's own framing headers would contradict it.
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Static responses, prepared once: the same outcome object (and response) for every request. */
const prepared = new WeakMap<MockResponse, { ok: true; response: RenderedResponse }>();

export function isTemplate(response: MockResponse): boolean {
  for (const _ in response.values) return true;
  return false;
}

/**
 * A static response's outcome is shared between requests: the caller reads it and never changes
 * it (`isPrepared` tells the two kinds apart, so what goes on the wire can be cached per response).
 */
export function renderResponse(response: MockResponse, values: RequestValues): RenderOutcome {
  if (!isTemplate(response)) {
    let ready = prepared.get(response);
    if (!ready) {
      ready = { ok: true, response: { status: response.status, headers: wireHeaders(response.headers), body: staticBody(response) } };
      prepared.set(response, ready);
    }
    return ready;
  }

  // Each declared value is read once; one the request does not carry is empty text.
  const resolved = new Map<string, string>();
  for (const [name, source] of Object.entries(response.values)) resolved.set(name, values.read(source) ?? '');

  const headers: Array<[string, string]> = [];
  for (const [name, template] of wireHeaders(response.headers)) {
    const value = fill(template, resolved, (v) => v);
    if (!HEADER_VALUE.test(value)) {
      const what = /[\r\n]/.test(value) ? 'a line break' : 'a character a header may not hold';
      return { ok: false, header: name, reason: `The value of header ${name} would contain ${what}, so it was not sent.` };
    }
    headers.push([name, value]);
  }
  const kind = response.body.kind;
  // A binary body is bytes: only its headers are a template.
  const body = kind === 'binary' ? staticBody(response) : Buffer.from(kind === 'none' ? '' : fill(response.body.text, resolved, escaperFor(kind)));
  return { ok: true, response: { status: response.status, headers, body } };
}

/** The body as written: a binary body's bytes from their base64, any other's text. */
function staticBody(response: MockResponse): Buffer {
  const { kind, text } = response.body;
  if (kind === 'none') return Buffer.alloc(0);
  return kind === 'binary' ? Buffer.from(text, 'base64') : Buffer.from(text);
}

function wireHeaders(headers: MockResponse['headers']): Array<[string, string]> {
  return headers.filter((h) => !FRAMING_HEADERS.has(h.name.toLowerCase())).map((h) => [h.name, h.value]);
}

function fill(template: string, values: Map<string, string>, escape: (value: string) => string): string {
  return template.replace(PLACEHOLDER_PATTERN, (whole, name: string) => (values.has(name) ? escape(values.get(name) as string) : whole));
}

function escaperFor(kind: MockBodyKind): (value: string) => string {
  if (kind === 'json') return (v) => JSON.stringify(v).slice(1, -1);
  if (kind === 'xml') return escapeXml;
  return (v) => v;
}

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}
