/**
 * The cookie part of a send: before each hop the jar's matching cookies join the request (when
 * Send cookies is on), and as each hop's headers arrive its Set-Cookie headers go into the jar,
 * so the next hop already carries them. The jar itself is workspace state and lives in the
 * supervisor; the engine reaches it through `CookieJarPort`.
 */
import type { CookieOutcome } from '../../../protocol/model/cookies.js';
import type { Header } from '../../../protocol/model/exchange.js';

export interface CookieJarPort {
  /** The jar's Cookie header value for `url`; '' when no cookie matches. */
  cookieHeader(url: string): Promise<string>;
  /** Puts a hop's Set-Cookie headers into the jar; one outcome per header, in order. */
  received(url: string, setCookies: string[]): Promise<CookieOutcome[]>;
}

/**
 * The hop's headers with the jar's cookies added. A Cookie header set by hand is sent and wins:
 * a jar cookie whose name it already carries is left out, the others are appended to it.
 */
export function withJarCookies(headers: Header[], jarHeader: string): Header[] {
  if (jarHeader === '') return headers;
  const manual = headers.findIndex(([name]) => name.toLowerCase() === 'cookie');
  if (manual < 0) return [...headers, ['Cookie', jarHeader]];
  const taken = new Set(headers.filter(([name]) => name.toLowerCase() === 'cookie').flatMap(([, value]) => cookieNames(value)));
  const added = jarHeader.split('; ').filter((pair) => !taken.has(cookieName(pair)));
  if (added.length === 0) return headers;
  return headers.map((header, i): Header => (i === manual ? [header[0], [header[1].trim().replace(/;$/, ''), ...added].filter((part) => part !== '').join('; ')] : header));
}

function cookieNames(value: string): string[] {
  return value.split(';').map(cookieName);
}

function cookieName(pair: string): string {
  const eq = pair.indexOf('=');
  return (eq < 0 ? '' : pair.slice(0, eq)).trim();
}

function setCookieHeaders(headers: Header[]): string[] {
  return headers.filter(([name]) => name.toLowerCase() === 'set-cookie').map(([, value]) => value);
}

/**
 * Hands a hop's Set-Cookie headers to the jar. A jar that cannot be reached does not fail the
 * send (the response is real): each header is reported as not stored, with the reason.
 */
export async function storeHopCookies(jar: CookieJarPort | undefined, url: URL, headers: Header[]): Promise<CookieOutcome[] | undefined> {
  if (jar === undefined) return undefined;
  const setCookies = setCookieHeaders(headers);
  if (setCookies.length === 0) return [];
  try {
    return await jar.received(url.href, setCookies);
  } catch (err) {
    const message = `Not stored: the cookie jar could not be reached (${(err as Error).message.split('\n')[0]}).`;
    return setCookies.map(() => ({ name: '', domain: '', path: '', outcome: 'ignored', reason: { code: 'jar-unavailable', message } }));
  }
}
