/**
 * What undici or Node threw, as a ParleyError with a stable code and a message of Parley's own
 * naming the host and what went wrong. No library text reaches the user: not undici's messages
 * ("Headers Timeout Error"), not Node's ("connect ECONNREFUSED 127.0.0.1:9"), and no bare code
 * for a failure this table knows; the code the library gave stays in `data.cause`. Every
 * `UND_ERR_*` code of undici's `lib/core/errors.js` and the errno and TLS codes a connection
 * meets are listed below (send-errors.test.ts meets each against a real 127.0.0.1 server where
 * one can be made to happen). The sender's sends, the importer's fetches and the OAuth token
 * calls all report through here.
 */
import { maxHeaderSize } from 'node:http';
import { ParleyError } from '../../../protocol/errors.js';

/** Where the failure happened, for an error that names the right host. */
export interface FailureContext {
  /** host[:port] of the hop being sent. */
  host: string;
  /** host[:port] of the proxy, or '' when none. */
  proxyHost: string;
  /** True once the request started going out (the connection was up). */
  requestStarted: boolean;
  /** undici's own headers and body timeouts, when they were on (the importer's fetches): named when one fires. */
  undiciTimeoutMs?: number;
}

/** A size in the unit people read it in: 16 KiB, 32 MiB. */
export function bytesText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en')} bytes`;
}

/** A duration as a timeout setting reads: 500 ms, 30 s, 1.5 s. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

const DNS: Record<string, string> = {
  ENOTFOUND: 'no such host is known',
  EAI_NONAME: 'no such host is known',
  EAI_NODATA: 'the name has no address',
  EAI_AGAIN: 'the name server did not answer in time (a temporary failure: check the network or DNS settings)',
  EAI_FAIL: 'the name server failed',
};

/** Why a connection could not be made, by errno; `%h` is the host (or `proxy host`). */
const CONNECT: Record<string, string> = {
  ECONNREFUSED: 'Connection refused by %h: nothing is listening there.',
  ETIMEDOUT: 'Could not connect to %h: it did not answer the connection attempt in time.',
  UND_ERR_CONNECT_TIMEOUT: 'Could not connect to %h: it did not answer the connection attempt within 10 s.',
  EHOSTUNREACH: 'Could not connect to %h: there is no route to that host (host unreachable).',
  ENETUNREACH: 'Could not connect to %h: this machine has no route to its network (network unreachable).',
  EHOSTDOWN: 'Could not connect to %h: the host is down.',
  ENETDOWN: 'Could not connect to %h: the network is down.',
  EADDRNOTAVAIL: 'Could not connect to %h: the address is not available from this machine.',
  EACCES: 'Could not connect to %h: this machine does not allow the connection (a firewall or permission).',
  EPERM: 'Could not connect to %h: this machine does not allow the connection (a firewall or permission).',
  ECONNRESET: 'The connection to %h was reset before the request was sent.',
  EPIPE: 'The connection to %h closed before the request was sent.',
  UND_ERR_SOCKET: 'The connection to %h closed before the request was sent.',
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
  CERT_SIGNATURE_FAILURE: 'the certificate signature does not verify',
  CERT_CHAIN_TOO_LONG: 'the certificate chain is too long',
  INVALID_CA: 'a certificate in the chain is not a valid CA',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not match the host name',
  ERR_UNDICI_SECURE_PROXY_CONNECTION: 'the certificate does not match the host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server did not answer in TLS (is it plain HTTP on that port?)',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the server did not answer in TLS (is it plain HTTP on that port?)',
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'the server and Parley share no TLS version',
  ERR_SSL_UNSUPPORTED_PROTOCOL: 'the server and Parley share no TLS version',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'the server refused the handshake (no cipher or TLS version in common, or it wants a client certificate)',
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'the server wants a client certificate',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'the server does not trust the client certificate',
  ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR: 'the server failed during the handshake',
  EPROTO: 'the TLS handshake failed',
  UND_ERR_PRX_TLS: 'the TLS connection to the proxy failed',
};

/** A response parser's complaint (llhttp's HPE_* codes), as what was wrong with the response. */
const HTTP_PARSE: Record<string, string> = {
  HPE_INVALID_CONSTANT: 'the server did not answer in HTTP (is it another protocol, or TLS, on that port?)',
  HPE_INVALID_VERSION: 'its status line has no valid HTTP version',
  HPE_INVALID_STATUS: 'its status code is not a valid one',
  HPE_INVALID_HEADER_TOKEN: 'a header name holds a character HTTP does not allow',
  HPE_INVALID_CHUNK_SIZE: 'its chunked body is malformed',
  HPE_INVALID_CONTENT_LENGTH: 'its Content-Length is not a number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'it has both Content-Length and Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'its Transfer-Encoding is not one HTTP allows',
  HPE_LF_EXPECTED: 'a line does not end as HTTP says',
  HPE_CR_EXPECTED: 'a line does not end as HTTP says',
  HPE_CLOSED_CONNECTION: 'the server sent more after saying it would close the connection',
};

/**
 * Turns what undici or Node threw into a ParleyError with a stable code. The message names
 * the host and what happened, never a header value.
 */
