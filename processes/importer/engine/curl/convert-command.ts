/**
 * A curl command as a Parley request: what curl would put on the wire, kept in the request's own
 * terms (a form body as rows, a JSON body as raw JSON, `-u` as Basic auth...), so that sending the
 * request sends what curl sends. What the request cannot hold is listed: every option the import
 * ignored, as written, and notes on anything approximated.
 */
import { basename } from 'node:path';
import type { Auth } from '../../../../protocol/model/auth.js';
import type { Row } from '../../../../protocol/model/common.js';
import type { CurlImportReport, CurlPreview } from '../../../../protocol/model/curl.js';
import { FORM_CONTENT_TYPE, RAW_CONTENT_TYPES, blankRequest, type Body, type MultipartPart, type RawLanguage, type Request } from '../../../../protocol/model/request.js';
import { essence, isFormMediaType, isJsonMediaType, isXmlMediaType } from '../../../../protocol/media-type.js';
import { isCredentialName, maskUrl } from '../../../../protocol/credentials/index.js';
import { ACCEPT_ENCODING, curlEscape, decodeBasic, guessPartType } from '../../../../protocol/curl/curl-rules.js';
import type { Word } from 'curlconverter/dist/src/shell/Word.js';
import { parseCommand, wordText, type ParsedCommand } from './parse-command.js';

/** The options whose meaning the request keeps (curl's long names). */
const MAPPED = new Set([
  'url', 'request', 'get', 'head', 'header', 'user-agent', 'referer', 'range', 'time-cond', 'oauth2-bearer', 'user', 'basic', 'negotiate', 'globoff',
  'data', 'data-raw', 'data-ascii', 'data-binary', 'data-urlencode', 'json', 'url-query', 'form', 'form-string', 'compressed',
]);

export interface CurlConversion {
  /** The request, with the id and name given. */
  request: Request;
  report: CurlImportReport;
}

export async function convertCurlCommand(text: string, fields: { id: string; name?: string }): Promise<CurlConversion> {
  return convertParsed(await parseCommand(text), fields);
}

export function convertParsed(parsed: ParsedCommand, fields: { id: string; name?: string }): CurlConversion {
  const { request: cc, config, flags } = parsed;
  const notes = new Set<string>();
  const ignored: string[] = [];
  const ignore = (flag: string, why?: string) => {
    const label = why ? `${flag} (${why})` : flag;
    if (!ignored.includes(label)) ignored.push(label);
  };
  for (const [name, written] of flags) {
    if (name === 'cookie') ignore(written, 'cookies are dropped on import: the cookie jar sends them');
    else if (!MAPPED.has(name)) ignore(written);
  }
  if (parsed.more) notes.add('The text held more than one request: only the first was imported.');

  const first = cc.urls[0]!;
  const method = wordText(first.method, notes).toUpperCase() || 'GET';

  // Headers as given (-H, -A, -e, --json...); curlconverter adds an implied Content-Type for data, which is told apart by the raw -H list.
  const explicitContentType = (config.header ?? []).some((h) => /^\s*content-type\s*:/i.test(h.toString())) || config.json === true;
  const headers: [string, string][] = [];
  for (const [name, value] of cc.headers) {
    if (value === null) continue; // `-H 'Name:'` removes a header curl would send
    const n = wordText(name, notes);
    if (n.toLowerCase() === 'content-type' && !explicitContentType) continue;
    if (n.toLowerCase() === 'cookie') {
      // -b is listed as it was written; a Cookie header given with -H is listed as such.
      if (!flags.some(([f]) => f === 'cookie')) ignore('Cookie header', 'cookies are dropped on import: the cookie jar sends them');
      continue;
    }
    headers.push([n, wordText(value, notes)]);
  }
  if (config.compressed && !headers.some(([n]) => n.toLowerCase() === 'accept-encoding')) headers.push(['Accept-Encoding', ACCEPT_ENCODING]);

  // URL: curlconverter's (scheme added when missing), with -G data and --url-query appended as curl does.
  let url = wordText(first.urlWithOriginalQuery, notes);
  const queryParts = [...dataTexts(config['url-query'] ?? [], notes, ignore, '--url-query')];
  const data = config.data ?? [];
  const dataToQuery = config.get === true;
  if (dataToQuery) queryParts.push(...dataTexts(data, notes, ignore, '-G data'));
  if (queryParts.length > 0) url += (url.includes('?') ? '&' : '?') + queryParts.join('&');

  const auth = authOf(cc, headers, notes, ignore);
  const body = bodyOf(parsed, dataToQuery ? [] : data, headers, notes, ignore);
  // The URL as curl was given it, query string included: the request's query rows are read from it.
  const request: Request = {
    ...blankRequest({ id: fields.id, name: fields.name?.trim() || defaultName(method, url), method, url }),
    headers: headers.map(([name, value]): Row => ({ name, value, enabled: true })),
    body,
    auth,
  };
  return { request, report: { preview: previewOf(request), ignored, notes: [...notes] } };
}

