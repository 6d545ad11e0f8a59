/**
 * A .http / .rest file into one REST API of requests in file order (SPEC ".http import rules";
 * docs/importers.md, ".http files"). parse.ts reads the lines; this maps each request onto
 * Parley's model:
 *
 * - `@name = value` lines become project properties (a name the project has keeps its value),
 *   `{{name}}` becomes `${name}` (placeholders.ts).
 * - A user and password in the URL are cut from it into Basic auth, the password a secret.
 * - A literal value in a credential-named header becomes a secret the header refers to;
 *   one made only of {{variables}} stays as written.
 * - A `< ./file` body is read from inside the file's folder (body-files.ts): text becomes the
 *   raw body, anything else a binary body naming the file. A multipart body becomes parts.
 * - A GraphQL body (JetBrains' GRAPHQL method; httpyac's body that starts with query, mutation,
 *   subscription or fragment) becomes Parley's GraphQL body.
 * - Scripts (pre-request and response handlers, inline or in files) are saved as text under
 *   imported-scripts/ and never run; the request's description names them.
 * - WebSocket, gRPC and other non-HTTP requests are listed as not imported: an import cannot
 *   carry requests of another kind yet.
 * - With the environment files beside a picked file (option `httpEnvironments`, default on),
 *   their environments go to the workspace and `$shared` to project properties.
 */
import { basename, dirname, posix } from 'node:path';
import { ParleyError } from '../../../../protocol/errors.js';
import { isCredentialName } from '../../../../protocol/credentials/names.js';
import type { Auth } from '../../../../protocol/model/auth.js';
import type { Row } from '../../../../protocol/model/common.js';
import type { ImportResult, ImportedScript, ImportedSecret, PlacedRequest, ReportItem, UnimportedItem } from '../../../../protocol/model/import.js';
import { defaultSettings, emptyBody, requestVersionOf, type Body, type MultipartPart, type Request } from '../../../../protocol/model/request.js';
import { essence, isJsonMediaType } from '../../../../protocol/media-type.js';
import { portableFileName } from '../../../../protocol/project/file-names.js';
import { SourceOrder } from '../../../../protocol/project/order-keys.js';
import { syncPathParams } from '../../../../protocol/request-url.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { BodyFiles, textOf } from './body-files.js';
import { environmentFilesBeside } from './beside.js';
import { readEnvironmentFiles } from './environments.js';
import { HTTP_METHODS, parseHttpFile, type ParsedRequest, type ScriptRef } from './parse.js';
import { HttpPlaceholders, isPlaceholderOnly } from './placeholders.js';
import { rawLanguageOf } from '../raw-language.js';

/** SPEC "Limits": a .http file over 10 MB or with more than 5,000 requests is refused. */
export const HTTP_FILE_LIMIT = 10 * 1024 * 1024;
export const HTTP_REQUEST_LIMIT = 5_000;

const GRAPHQL_START = /^\s*(query|mutation|subscription|fragment)\b/;

interface Walk {
  ctx: ImportContext;
  vars: HttpPlaceholders;
  files: BodyFiles;
  order: SourceOrder;
  requests: PlacedRequest[];
  scripts: ImportedScript[];
  scriptNames: Set<string>;
  secrets: ImportedSecret[];
  warnings: ReportItem[];
  unimported: UnimportedItem[];
  notes: ReportItem[];
  /** The file name the messages give. */
  file: string;
}

