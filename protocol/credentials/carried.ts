/**
 * The credential values an exchange carried in its headers, masked by value wherever the exchange
 * reflects them (an echoed header, a body quoting them), as secret values are: the credentials of
 * the request's Authorization and credential-named headers (a Basic header's password too), the
 * values of the cookies it sent (by hand or from the jar) and of every Set-Cookie and
 * credential-named header of its responses, redirect hops included. By name these are masked
 * only in their own headers; by value they go from everything recorded of the response.
 */
import type { Header } from '../model/exchange.js';
import { MASK, isCredentialHeader, isReferenceOnly } from './names.js';
import { valueForms } from './mask.js';

/**
 * Carried values shorter than this are not looked for: a cookie such as `lang=en`,
 * `consent=true` or `v=1` would otherwise mangle every `en`, `true` and `1` of a body. Session
 * ids, tokens and keys are longer. (Known secret values keep the shorter minimum,
 * MIN_VALUE_LENGTH: the user named them secrets.)
 */
export const CARRIED_VALUE_MIN = 8;

export interface CarriedExchange {
  /** The request's URL: a user and password in it go out as a Basic Authorization header. */
  url?: string;
  /** The request's headers as sent (without the jar's cookies). */
  request: readonly Header[];
  /** The headers of every response: each redirect hop's, then the final one's. */
  responses: readonly (readonly Header[])[];
  /** The values of the jar's cookies the send added, on any hop. */
  jarCookies?: readonly string[];
}

/** Every value worth looking for (at least CARRIED_VALUE_MIN characters), each once. */
export function carriedValues(exchange: CarriedExchange): string[] {
  const values = new Set<string>();
  const add = (value: string | undefined) => {
    const v = value?.trim();
    if (v && v.length >= CARRIED_VALUE_MIN && !isReferenceOnly(v)) values.add(v);
  };
  for (const value of urlCredentials(exchange.url)) add(value);
  for (const [name, value] of exchange.request) {
    const lower = name.toLowerCase();
    if (lower === 'cookie') cookiePairValues(value).forEach(add);
    else if (lower === 'authorization' || lower === 'proxy-authorization') authorizationValues(value).forEach(add);
    else if (isCredentialHeader(name)) add(value);
  }
  for (const headers of exchange.responses) {
    for (const [name, value] of headers) {
      if (name.toLowerCase() === 'set-cookie') add(setCookieValue(value));
      else if (isCredentialHeader(name)) add(value);
    }
  }
  for (const value of exchange.jarCookies ?? []) add(value);
  return [...values];
}

/** Replacement pairs for the text engine (replaceSecretValues): every form of each value becomes `replacement`. */
export function carriedReplacements(values: Iterable<string>, replacement = MASK): [string, string][] {
  const pairs: [string, string][] = [];
  // A form shorter than the minimum (a value percent-decoded to a few characters) is not looked for either.
  for (const value of values) for (const form of valueForms(value)) if (form.length >= CARRIED_VALUE_MIN) pairs.push([form, replacement]);
  return pairs;
}

/** The values of a Cookie header (`a=1; b=2`), unquoted. */
export function cookiePairValues(header: string): string[] {
  const out: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq >= 0) out.push(unquote(pair.slice(eq + 1).trim()));
  }
  return out;
}

/** The value of a Set-Cookie header (`sid=abc; Path=/`), unquoted; undefined when it has no `=`. */
export function setCookieValue(header: string): string | undefined {
  const semi = header.indexOf(';');
  const pair = semi < 0 ? header : header.slice(0, semi);
  const eq = pair.indexOf('=');
  return eq < 0 ? undefined : unquote(pair.slice(eq + 1).trim());
}

/** An Authorization header's credentials after its scheme; for Basic also the password it encodes. */
function authorizationValues(value: string): string[] {
  const m = /^(\S+)\s+([\s\S]+)$/.exec(value.trim());
  if (!m) return [value];
  const credentials = m[2]!.trim();
  if (m[1]!.toLowerCase() !== 'basic') return [credentials];
  const decoded = decodeBase64(credentials);
  const colon = decoded?.indexOf(':') ?? -1;
  return colon < 0 ? [credentials] : [credentials, decoded!.slice(colon + 1)];
}

/** A URL's password, and the Basic credentials the sender makes of its user and password. */
function urlCredentials(text: string | undefined): string[] {
  if (text === undefined) return [];
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  if (url.username === '' && url.password === '') return [];
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const password = decode(url.password);
  const basic = btoa(String.fromCharCode(...new TextEncoder().encode(`${decode(url.username)}:${password}`)));
  return [password, basic];
}

function decodeBase64(text: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
