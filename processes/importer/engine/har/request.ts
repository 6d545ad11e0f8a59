/**
 * The first recording of a call as a Parley request, with SPEC "Credentials in imported
 * captures" rule 1 (and rule 3: cookies dropped). Nothing secret is carried across: the
 * Authorization header sets the auth type only (Basic keeps its user name), an X-Api-Key header
 * the API key's name only, other credential-named headers are dropped, and credential-named
 * query parameters, form fields, multipart text parts, JSON keys and XML elements and attributes
 * arrive empty. A value made only of `{{variables}}` or `${...}` references is kept as written.
 */
import type { Auth } from '../../../../protocol/model/auth.js';
import type { Row } from '../../../../protocol/model/common.js';
import { FORM_CONTENT_TYPE, RAW_CONTENT_TYPES, blankRequest, emptyBody, type Request } from '../../../../protocol/model/request.js';
import { essence, isFormMediaType } from '../../../../protocol/media-type.js';
import { bodySyntax, isCredentialName, isReferenceOnly, maskBody, maskUrl } from '../../../../protocol/credentials/index.js';
import { decodeBasic } from '../../../../protocol/curl/curl-rules.js';
import type { HarExchange, HarNameValue } from './entry.js';
import { rawLanguageOf } from '../raw-language.js';

/** A recorded request body longer than this is not carried into the request (a project file is no place for it). */
export const REQUEST_BODY_LIMIT = 1024 * 1024;

/** Headers the sender works out itself, or that only describe the recorded connection. */
const DROPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

export interface RecordedRequest {
  request: Request;
  /** What needs the user's attention (credentials not carried across, a body left out). */
  warnings: string[];
  /** Cookies were dropped (rule 3). */
  droppedCookies: boolean;
}

