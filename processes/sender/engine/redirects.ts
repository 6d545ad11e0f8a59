import type { Header } from '../../../protocol/model/exchange.js';
import type { OpenedBody } from './outgoing-body.js';

/** One hop's request: what the redirect rules rewrite from hop to hop. */
export interface HopRequest {
  method: string;
  url: URL;
  headers: Header[];
  body: OpenedBody;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that carry credentials: never sent on to another origin (as browsers and curl do). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** Headers that describe the body: dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-encoding', 'content-language', 'content-location']);

export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/** The next hop's URL, or undefined when the Location cannot be followed (not http(s), or unparsable). */
export function resolveLocation(location: string, from: URL): URL | undefined {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return undefined;
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') return undefined;
  // A Location without a fragment keeps the original one (RFC 9110, 10.2.2).
  if (next.hash === '' && from.hash !== '') next.hash = from.hash;
  return next;
}

/**
 * The request for the next hop. 301/302 turn POST into a GET without body, 303 turns anything
 * but GET/HEAD into a GET without body, 307/308 keep method and body. Credentials and a Host
 * set by hand stay behind when the hop leaves the origin; once dropped they stay dropped.
 */
export function redirectedRequest(previous: HopRequest, status: number, next: URL): HopRequest {
  const method = previous.method.toUpperCase();
  const becomesGet = ((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD');
  const leavesOrigin = next.origin !== previous.url.origin;
  const headers = previous.headers.filter(([name]) => {
    const lower = name.toLowerCase();
    if (leavesOrigin && (CREDENTIAL_HEADERS.has(lower) || lower === 'host')) return false;
    return !(becomesGet && BODY_HEADERS.has(lower));
  });
  return {
    method: becomesGet ? 'GET' : previous.method,
    url: next,
    headers,
    body: becomesGet ? { type: 'none' } : previous.body,
  };
}