export async function convertHttpFile(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const file = input.name ?? 'The pasted text';
  const bytes = input.bytes?.length ?? Buffer.byteLength(input.text, 'utf8');
  if (bytes > HTTP_FILE_LIMIT) throw new ParleyError('import-too-large', `${file} is ${(bytes / (1024 * 1024)).toFixed(1)} MB, over the 10 MB a .http file may be.`, { limit: HTTP_FILE_LIMIT });
  const parsed = parseHttpFile(input.text);
  if (parsed.requests.length > HTTP_REQUEST_LIMIT) {
    throw new ParleyError('import-too-large', `${file} holds ${parsed.requests.length.toLocaleString('en-US')} requests, over the ${HTTP_REQUEST_LIMIT.toLocaleString('en-US')} a .http file may hold.`, { limit: HTTP_REQUEST_LIMIT });
  }
  const dir = input.location?.kind === 'file' ? dirname(input.location.path) : undefined;
  const walk: Walk = { ctx, vars: new HttpPlaceholders(), files: new BodyFiles(dir), order: new SourceOrder(), requests: [], scripts: [], scriptNames: new Set(), secrets: [], warnings: [], unimported: [], notes: [], file };

  // File variables: the first definition of a name wins, as a property can have one value.
  const properties: Row[] = [];
  const propertyNames = new Set<string>();
  for (const v of parsed.variables) {
    if (propertyNames.has(v.name)) continue;
    propertyNames.add(v.name);
    // A credential-looking variable with a literal value goes to the secret store, as a header's would.
    const secret = isCredentialName(v.name) && v.value !== '' && !isPlaceholderOnly(v.value);
    properties.push({ name: v.name, value: secret ? secretRef(walk, `properties/${v.name}`, v.value) : walk.vars.convert(v.value), enabled: true });
  }

  for (const [index, req] of parsed.requests.entries()) {
    const request = await convertRequest(walk, req, index);
    if (request) walk.requests.push({ folder: '', request: walk.order.request('', request) });
    if ((index + 1) % 500 === 0) ctx.onProgress?.({ phase: 'convert', message: `Converted ${index + 1} requests`, items: index + 1 });
  }
  for (const s of parsed.skipped.slice(0, 20)) walk.warnings.push({ message: `Line ${s.line} was skipped: ${s.reason}.`, line: s.line });

  // The environment files beside a picked file, when the user kept the option ticked.
  let environments: ImportResult['environments'];
  if (dir && ctx.options.httpEnvironments !== false) {
    const envFiles = await environmentFilesBeside(walk.files, walk.warnings);
    if (envFiles.length > 0) {
      const read = readEnvironmentFiles(envFiles, walk.vars);
      environments = read.environments;
      walk.warnings.push(...read.warnings);
      walk.notes.push(...read.notes);
      for (const v of read.shared) {
        if (propertyNames.has(v.name)) continue;
        propertyNames.add(v.name);
        properties.push({ name: v.name, value: v.secret ? secretRef(walk, `properties/${v.name}`, v.value) : v.value, enabled: true });
      }
      if (read.shared.length > 0) walk.notes.push({ message: `$shared in the environment files became project properties (${read.shared.length}).` });
    }
  }

  if (walk.requests.length === 0 && properties.length === 0 && !environments?.length) {
    throw new ParleyError('import-empty', `${file} holds no HTTP requests Parley can import.`);
  }
  walk.warnings.push(...walk.vars.warnings().map((message) => ({ message })));
  if (properties.length > 0) walk.notes.push({ message: `${properties.length} variable${properties.length === 1 ? '' : 's'} became project properties; a name the project already has keeps its value.` });
  if (walk.scripts.length > 0) walk.notes.push({ message: `${walk.scripts.length} script${walk.scripts.length === 1 ? ' was' : 's were'} saved as text under imported-scripts/; Parley never runs them.` });

  const name = input.name ? basename(input.name).replace(/\.(http|rest)$/i, '') || 'HTTP requests' : 'HTTP requests';
  return {
    apis: walk.requests.length > 0 ? [{ api: { version: 1, id: ctx.newId('a'), name, baseUrl: '', auth: { type: 'none' } }, folders: [], requests: walk.requests, documents: [] }] : [],
    ...(properties.length > 0 ? { properties } : {}),
    ...(environments && environments.length > 0 ? { environments } : {}),
    ...(walk.scripts.length > 0 ? { scripts: walk.scripts } : {}),
    ...(walk.secrets.length > 0 ? { secrets: walk.secrets } : {}),
    report: {
      format: 'http',
      declaredVersion: 'http-file',
      baseUrl: '',
      requestCount: walk.requests.length,
      folderCount: 0,
      webhookCount: 0,
      securitySchemes: [],
      unimported: walk.unimported,
      warnings: walk.warnings,
      errors: [],
      notes: walk.notes,
      importedAt: ctx.now().toISOString(),
    },
  };
}