/** The `data` parts of -d, --data-*, --json, --url-query as curl joins them with `&`; a part read from a file is not supported here. */
function dataTexts(parts: [string, Word][], notes: Set<string>, ignore: (flag: string, why?: string) => void, where: string): string[] {
  const out: string[] = [];
  for (const [type, word] of parts) {
    const value = wordText(word, notes);
    if (type === 'urlencode') {
      const at = value.indexOf('@');
      const eq = value.indexOf('=');
      if (at >= 0 && (eq < 0 || at < eq)) {
        ignore(`--data-urlencode ${value}`, 'reads a file');
        continue;
      }
      out.push(eq < 0 ? curlEscape(value) : `${eq === 0 ? '' : `${value.slice(0, eq)}=`}${curlEscape(value.slice(eq + 1))}`);
    } else if (type !== 'raw' && value.startsWith('@')) {
      ignore(`${where} ${value}`, 'reads a file');
    } else {
      out.push(value);
    }
  }
  return out;
}

function bodyOf(
  parsed: ParsedCommand,
  data: [string, Word][],
  headers: [string, string][],
  notes: Set<string>,
  ignore: (flag: string, why?: string) => void,
): Body {
  const body: Body = blankRequest({ id: 'x', name: 'x', method: 'GET', url: '' }).body;
  const cc = parsed.request;
  const contentTypeAt = headers.findIndex(([n]) => n.toLowerCase() === 'content-type');
  const contentType = contentTypeAt >= 0 ? headers[contentTypeAt]![1] : undefined;
  /** The Content-Type row goes when the body kind implies exactly it (the send adds it then). */
  const dropImpliedType = (implied: string) => {
    if (contentTypeAt >= 0 && contentType === implied) headers.splice(contentTypeAt, 1);
  };

  if (cc.multipartUploads && cc.multipartUploads.length > 0) {
    body.kind = 'multipart';
    for (const part of cc.multipartUploads) {
      const name = wordText(part.name, notes);
      if ('content' in part) {
        body.multipart.push({ kind: 'text', name, value: wordText(part.content, notes), enabled: true });
        if (part.contentType) notes.add(`The content type of the form field ${name} was dropped: text parts are sent without one.`);
      } else if (part.filename !== undefined) {
        const file = wordText(part.contentFile, notes);
        const filePart: MultipartPart = { kind: 'file', name, file, contentType: part.contentType ? wordText(part.contentType, notes) : guessPartType(file), enabled: true };
        body.multipart.push(filePart);
        if (wordText(part.filename, notes) !== basename(file)) notes.add(`The file name given for the form field ${name} was dropped: the file's own name is sent.`);
      } else {
        ignore(`-F ${name}=<${wordText(part.contentFile, notes)}`, 'a field read from a file');
      }
    }
    return body;
  }

  if (data.length === 0) return body;
  const files = data.filter(([type, word]) => type !== 'raw' && type !== 'urlencode' && word.toString().startsWith('@'));
  if (files.length === 1 && data.length === 1) {
    const [type, word] = files[0]!;
    const file = wordText(word, notes).slice(1);
    if (file === '-') {
      ignore(`@-`, 'data from standard input');
      return body;
    }
    body.kind = 'binary';
    body.binary = { file, contentType: contentType ?? FORM_CONTENT_TYPE };
    if (contentTypeAt >= 0) headers.splice(contentTypeAt, 1);
    if (type === 'data' || type === 'ascii') notes.add(`curl -d @${file} strips line breaks from the file; Parley sends the file as it is.`);
    return body;
  }
  const text = dataTexts(data, notes, ignore, 'data').join('&');
  if (cc.isDataBinary === false && /[\r\n]/.test(text) && data.some(([t, w]) => (t === 'data' || t === 'ascii') && w.toString().startsWith('@'))) {
    notes.add('Line breaks in data read from a file are kept.');
  }
  const type = contentType ?? FORM_CONTENT_TYPE;
  if (isFormMediaType(type)) {
    const rows = formRows(text);
    if (rows) {
      body.kind = 'form';
      body.form = rows;
      dropImpliedType(FORM_CONTENT_TYPE);
      return body;
    }
  }
  body.kind = 'raw';
  const language = languageOf(type, text);
  body.raw = { language, text };
  if (contentType === undefined) headers.push(['Content-Type', FORM_CONTENT_TYPE]);
  else dropImpliedType(RAW_CONTENT_TYPES[language]);
  return body;
}

