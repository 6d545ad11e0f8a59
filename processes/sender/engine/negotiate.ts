/**
 * Kerberos (SPNEGO) on a request: answered, not sent ahead, as the definition fetcher does. A 401
 * offering Negotiate from a hop on the request's own origin (one the send has never left) is
 * asked again once with a token made for that hop's host; any other hop never gets one. The
 * token comes from protocol/spnego.ts, the one SPNEGO engine.
 */
import type { Header } from '../../../protocol/model/exchange.js';
import { kerberosError, kerberosToken, serviceName, type NegotiateToken } from '../../../protocol/spnego.js';

/** A 401 whose WWW-Authenticate offers Negotiate (alone or among other schemes). */
export function asksForNegotiate(status: number, headers: Header[]): boolean {
  if (status !== 401) return false;
  return headers.some(([name, value]) => name.toLowerCase() === 'www-authenticate' && /(^|[\s,])Negotiate(\s|,|$)/i.test(value));
}

/**
 * The `Authorization: Negotiate` header for `url`'s service (the SPN as typed, or HTTP@<host>).
 * The send's signal stops the wait (GSSAPI's own call runs on in its thread); a failure is an
 * `auth-kerberos-*` error that says what to do.
 */
export async function negotiateHeader(url: URL, spn: string, signal: AbortSignal, make: NegotiateToken = kerberosToken): Promise<Header> {
  const service = serviceName(spn, url.hostname, 'request');
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return ['Authorization', `Negotiate ${await Promise.race([make(service), aborted])}`];
  } catch (err) {
    if (signal.aborted) throw err;
    throw kerberosError(err, url.host, service, 'request');
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    aborted.catch(() => undefined);
  }
}