async function convertRequest(walk: Walk, req: ParsedRequest, index: number): Promise<Request | null> {
  const label = req.name ?? req.title ?? `${req.method} ${shortUrl(req.url)}`;
  if (!HTTP_METHODS.includes(req.method) && req.method !== 'GRAPHQL') {
    walk.unimported.push({ item: `${label} (line ${req.line})`, reason: `${req.method} requests are not imported from .http files yet: an import brings HTTP requests only.`, line: req.line });
    return null;
  }
  if (/^wss?:\/\//i.test(req.url)) {
    walk.unimported.push({ item: `${label} (line ${req.line})`, reason: 'A WebSocket URL: WebSocket requests are not imported from .http files yet.', line: req.line });
    return null;
  }
  const id = walk.ctx.newId('r');
  const headers: Row[] = [];
  let auth: Auth = { type: 'inherit' };

  // User info in the URL: cut out, into Basic auth (the password a secret unless it is a {{variable}}).
  let url = req.url;
  const userInfo = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s]*)@/i.exec(url);
  if (userInfo) {
    url = userInfo[1]! + url.slice(userInfo[0].length);
    const info = userInfo[2]!;
    const colon = info.indexOf(':');
    const username = decodeLoose(colon >= 0 ? info.slice(0, colon) : info);
    const password = colon >= 0 ? decodeLoose(info.slice(colon + 1)) : '';
    auth = { type: 'basic', username: walk.vars.convert(username), password: password === '' || isPlaceholderOnly(password) ? walk.vars.convert(password) : secretRef(walk, `request/${id}/password`, password) };
    walk.notes.push({ message: `The user name and password in the URL of ${label} were cut from it into Basic auth.`, line: req.line });
  }
  url = walk.vars.convert(url);

  for (const h of req.headers) {
    const value = isCredentialName(h.name) && h.value !== '' && !isPlaceholderOnly(h.value.replace(/^(Bearer|Basic|Token|Digest)\s+/i, '')) ? secretRef(walk, `request/${id}/${headerSecretPart(h.name)}`, h.value) : walk.vars.convert(h.value);
    headers.push({ name: h.name, value, enabled: true });
  }

  const method = req.method === 'GRAPHQL' ? 'POST' : req.method;
  const body = await convertBody(walk, req, headers, label);
  const description = describe(walk, req, label, index);
  const request: Request = {
    version: requestVersionOf({ body }),
    id,
    name: cleanName(label),
    method,
    url,
    pathParams: syncPathParams(url, []),
    query: [],
    headers,
    body,
    auth,
    settings: { ...defaultSettings(), ...(req.httpVersion === 'HTTP/2' || req.httpVersion === 'HTTP/2.0' ? { httpVersion: '2' as const } : {}) },
    ...(description ? { description } : {}),
  };
  return request;
}

async function convertBody(walk: Walk, req: ParsedRequest, headers: Row[], label: string): Promise<Body> {
  const body = emptyBody();
  if (req.body === null) return body;
  const contentType = headerValue(headers, 'content-type');

  // A body read from a file: `< ./file` (as it is) or `<@ ./file` (its {{variables}} replaced).
  const fromFile = /^<(@\w*)?\s+(\S.*)$/.exec(req.body.trim());
  if (fromFile && !req.body.trim().includes('\n')) {
    const path = fromFile[2]!.trim();
    let bytes: Uint8Array;
    try {
      bytes = await walk.files.read(path);
    } catch (err) {
      walk.warnings.push({ message: `The body of ${label} names ${path}, which was not read: ${(err as Error).message} The request has no body.`, line: req.bodyLine ?? req.line });
      return body;
    }
    const text = textOf(bytes);
    if (text === null) {
      body.kind = 'binary';
      body.binary = { file: posix.normalize(path.replaceAll('\\', '/')), contentType: contentType || 'application/octet-stream' };
      walk.warnings.push({ message: `The body of ${label} is the file ${path}, which is not text: the request sends that file from the project folder; copy it there.`, line: req.bodyLine ?? req.line });
      return body;
    }
    return rawOrGraphql(walk, req, body, fromFile[1] ? walk.vars.convert(text) : text, contentType);
  }

  if (essence(contentType) === 'multipart/form-data') {
    const parts = multipartParts(walk, req.body, contentType, label);
    if (parts) {
      body.kind = 'multipart';
      body.multipart = parts;
      // The send writes its own boundary in its own Content-Type.
      const at = headers.findIndex((h) => h.name.toLowerCase() === 'content-type');
      if (at >= 0) headers.splice(at, 1);
      return body;
    }
  }
  return rawOrGraphql(walk, req, body, walk.vars.convert(req.body), contentType);
}

