/**
 * Captures read from a response (docs/captures.md): a value as text from the body by JSONPath or
 * XPath (the body-query engine), from a header, the status, or a cookie the response set. Pure:
 * the supervisor reads the head itself, the checker's query worker runs the body expressions
 * (a JSONPath filter or an XPath may run long; the worker has a budget).
 */
import type { Capture, CaptureJob, CapturedValue } from '../../../protocol/model/capture.js';
import type { Header } from '../../../protocol/model/exchange.js';
import { isCredentialHeader, isCredentialName, setCookieValue } from '../../../protocol/credentials/index.js';
import type { Document as XmlDocument } from 'slimdom';
import { documentPrefixes, evaluateJsonPath, evaluateXPath, isXmlNode, parseXmlBody } from './body-query.js';
import { readsCredential } from './assertions.js';
import { jsonPathError, xpathError } from './query-errors.js';

/** A captured value longer than this is refused: it would ride in every request that reads it. */
export const MAX_CAPTURED_CHARS = 1024 * 1024;

/** Whether a capture needs the body (and so the checker's query thread). */
export function readsBody(c: Pick<Capture, 'source'>): c is Pick<Capture, 'source'> & { source: 'jsonpath' | 'xpath' } {
  return c.source === 'jsonpath' || c.source === 'xpath';
}

/**
 * A capture whose value is a credential: its variable's name follows the credential-name rule
 * (`token`, `sessionId`, `api_key`), or it reads one (a cookie, an Authorization or other
 * credential header, a path through a credential-named key such as `$.access_token`).
 */
export function isCredentialCapture(c: Pick<Capture, 'name' | 'source' | 'expression'>): boolean {
  if (isCredentialName(c.name.trim())) return true;
  switch (c.source) {
    case 'cookie':
      return true;
    case 'header':
      return isCredentialHeader(c.expression.trim());
    case 'jsonpath':
    case 'xpath':
      return readsCredential(c.expression);
    case 'status':
      return false;
  }
}

/** Each body capture of `job`: its value as text, or why there is none. The body is parsed once. */
export function evaluateBodyCaptures(job: CaptureJob): CapturedValue[] {
  let text: string | undefined;
  type Read = { value: unknown; reads: 'an XML body' | 'a JSON body' } | { error: string };
  let json: Read | undefined;
  let xml: Read | undefined;
  const bodyText = () => (text ??= new TextDecoder('utf-8', { fatal: false }).decode(job.body).replace(/^\uFEFF/, ''));
  const jsonBody = () =>
    (json ??= (() => {
      try {
        return { value: JSON.parse(bodyText()) as unknown, reads: 'a JSON body' as const };
      } catch {
        return { error: 'the body is not JSON' };
      }
    })());
  // XPath reads an XML body, or a JSON one as XPath 3.1 maps and arrays.
  const xpathBody = () =>
    (xml ??= (() => {
      if (!bodyText().trimStart().startsWith('<')) {
        const parsed = jsonBody();
        return 'error' in parsed ? { error: 'the body is neither XML nor JSON' } : parsed;
      }
      try {
        return { value: parseXmlBody(bodyText()), reads: 'an XML body' as const };
      } catch (err) {
        // The engine's own sentence (not well formed, where; a DTD, which is never read), as a clause.
        const said = (err as Error).message.replace(/\.$/, '');
        return { error: said.charAt(0).toLowerCase() + said.slice(1) };
      }
    })());
  return job.captures.map((c): CapturedValue => {
    if (!job.bodyComplete) return { error: 'the body is too large to read whole' };
    const expression = c.expression.trim();
    if (expression === '') return { error: `no ${c.source === 'jsonpath' ? 'JSONPath' : 'XPath'} expression` };
    const document = c.source === 'jsonpath' ? jsonBody() : xpathBody();
    if ('error' in document) return { error: `${document.error}, so ${expression} cannot be read` };
    let found: unknown[];
    try {
      found = c.source === 'jsonpath' ? evaluateJsonPath(expression, document.value) : evaluateXPath(expression, document.value);
    } catch (err) {
      if (c.source === 'jsonpath') return { error: `the JSONPath ${expression} is not valid: ${jsonPathError(err, expression)}` };
      const prefixes = document.reads === 'an XML body' ? () => [...documentPrefixes(document.value as XmlDocument).keys()] : undefined;
      return { error: `the XPath ${expression} is not valid: ${xpathError(err, expression, { reads: document.reads, ...(prefixes ? { prefixes } : {}) })}` };
    }
    if (found.length === 0) return { error: `nothing found at ${expression}` };
    // One match is its value; several are the JSON array of them, as an assertion compares them.
    return bounded(found.length === 1 ? textOf(found[0]) : JSON.stringify(found.map(plain)));
  });
}

/** A response header's value (several of one name joined by `, `, as HTTP reads them); a last Set-Cookie alone. */
export function headerCapture(name: string, headers: readonly Header[]): CapturedValue {
  const wanted = name.trim().toLowerCase();
  if (wanted === '') return { error: 'no header name' };
  const values = headers.filter(([n]) => n.toLowerCase() === wanted).map(([, v]) => v);
  if (values.length === 0) return { error: `the response has no ${name.trim()} header` };
  return bounded(wanted === 'set-cookie' ? values[values.length - 1]! : values.join(', '));
}

export function statusCapture(status: number): CapturedValue {
  return { value: String(status) };
}

/**
 * The value of the cookie `name` as the response set it: its last Set-Cookie of that name, the
 * final response's over its redirect hops'. Undefined when the response set none (the caller
 * then asks the jar for the cookie it holds for the response's URL).
 */
export function cookieCapture(name: string, responses: readonly (readonly Header[])[]): CapturedValue | undefined {
  const wanted = name.trim();
  if (wanted === '') return { error: 'no cookie name' };
  let found: string | undefined;
  for (const headers of responses) {
    for (const [n, v] of headers) {
      if (n.toLowerCase() !== 'set-cookie' || cookieName(v) !== wanted) continue;
      found = setCookieValue(v) ?? '';
    }
  }
  return found === undefined ? undefined : bounded(found);
}

/** The value of `name` in a Cookie header (`a=1; b=2`), as the jar would send it. */
export function cookieFromHeader(name: string, header: string): CapturedValue {
  const wanted = name.trim();
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq >= 0 && pair.slice(0, eq).trim() === wanted) return bounded(pair.slice(eq + 1).trim());
  }
  return { error: `the response set no cookie ${wanted}, and the jar holds none for its URL` };
}

function cookieName(setCookie: string): string {
  const semi = setCookie.indexOf(';');
  const pair = semi < 0 ? setCookie : setCookie.slice(0, semi);
  const eq = pair.indexOf('=');
  return eq < 0 ? '' : pair.slice(0, eq).trim();
}

/** A match as text: a string as it is, an XML node's text, anything else as JSON. */
function textOf(item: unknown): string {
  const value = plain(item);
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** What JSON can hold: XML nodes as their text, big integers in full. */
function plain(item: unknown): unknown {
  if (isXmlNode(item)) return item.textContent ?? '';
  if (typeof item === 'bigint') return item.toString();
  if (Array.isArray(item)) return item.map(plain);
  return item === undefined ? null : item;
}

function bounded(value: string): CapturedValue {
  if (value.length > MAX_CAPTURED_CHARS) return { error: `the value is ${value.length.toLocaleString('en')} characters long; a capture holds at most ${MAX_CAPTURED_CHARS.toLocaleString('en')}` };
  return { value };
}