/** Rows of a form body, when sending them gives exactly `text` back; null otherwise (it stays raw text). */
function formRows(text: string): Row[] | null {
  if (text === '') return null;
  const params = new URLSearchParams(text);
  if (params.toString() !== text) return null;
  return [...params].map(([name, value]) => ({ name, value, enabled: true }));
}

function languageOf(contentType: string, text: string): RawLanguage {
  if (isJsonMediaType(contentType)) return 'json';
  if (isXmlMediaType(contentType)) return 'xml';
  const e = essence(contentType);
  if (e === 'text/html') return 'html';
  if (e === 'application/javascript' || e === 'text/javascript') return 'javascript';
  const start = text.trimStart()[0];
  if (isFormMediaType(contentType) && (start === '{' || start === '[')) return 'json';
  if (isFormMediaType(contentType) && start === '<') return 'xml';
  return 'text';
}

function authOf(cc: ParsedCommand['request'], headers: [string, string][], notes: Set<string>, ignore: (flag: string, why?: string) => void): Auth {
  const userPass = cc.urls[0]!.auth;
  // `--negotiate -u :` (what Copy as cURL writes for Kerberos): the signed-in ticket, no user.
  if (cc.authType === 'negotiate') return { type: 'kerberos' };
  if (cc.authType !== 'basic' && cc.authType !== 'none' && cc.authType !== 'bearer') ignore(`--${cc.authType}`, 'only Basic and Negotiate auth are imported from -u');
  if (userPass && (cc.authType === 'basic' || cc.authType === 'none')) {
    const password = wordText(userPass[1], notes);
    if (!userPass[1] || userPass[1].toString() === '') notes.add('curl would ask for the password (-u without one): set it on the Auth tab.');
    return { type: 'basic', username: wordText(userPass[0], notes), password };
  }
  const at = headers.findIndex(([n]) => n.toLowerCase() === 'authorization');
  if (cc.oauth2Bearer) {
    // curl sends --oauth2-bearer as the Authorization header, which curlconverter lists too.
    if (at >= 0) headers.splice(at, 1);
    return { type: 'bearer', token: wordText(cc.oauth2Bearer, notes) };
  }
  if (at >= 0) {
    const value = headers[at]![1];
    const bearer = /^Bearer\s+(\S+)$/i.exec(value);
    if (bearer) {
      headers.splice(at, 1);
      return { type: 'bearer', token: bearer[1]! };
    }
    const decoded = decodeBasic(value);
    if (decoded) {
      headers.splice(at, 1);
      return { type: 'basic', ...decoded };
    }
    return { type: 'inherit' };
  }
  // No Authorization: a credential-named header is an API key, so its value goes to the keychain on
  // save. The last one: Copy as cURL writes an API key header after the request's own header rows.
  const key = headers.findLastIndex(([n]) => isCredentialName(n));
  if (key >= 0) {
    const [name, value] = headers.splice(key, 1)[0]!;
    return { type: 'apikey', in: 'header', name, value };
  }
  return { type: 'inherit' };
}

function defaultName(method: string, url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // A URL with ${...} in its host: the text after the host is still a fair name.
    path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split('?')[0] ?? url;
  }
  return `${method} ${path || '/'}`.slice(0, 120);
}

/** What the dialog shows before Import: never a header value or a password. */
function previewOf(request: Request): CurlPreview {
  const names = request.headers.map((h) => h.name);
  const auth = request.auth;
  if (auth.type === 'basic' || auth.type === 'bearer') names.unshift('Authorization');
  if (auth.type === 'apikey') names.unshift(auth.name);
  return {
    method: request.method,
    url: maskUrl(request.url).text,
    headerNames: names,
    bodyKind: bodyLabel(request.body),
    ...(auth.type === 'basic' ? { basicUser: auth.username } : {}),
    auth: auth.type === 'basic' ? 'Basic' : auth.type === 'bearer' ? 'Bearer token' : auth.type === 'apikey' ? `API key in the ${auth.name} header` : auth.type === 'kerberos' ? 'Kerberos (your signed-in ticket)' : 'Inherit from the API',
  };
}

export function bodyLabel(body: Body): string {
  switch (body.kind) {
    case 'none':
      return 'none';
    case 'raw':
      return `raw ${body.raw.language === 'json' ? 'JSON' : body.raw.language === 'xml' ? 'XML' : body.raw.language === 'html' ? 'HTML' : body.raw.language === 'javascript' ? 'JavaScript' : 'text'} (${body.raw.text.length} characters)`;
    case 'form':
      return `form (${body.form.length} field${body.form.length === 1 ? '' : 's'})`;
    case 'graphql':
      return `GraphQL (${body.graphql?.query.length ?? 0} characters)`;
    case 'multipart':
      return `multipart (${body.multipart.length} part${body.multipart.length === 1 ? '' : 's'})`;
    case 'binary':
      return body.binary.file ? `binary file ${body.binary.file}` : 'binary (no file)';
  }
}