export function sendFailure(err: unknown, context: FailureContext): ParleyError {
  if (err instanceof ParleyError) return err;
  const code = errorCode(err);
  const host = context.host;
  // Through a proxy every connection is first to the proxy: connect failures are about it.
  const connectHost = context.proxyHost === '' ? host : `proxy ${context.proxyHost}`;
  const data = { host, cause: code };

  if (Object.hasOwn(DNS, code)) return new ParleyError('dns-failed', `Could not resolve ${connectHost}: ${DNS[code]}.`, data);
  if (Object.hasOwn(TLS_REASONS, code) || /^ERR_(SSL|TLS)_/.test(code)) {
    if (code !== 'EPROTO' || !context.requestStarted) {
      const reason = Object.hasOwn(TLS_REASONS, code) ? TLS_REASONS[code]! : 'the TLS handshake failed for a reason Parley does not name';
      return new ParleyError('tls-failed', `TLS with ${code === 'UND_ERR_PRX_TLS' ? `proxy ${context.proxyHost}` : host} failed: ${reason}.`, { ...data, reason: code });
    }
  }
  if (!context.requestStarted && Object.hasOwn(CONNECT, code)) return new ParleyError('connect-failed', CONNECT[code]!.replace('%h', connectHost), data);
  if (!context.requestStarted && context.proxyHost !== '' && (code === 'UND_ERR_ABORTED' || code === 'UND_ERR_ABORT')) {
    // undici's tunnel error when the proxy answers CONNECT with something other than 200.
    return new ParleyError('connect-failed', `The proxy ${context.proxyHost} refused to open a tunnel to ${host}.`, data);
  }
  const timeout = context.undiciTimeoutMs === undefined ? '' : ` within ${durationText(context.undiciTimeoutMs)}`;
  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new ParleyError('timeout', `No response headers from ${host}${timeout} (the headers timeout).`, data);
    case 'UND_ERR_BODY_TIMEOUT':
      return new ParleyError('timeout', `The body from ${host} stopped arriving: nothing came${timeout} (the body timeout).`, data);
    case 'UND_ERR_HEADERS_OVERFLOW':
    case 'HPE_HEADER_OVERFLOW':
      return new ParleyError('headers-too-large', `The response's headers from ${host} are larger than ${bytesText(maxHeaderSize)}, the most Parley reads; the response was not read.`, { ...data, limit: maxHeaderSize });
    case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
      return new ParleyError('protocol-error', `The response from ${host} is larger than the most this request reads.`, data);
    case 'UND_ERR_INVALID_ARG':
      return new ParleyError('bad-input', `The request to ${host} could not be sent: its method, URL, a header or its body holds something HTTP cannot carry.`, data);
    case 'UND_ERR_NOT_SUPPORTED':
      return new ParleyError('bad-input', `The request to ${host} asks for something the HTTP client does not support (such as an Expect or Upgrade header).`, data);
    case 'UND_ERR_DESTROYED':
    case 'UND_ERR_CLOSED':
      return new ParleyError('protocol-error', `The connection to ${host} was closed by Parley before the exchange finished (the network settings changed, or Parley is stopping); send again.`, data);
    case 'UND_ERR_ABORT':
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return new ParleyError('protocol-error', `The exchange with ${host} was stopped before it finished.`, data);
    default:
      break;
  }
  const broke = protocolReason(code);
  if (broke !== undefined) return new ParleyError('protocol-error', `The exchange with ${host} broke: ${broke}.`, data);
  // UND_ERR_INVALID_RETURN_VALUE, UND_ERR_BPL_MISSING_UPSTREAM, UND_ERR_MAX_ORIGINS_REACHED,
  // UND_ERR_REQ_RETRY, UND_ERR_RESPONSE, UND_ERR_SOCKS5, UND_ERR_WS_*: parts of undici Parley does not use.
  return new ParleyError('protocol-error', `The request to ${host} failed for a reason Parley cannot name${code === '' ? '' : ` (code ${code})`}.`, data);
}

/** What broke in an exchange that was under way; undefined for a code that is not about that. */
function protocolReason(code: string): string | undefined {
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'the connection closed before the response was complete';
  if (code === 'ETIMEDOUT') return 'the connection timed out while the response was arriving';
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return 'the body length does not match Content-Length';
  if (code === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH') return 'the request body changed size while being sent';
  if (code === 'UND_ERR_INFO') return 'the server sent an informational response Parley cannot follow';
  if (code.startsWith('HPE_')) return `the response is not valid HTTP: ${Object.hasOwn(HTTP_PARSE, code) ? HTTP_PARSE[code] : 'the server sent something an HTTP client cannot read (is it another protocol, or TLS, on that port?)'}`;
  if (code === 'ERR_HTTP2_STREAM_CANCEL' || code === 'ERR_HTTP2_STREAM_ERROR') return 'the server reset the HTTP/2 stream';
  if (code === 'ERR_HTTP2_GOAWAY_SESSION') return 'the server ended the HTTP/2 connection (GOAWAY)';
  if (code.startsWith('ERR_HTTP2_')) return 'the HTTP/2 connection failed';
  return undefined;
}

/** The most specific code in the error or its causes: an errno or TLS code before undici's wrapper code. */
function errorCode(err: unknown): string {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') codes.push(code);
    // undici 7's HTTP/1.1 parser error mostly comes without its llhttp code (it looks the number up in a table by name).
    else if ((current as { name?: unknown }).name === 'HTTPParserError') codes.push('HPE_');
    current = (current as { cause?: unknown }).cause;
  }
  return codes.find((code) => !code.startsWith('UND_ERR')) ?? codes[0] ?? '';
}