function rawOrGraphql(walk: Walk, req: ParsedRequest, body: Body, text: string, contentType: string): Body {
  if (req.method === 'GRAPHQL' || (GRAPHQL_START.test(text) && (contentType === '' || isJsonMediaType(contentType)))) {
    // The query, then (after a blank line) a JSON object of variables, as both dialects write it.
    const split = /\n\s*\n(?=\s*\{)/.exec(text);
    const query = split ? text.slice(0, split.index) : text;
    const variables = split ? text.slice(split.index + split[0].length) : '';
    const fragments = req.preText.join('\n').trim();
    body.kind = 'graphql';
    body.graphql = { query: fragments && /\bfragment\b/.test(fragments) ? `${query}\n\n${fragments}` : query, variables: variables.trim(), operationName: '', schemaFile: '' };
    return body;
  }
  body.kind = 'raw';
  body.raw = { language: rawLanguageOf(contentType, text), text };
  return body;
}

/** The parts of a multipart body as written (its boundary from the Content-Type); null when it does not read as one. */
function multipartParts(walk: Walk, text: string, contentType: string, label: string): MultipartPart[] | null {
  const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
  if (!boundary) return null;
  const parts: MultipartPart[] = [];
  const chunks = text.split(/\r?\n/).reduce<string[][]>((acc, line) => {
    if (line.trim() === `--${boundary}` || line.trim() === `--${boundary}--`) acc.push([]);
    else acc[acc.length - 1]?.push(line);
    return acc;
  }, []);
  for (const lines of chunks) {
    const blank = lines.findIndex((l) => l.trim() === '');
    if (blank < 0) continue;
    const head = lines.slice(0, blank);
    const content = lines.slice(blank + 1).join('\n').replace(/\n+$/, '');
    const disposition = head.find((l) => /^content-disposition:/i.test(l)) ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) continue;
    const type = head.find((l) => /^content-type:/i.test(l))?.replace(/^content-type:\s*/i, '').trim();
    const fileRef = /^<\s+(\S.*)$/.exec(content.trim());
    if (fileRef) {
      parts.push({ kind: 'file', name, file: posix.normalize(fileRef[1]!.trim().replaceAll('\\', '/')), contentType: type || 'application/octet-stream', enabled: true });
      walk.warnings.push({ message: `The part ${name} of ${label} sends the file ${fileRef[1]!.trim()}, which Parley reads from the project folder: copy it there.` });
    } else {
      parts.push({ kind: 'text', name, value: walk.vars.convert(content), enabled: true });
    }
  }
  return parts.length > 0 ? parts : null;
}

/** The request's comments, and where its scripts were saved (never run). */
function describe(walk: Walk, req: ParsedRequest, label: string, index: number): string {
  const lines = [...req.comments];
  const kept = (refs: ScriptRef[], kind: 'pre-request' | 'response') => {
    for (const [n, ref] of refs.entries()) {
      if (ref.kind === 'file') {
        lines.push(`${kind === 'pre-request' ? 'Pre-request script' : 'Response handler'} (not run): ${ref.path}`);
        walk.unimported.push({ item: `${label}: ${kind === 'pre-request' ? 'pre-request script' : 'response handler'} ${ref.path}`, reason: 'A script in a file of its own is not copied; Parley never runs scripts.', line: ref.line });
        continue;
      }
      const fileName = scriptName(walk, `${label}${kind === 'pre-request' ? ' pre-request' : ' response'}${refs.length > 1 ? ` ${n + 1}` : ''}`, index);
      walk.scripts.push({ name: fileName, text: ref.text });
      lines.push(`${kind === 'pre-request' ? 'Pre-request script' : 'Response handler'} (not run): imported-scripts/${fileName}`);
    }
  };
  kept(req.preScripts, 'pre-request');
  kept(req.handlers, 'response');
  const meta = req.metadata.filter((m) => m.key !== 'name');
  if (meta.length > 0) lines.push(`Not carried across: ${meta.map((m) => `@${m.key}${m.value ? ` ${m.value}` : ''}`).join(', ')}`);
  return lines.join('\n').slice(0, 4000);
}

function scriptName(walk: Walk, base: string, index: number): string {
  let name = `${portableFileName(base, { fallback: `request ${index + 1}` })}.js`;
  for (let n = 2; walk.scriptNames.has(name.toLowerCase()); n++) name = `${portableFileName(base, { fallback: `request ${index + 1}` })} ${n}.js`;
  walk.scriptNames.add(name.toLowerCase());
  return name;
}

/** `${secret:name}` for a value the supervisor stores. */
function secretRef(walk: Walk, name: string, value: string): string {
  walk.secrets.push({ name, value });
  return `\${secret:${name}}`;
}

function headerSecretPart(name: string): string {
  return `header-${name.replace(/[^A-Za-z0-9_.-]+/g, '-')}`.slice(0, 80);
}


function headerValue(headers: Row[], name: string): string {
  return headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';
}

function decodeLoose(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Where a URL's origin ends, however it is written: `https://host:1`, `{{scheme}}://{{host}}`, or `{{host}}` standing for it. */
const ORIGIN = /^(?:(?:[a-z][a-z0-9+.-]*|\{\{[^{}]+\}\}):\/\/[^/?#]*|\{\{[^{}]+\}\}(?=[/?#]|$))/i;

/** The URL's path for a request's name ("METHOD /path", as docs/importers.md says). */
function shortUrl(url: string): string {
  const path = url.replace(ORIGIN, '').split('?')[0] || '/';
  return path.length > 80 ? `${path.slice(0, 80)}…` : path;
}

function cleanName(name: string): string {
  const text = name.replace(/\s+/g, ' ').trim().slice(0, 120);
  return text || 'Request';
}