/** `url` is the exchange's parsed URL; the request keeps its path, with the origin as the API's base URL. */
export function requestFromRecording(exchange: HarExchange, url: URL, fields: { id: string; name: string }): RecordedRequest {
  const warnings: string[] = [];
  const blanked: string[] = [];
  let droppedCookies = false;

  // Query: credential-named parameters arrive empty.
  const query = maskUrl(url.search, { replacement: '' });
  if (query.masked > 0) blanked.push(`${query.masked} query parameter${query.masked === 1 ? '' : 's'}`);
  const path = `${url.pathname}${query.text}`;

  // Headers and auth.
  const headers: HarNameValue[] = [];
  const droppedCredentials: string[] = [];
  let authorization: string | undefined;
  let apiKey: HarNameValue | undefined;
  for (const header of exchange.request.headers) {
    const lower = header.name.toLowerCase();
    if (lower.startsWith(':') || DROPPED_HEADERS.has(lower)) continue;
    if (lower === 'cookie') {
      droppedCookies = true;
      continue;
    }
    if (isReferenceOnly(header.value)) {
      headers.push(header);
      continue;
    }
    if (lower === 'authorization') authorization ??= header.value;
    else if (lower === 'x-api-key') apiKey ??= header;
    else if (isCredentialName(header.name)) droppedCredentials.push(header.name);
    else headers.push(header);
  }
  let auth: Auth = { type: 'inherit' };
  if (authorization !== undefined) {
    const read = authFromHeader(authorization);
    auth = read.auth;
    warnings.push(read.warning);
  } else if (apiKey) {
    auth = { type: 'apikey', in: 'header', name: apiKey.name, value: '' };
    warnings.push(`the ${apiKey.name} header's key was not imported: the request uses an API key in that header; set its value on the Auth tab`);
  }
  if (authorization !== undefined && apiKey) droppedCredentials.push(apiKey.name);
  if (droppedCredentials.length > 0) {
    warnings.push(`the header${droppedCredentials.length === 1 ? '' : 's'} ${[...new Set(droppedCredentials)].join(', ')} looked like credentials and ${droppedCredentials.length === 1 ? 'was' : 'were'} not imported; add ${droppedCredentials.length === 1 ? 'it' : 'them'} back with your own values if the API needs ${droppedCredentials.length === 1 ? 'it' : 'them'}`);
  }

  // Body.
  const body = emptyBody();
  const postData = exchange.request.postData;
  const contentTypeAt = headers.findIndex((h) => h.name.toLowerCase() === 'content-type');
  const contentType = postData?.mimeType || (contentTypeAt >= 0 ? headers[contentTypeAt]!.value : '');
  let impliedType: string | null = null;
  if (postData && (postData.text !== undefined || (postData.params?.length ?? 0) > 0)) {
    const size = postData.text !== undefined ? postData.text.length : 0;
    if (size > REQUEST_BODY_LIMIT) {
      warnings.push(`its recorded body (${(size / 1024 / 1024).toFixed(1)} MB) is over the 1 MB an imported request keeps and was left out`);
    } else if (essence(contentType) === 'multipart/form-data' && postData.params && postData.params.length > 0) {
      body.kind = 'multipart';
      const files: string[] = [];
      let blankedParts = 0;
      for (const p of postData.params) {
        if (p.fileName !== undefined) {
          body.multipart.push({ kind: 'file', name: p.name, file: '', contentType: p.contentType ?? 'application/octet-stream', enabled: true });
          files.push(p.name);
        } else {
          const value = p.value ?? '';
          const blank = isCredentialName(p.name) && value !== '' && !isReferenceOnly(value);
          if (blank) blankedParts++;
          body.multipart.push({ kind: 'text', name: p.name, value: blank ? '' : value, enabled: true });
        }
      }
      if (blankedParts > 0) blanked.push(`${blankedParts} multipart field${blankedParts === 1 ? '' : 's'}`);
      if (files.length > 0) warnings.push(`the capture does not hold the file${files.length === 1 ? '' : 's'} sent as ${files.join(', ')}: choose ${files.length === 1 ? 'it' : 'them'} on the Body tab`);
      impliedType = contentType;
    } else if (isFormMediaType(contentType) || (contentType === '' && postData.params && postData.params.length > 0 && postData.text === undefined)) {
      const form = formRows(postData.text, postData.params);
      let blankedFields = 0;
      body.kind = 'form';
      body.form = form.map((row) => {
        if (!isCredentialName(row.name) || row.value === '' || isReferenceOnly(row.value)) return row;
        blankedFields++;
        return { ...row, value: '' };
      });
      if (blankedFields > 0) blanked.push(`${blankedFields} form field${blankedFields === 1 ? '' : 's'}`);
      impliedType = FORM_CONTENT_TYPE;
    } else {
      let text = postData.text ?? '';
      const language = rawLanguageOf(contentType, text);
      const syntax = bodySyntax(contentType || undefined, text);
      if (syntax && syntax !== 'form') {
        const masked = maskBody(text, syntax, { replacement: '' });
        if (masked.masked > 0) blanked.push(`${masked.masked} value${masked.masked === 1 ? '' : 's'} in the ${syntax === 'json' ? 'JSON' : 'XML'} body`);
        text = masked.text;
      }
      body.kind = 'raw';
      body.raw = { language, text };
      impliedType = RAW_CONTENT_TYPES[language];
    }
  }
  // The Content-Type row goes when the body kind sends exactly it (multipart makes its own boundary).
  if (contentTypeAt >= 0 && impliedType !== null && (body.kind === 'multipart' || headers[contentTypeAt]!.value === impliedType)) headers.splice(contentTypeAt, 1);
  else if (contentTypeAt < 0 && body.kind === 'raw' && contentType !== '' && contentType !== impliedType) headers.push({ name: 'Content-Type', value: contentType });

  if (blanked.length > 0) warnings.push(`credential-looking values were imported empty (${blanked.join(', ')}); fill them in before sending`);

  const request: Request = {
    ...blankRequest({ id: fields.id, name: fields.name, method: exchange.request.method, url: path }),
    headers: headers.map((h): Row => ({ name: h.name, value: h.value, enabled: true })),
    body: body.kind === 'none' ? emptyBody() : body,
    auth,
  };
  return { request, warnings, droppedCookies };
}

/** Rule 1 for the Authorization header: the scheme, never the credential. */
function authFromHeader(value: string): { auth: Auth; warning: string } {
  const scheme = /^(\S+)(?:\s+([\s\S]*))?$/.exec(value.trim());
  const name = scheme?.[1]?.toLowerCase();
  const credential = scheme?.[2]?.trim() ?? '';
  if (name === 'bearer' && credential !== '') {
    if (isReferenceOnly(credential)) return { auth: { type: 'bearer', token: credential }, warning: 'it uses Bearer auth with the token reference it was recorded with' };
    return { auth: { type: 'bearer', token: '' }, warning: 'the recorded Bearer token was not imported: the request uses Bearer auth; set its token on the Auth tab' };
  }
  if (name === 'basic') {
    const basic = decodeBasic(value);
    if (basic) return { auth: { type: 'basic', username: basic.username, password: '' }, warning: `the recorded Basic password was not imported: the request uses Basic auth as ${basic.username || 'an empty user name'}; set its password on the Auth tab` };
  }
  const shown = name && /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,40}$/.test(scheme![1]!) && name !== 'basic' ? `the ${scheme![1]} scheme, which Parley does not import` : 'a value Parley could not read';
  return { auth: { type: 'none' }, warning: `its Authorization header used ${shown}: the request was imported with no auth; set it up on the Auth tab` };
}

function formRows(text: string | undefined, params: { name: string; value?: string }[] | undefined): Row[] {
  if (params && params.length > 0) return params.map((p) => ({ name: p.name, value: p.value ?? '', enabled: true }));
  return [...new URLSearchParams(text ?? '')].map(([name, value]) => ({ name, value, enabled: true }));
}

