/**
 * Copy as cURL: a request as a curl command for bash and zsh. Every argument is quoted so the
 * shell passes it through untouched; the options are the ones the cURL import reads back, so a
 * copied request imports as the same request. Masking is the caller's: this writes what it is given.
 */
import { CURL_DECODES } from './curl-rules.js';

export type CurlPart = { kind: 'text'; name: string; value: string } | { kind: 'file'; name: string; path: string; contentType: string };

export interface CurlSource {
  method: string;
  url: string;
  headers: readonly (readonly [string, string])[];
  body: { type: 'none' } | { type: 'text'; text: string } | { type: 'file'; path: string } | { type: 'multipart'; parts: CurlPart[] };
  /** Written as `-u user:password` (the headers then hold no Authorization). */
  basic?: { username: string; password: string };
  /** Kerberos: `--negotiate -u :` (curl makes the token from the signed-in ticket, for HTTP@<host>). */
  negotiate?: boolean;
  /** The response was an event stream: `-N` even when no Accept header asked for one. */
  stream?: boolean;
}

export function toCurl(source: CurlSource): string {
  const args: string[] = [];
  const body = source.body;
  const implied = body.type === 'none' ? 'GET' : 'POST';
  const method = source.method.toUpperCase();
  if (method === 'HEAD' && body.type === 'none') args.push('--head');
  else if (method !== implied) args.push(`-X ${quote(method)}`);
  // Brackets and braces are curl's URL globbing: off, so the URL is sent as written.
  if (/[[\]{}]/.test(source.url)) args.push('-g');
  args.push(quote(source.url));
  const head = args.length;
  if (source.basic) args.push(`-u ${quote(`${source.basic.username}:${source.basic.password}`)}`);
  else if (source.negotiate) args.push('--negotiate -u :');
  for (const [name, value] of source.headers) args.push(`-H ${quote(value === '' ? `${name};` : `${name}: ${value}`)}`);
  const accept = headerValues(source.headers, 'accept');
  const encodings = headerValues(source.headers, 'accept-encoding');
  if (encodings.length > 0 && encodings.every((v) => codings(v).every((c) => CURL_DECODES.has(c)))) args.push('--compressed');
  if (source.stream || accept.some((v) => /text\/event-stream/i.test(v))) args.push('-N');
  switch (body.type) {
    case 'none':
      break;
    case 'text':
      args.push(`--data-raw ${quote(body.text)}`);
      break;
    case 'file':
      args.push(`--data-binary ${quote(`@${body.path}`)}`);
      break;
    case 'multipart':
      for (const part of body.parts) {
        if (part.kind === 'text') args.push(`--form-string ${quote(`${part.name}=${part.value}`)}`);
        else args.push(`-F ${quote(`${part.name}=@${formFile(part.path)}${part.contentType ? `;type=${part.contentType}` : ''}`)}`);
      }
      break;
  }
  // The method and URL on the first line, every other option on a line of its own.
  return [['curl', ...args.slice(0, head)].join(' '), ...args.slice(head)].join(' \\\n  ');
}

function headerValues(headers: CurlSource['headers'], name: string): string[] {
  return headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
}

function codings(value: string): string[] {
  return value
    .split(',')
    .map((c) => c.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
}

/** A file name in `-F`, double-quoted when it holds what `-F` would read as a separator. */
function formFile(path: string): string {
  return /[;,"\\]/.test(path) ? `"${path.replace(/["\\]/g, '\\$&')}"` : path;
}

/**
 * One shell word that bash reads back as exactly `text`: bare when only safe characters, in single
 * quotes otherwise, and as ANSI-C `$'...'` when it holds control characters other than a line break or tab.
 */
export function quote(text: string): string {
  if (/^[A-Za-z0-9_\-.,:/@%+=]+$/.test(text)) return text;
  if (!/[\x00-\x08\x0b-\x1f\x7f]/.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  let out = "$'";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}
