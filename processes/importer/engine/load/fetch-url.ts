/**
 * GET of one definition document over HTTP(S). Redirects are followed here, hop by hop, so the
 * credentials go only to the document's own origin (scheme, host, port): once a hop leaves that
 * origin they are not sent again. Every URL and message that leaves this module is redacted.
 * Kerberos is answered, not sent ahead: a 401 offering Negotiate from a hop that may have the
 * credentials is asked again once with a SPNEGO token (the server's answer token is not checked:
 * no mutual authentication).
 */
import { request, type Dispatcher } from 'undici';
import { ParleyError } from '../../../../protocol/errors.js';
import type { FetchCredentials, ImportDeadlines } from '../../../../protocol/model/import.js';
import type { ReadBudget } from './limits.js';
import { DEFAULT_DEADLINES, fetchDeadlineError, jobDeadlineError, tooLarge } from './limits.js';
import type { Redactor } from './redact.js';
import { sendFailure } from '../../../sender/engine/send-errors.js';
import { kerberosError, kerberosToken, serviceName, type NegotiateToken } from '../../../../protocol/spnego.js';

export interface FetchOptions {
  dispatcher: Dispatcher;
  redactor: Redactor;
  budget: ReadBudget;
  /** The credentials and the one origin they belong to. */
  credentials?: { value: FetchCredentials; origin: string };
  /** The caller gave up (cancel). */
  signal?: AbortSignal;
  /** `fetchMs` holds for this fetch from its first byte sent to its last received, redirects included. */
  deadlines?: ImportDeadlines;
  /** Fires when the whole job's deadline (`deadlines.jobMs`) has passed. */
  jobDeadline?: AbortSignal;
  /** Makes a Kerberos token; the `kerberos` package unless a test gives another. */
  negotiate?: NegotiateToken;
  /** The dispatcher's own headers and body timeouts (undici's), named when one fires. */
  gapMs?: number;
  /** host[:port] of the proxy the dispatcher goes through ('' or absent: none), named when it cannot be reached. */
  proxyHost?: string;
}

export interface FetchedDocument {
  /** The URL the bytes came from after redirects, as it was requested (query key included). */
  finalUrl: URL;
  bytes: Uint8Array;
  contentType: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchDocument(url: URL, options: FetchOptions): Promise<FetchedDocument> {
  const { redactor, budget } = options;
  const deadlines = options.deadlines ?? DEFAULT_DEADLINES;
  // One signal for undici: the caller's cancel, the job's deadline and this fetch's own.
  const fetchDeadline = AbortSignal.timeout(deadlines.fetchMs);
  const signal = AbortSignal.any([fetchDeadline, ...(options.signal ? [options.signal] : []), ...(options.jobDeadline ? [options.jobDeadline] : [])]);
  /** Why the signal fired, as the error this fetch ends with; undefined when it has not. */
  const stopped = (shown: string): ParleyError | undefined => {
    if (options.signal?.aborted) return new ParleyError('cancelled', 'The import was cancelled.');
    if (options.jobDeadline?.aborted) return jobDeadlineError(shown, deadlines.jobMs);
    if (fetchDeadline.aborted) return fetchDeadlineError(shown, deadlines.fetchMs);
    return undefined;
  };
  let current = url;
  // Once a hop leaves the credentials' origin, no later hop gets them, even back on that origin.
  let neverLeftOrigin = true;
  // The Negotiate token for the current hop, once its server asked for one.
  let negotiate: string | undefined;
  for (let hop = 0; ; hop++) {
    const onOrigin = options.credentials !== undefined && current.origin === options.credentials.origin;
    if (!onOrigin) neverLeftOrigin = false;
    const sendCredentials = onOrigin && neverLeftOrigin;
    const target = new URL(current);
    const headers: Record<string, string> = { accept: 'application/json, application/yaml, text/yaml, */*;q=0.8' };
    if (sendCredentials && options.credentials) applyCredentials(options.credentials.value, target, headers);
    if (sendCredentials && negotiate !== undefined) headers['authorization'] = `Negotiate ${negotiate}`;
    const shown = redactor.url(current);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(target, { method: 'GET', headers, dispatcher: options.dispatcher, signal });
    } catch (err) {
      throw stopped(shown) ?? networkError(err, shown, current, false, options);
    }
    const status = response.statusCode;
    if (REDIRECTS.has(status)) {
      await response.body.dump().catch(() => undefined);
      const location = headerValue(response.headers['location']);
      if (location === undefined) throw new ParleyError('import-fetch-failed', `${shown} answered ${status} without a Location to follow.`, { url: shown, status });
      if (hop + 1 > budget.limits.redirects) {
        throw new ParleyError('import-fetch-failed', `${shown} redirected more than ${budget.limits.redirects} times.`, { url: shown, status });
      }
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new ParleyError('import-fetch-failed', `${shown} redirected to an address that is not valid.`, { url: shown, status });
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new ParleyError('import-fetch-failed', `${shown} redirected to a ${next.protocol} address, which is not followed.`, { url: shown, status });
      }
      // A server may echo the key back in the Location: never carry it to the next hop.
      current = new URL(redactor.url(next));
      negotiate = undefined;
      continue;
    }
    const kerberos = sendCredentials && options.credentials?.value.type === 'kerberos' ? options.credentials.value : undefined;
    const offersNegotiate = status === 401 && /(^|[\s,])Negotiate(\s|,|$)/i.test([response.headers['www-authenticate'] ?? []].flat().join(', '));
    if (kerberos && offersNegotiate && negotiate === undefined) {
      await response.body.dump().catch(() => undefined);
      negotiate = await tokenFor(current, kerberos.spn, options.negotiate ?? kerberosToken, signal, shown, stopped);
      // The same hop again, now with the token: not a redirect.
      hop--;
      continue;
    }
    if (status === 401 || status === 403) {
      await response.body.dump().catch(() => undefined);
      if (kerberos) throw kerberosAuthError(status, shown, negotiate !== undefined);
      throw authError(status, shown, sendCredentials);
    }
    if (status < 200 || status > 299) {
      await response.body.dump().catch(() => undefined);
      throw new ParleyError('import-fetch-failed', `${shown} answered ${status}.`, { url: shown, status });
    }
    let bytes: Uint8Array;
    try {
      bytes = await readCapped(response.body, budget, shown);
    } catch (err) {
      throw stopped(shown) ?? (err instanceof ParleyError ? err : networkError(err, shown, current, true, options));
    }
    return { finalUrl: current, bytes, contentType: headerValue(response.headers['content-type']) ?? '' };
  }
}

