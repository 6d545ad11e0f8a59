/**
 * What curl itself does that the cURL import and Copy as cURL both need to agree on.
 */

/**
 * curl's `--data-urlencode`: every byte but ALPHA, DIGIT and `-._~` percent-encoded, and a space
 * written as `+` (what curl 7.88 sends, checked against it in test/integration/curl-peer.test.ts).
 */
export function curlEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * The Content-Type curl gives a `-F name=@file` part without `;type=`: libcurl's guess from the
 * file name's extension (mime.c), else application/octet-stream.
 */
export function guessPartType(file: string): string {
  const ext = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase();
  switch (ext) {
    case 'gif':
      return 'image/gif';
    case 'jpg':
    case 'jpeg':
      return 'image/jpeg';
    case 'png':
      return 'image/png';
    case 'svg':
      return 'image/svg+xml';
    case 'txt':
      return 'text/plain';
    case 'htm':
    case 'html':
      return 'text/html';
    case 'pdf':
      return 'application/pdf';
    case 'xml':
      return 'application/xml';
    default:
      return 'application/octet-stream';
  }
}

/**
 * The Accept-Encoding an imported `--compressed` asks for: the codings Parley's sender decodes
 * (curl itself may also offer zstd, which Node 20 cannot decode).
 */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Codings curl's `--compressed` decodes, so a copied command that asks for them can add it. */
export const CURL_DECODES = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'zstd', 'identity']);

/** The user and password of an `Authorization: Basic ...` value (or of its credentials alone); null when it is not one. */
export function decodeBasic(value: string): { username: string; password: string } | null {
  const m = /^(?:Basic\s+)?([A-Za-z0-9+/]+={0,2})$/i.exec(value.trim());
  if (!m || !/^Basic\s/i.test(value.trim())) return null;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(m[1]!), (c) => c.charCodeAt(0)));
    const colon = text.indexOf(':');
    return colon < 0 ? null : { username: text.slice(0, colon), password: text.slice(colon + 1) };
  } catch {
    return null;
  }
}
