import { ParleyError } from '../../../protocol/errors.js';

/** Where the failure happened, for an error that names the right host. */
export interface FailureContext {
  /** host[:port] of the hop being sent. */
  host: string;
  /** host[:port] of the proxy, or '' when none. */
  proxyHost: string;
  /** True once the request started going out (the connection was up). */
  requestStarted: boolean;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const CONNECT_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host down',
  ENETDOWN: 'network down',
  EADDRNOTAVAIL: 'address not available',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
};
const TLS_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain ends in an untrusted self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is signed by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate is signed by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate is signed by an unknown authority',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  CERT_REVOKED: 'the certificate is revoked',
  CERT_UNTRUSTED: 'the certificate is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not match the host name',
  ERR_UNDICI_SECURE_PROXY_CONNECTION: 'the certificate does not match the host name',
};
/** Failures of a connection that was up: the exchange broke. */
const PROTOCOL_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_INFO', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH', 'UND_ERR_RES_EXCEEDED_MAX_SIZE']);

/**
 * Turns what undici or Node threw into a ParleyError with a stable code. The message names
 * the host and what happened (an errno or TLS code at most), never a header value.
 */
export function sendFailure(err: unknown, context: FailureContext): ParleyError {
  if (err instanceof ParleyError) return err;
  const code = errorCode(err);
  // Through a proxy every connection is first to the proxy: connect failures are about it.
  const connectHost = context.proxyHost === '' ? context.host : `proxy ${context.proxyHost}`;
  const data = { host: context.host, cause: code };

  if (DNS_CODES.has(code)) return new ParleyError('dns-failed', `Could not resolve ${connectHost} (${code}).`, data);
  if (code in TLS_REASONS || /^ERR_(SSL|TLS)_/.test(code) || (code === 'EPROTO' && !context.requestStarted)) {
    const reason = TLS_REASONS[code] ?? `the TLS handshake failed (${code})`;
    return new ParleyError('tls-failed', `TLS with ${context.host} failed: ${reason}.`, { ...data, reason: code });
  }
  if (!context.requestStarted && code in CONNECT_CODES) {
    return new ParleyError('connect-failed', `Could not connect to ${connectHost}: ${CONNECT_CODES[code]}.`, data);
  }
  if (!context.requestStarted && context.proxyHost !== '' && code === 'UND_ERR_ABORTED') {
    // undici's tunnel error when the proxy answers CONNECT with something other than 200.
    return new ParleyError('connect-failed', `The proxy ${context.proxyHost} refused to open a tunnel to ${context.host}.`, data);
  }
  if (!context.requestStarted && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE')) {
    return new ParleyError('connect-failed', `The connection to ${connectHost} closed before the request was sent.`, data);
  }
  if (PROTOCOL_CODES.has(code) || code.startsWith('HPE_') || code.startsWith('ERR_HTTP2_')) {
    return new ParleyError('protocol-error', `The exchange with ${context.host} broke: ${protocolReason(code)}.`, data);
  }
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') {
    return new ParleyError('bad-input', `undici refused the request to ${context.host} (${code}).`, data);
  }
  return new ParleyError('protocol-error', `The request to ${context.host} failed (${code === '' ? 'unknown error' : code}).`, data);
}

function protocolReason(code: string): string {
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') return 'the connection closed before the response was complete';
  if (code.startsWith('HPE_')) return `the response is not valid HTTP (${code})`;
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return 'the body length does not match Content-Length';
  if (code === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH') return 'the request body changed size while being sent';
  return code;
}

/** The most specific code in the error or its causes: an errno or TLS code before undici's wrapper code. */
function errorCode(err: unknown): string {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes.find((code) => !code.startsWith('UND_ERR')) ?? codes[0] ?? '';
}