/**
 * SPEC: a 401 or 403 is reported as needing authentication or as having refused the given
 * credentials. A 403 to a fetch that carried no credentials also reads as needing them: there
 * were none to refuse.
 */
function authError(status: number, shown: string, sentCredentials: boolean): ParleyError {
  if (status === 403 && sentCredentials) {
    return new ParleyError('auth-refused', `${shown} refused the given credentials (HTTP 403).`, { url: shown, status });
  }
  return new ParleyError('auth-required', `${shown} needs authentication (HTTP ${status}).`, { url: shown, status });
}

function kerberosAuthError(status: number, shown: string, sentToken: boolean): ParleyError {
  if (sentToken) return new ParleyError('auth-refused', `${shown} refused the signed-in Kerberos ticket (HTTP ${status}).`, { url: shown, status });
  if (status === 401) return new ParleyError('auth-required', `${shown} needs authentication (HTTP 401), but does not offer Kerberos (Negotiate).`, { url: shown, status });
  return new ParleyError('auth-required', `${shown} needs authentication (HTTP 403).`, { url: shown, status });
}

/** The Negotiate token for `url`'s service; the fetch's cancel and deadlines stop the wait (GSSAPI's own call runs on). */
async function tokenFor(url: URL, spn: string | undefined, make: NegotiateToken, signal: AbortSignal, shown: string, stopped: (shown: string) => ParleyError | undefined): Promise<string> {
  const service = serviceName(spn, url.hostname);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([make(service), aborted]);
  } catch (err) {
    throw stopped(shown) ?? kerberosError(err, shown, service);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    aborted.catch(() => undefined);
  }
}

function applyCredentials(credentials: FetchCredentials, target: URL, headers: Record<string, string>): void {
  switch (credentials.type) {
    case 'basic':
      headers['authorization'] = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`;
      return;
    case 'bearer':
      headers['authorization'] = `Bearer ${credentials.token}`;
      return;
    case 'apikey':
      if (credentials.in === 'header') headers[credentials.name.toLowerCase()] = credentials.value;
      else target.searchParams.set(credentials.name, credentials.value);
      return;
    case 'kerberos':
      // Sent only when the server asks (see fetchDocument): a token is made per request.
      return;
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], budget: ReadBudget, shown: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > budget.remainingBytes()) {
      body.destroy();
      throw tooLarge(shown, budget.limits.totalBytes);
    }
    chunks.push(buffer);
  }
  budget.addBytes(size, shown);
  return new Uint8Array(Buffer.concat(chunks, size));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A failed fetch in the sender's words (send-errors.ts), never undici's or Node's own ("connect ECONNREFUSED ..."). */
function networkError(err: unknown, shown: string, url: URL, requestStarted: boolean, options: FetchOptions): ParleyError {
  if (err instanceof Error && err.name === 'AbortError') return new ParleyError('cancelled', 'The import was cancelled.');
  const failure = sendFailure(err, { host: url.host, proxyHost: options.proxyHost ?? '', requestStarted, ...(options.gapMs !== undefined ? { undiciTimeoutMs: options.gapMs } : {}) });
  const cause = (failure.data as { cause?: string } | undefined)?.cause;
  return new ParleyError('import-fetch-failed', options.redactor.text(`${shown} could not be fetched. ${failure.message}`), { url: shown, reason: failure.code, ...(cause ? { cause } : {}) });
}
