/**
 * An API without a definition as an OpenAPI 3.1 document (docs/export.md, "OpenAPI 3.1"): a path
 * per request URL (its path after the base URL or a leading `${variable}`; `{name}` and `:name`
 * segments as path parameters), an operation per method (the first request of a path and method
 * makes it, the others are noted), query parameters and headers from the request, the request
 * body's media type and, for JSON, a schema inferred from the body; responses from the request's
 * saved examples, each with a schema inferred from its JSON body; security schemes from the auth.
 */
import { ParleyError, quote } from '../../../../protocol/errors.js';
import type { ExportResult, ExportScope } from '../../../../protocol/export/scope.js';
import { effectiveAuth } from '../../../../protocol/inheritance.js';
import type { Auth } from '../../../../protocol/model/auth.js';
import type { Example } from '../../../../protocol/model/example.js';
import { FORM_CONTENT_TYPE, RAW_CONTENT_TYPES, type Request } from '../../../../protocol/model/request.js';
import { splitUrlText, queryRows } from '../../../../protocol/request-url.js';
import { ExportNotes, httpOf, httpRequests } from './common.js';

type Json = Record<string, unknown>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
/** Headers OpenAPI describes elsewhere (content negotiation, security) or that a client sets. */
const NOT_PARAMETERS = new Set(['accept', 'content-type', 'authorization', 'cookie', 'content-length', 'host']);
const MAX_DEPTH = 32;

export function exportOpenApi(scope: ExportScope): ExportResult {
  if (scope.api.definition) throw new ParleyError('bad-input', `The API ${quote(scope.api.name)} was imported from a definition: its own document (definition/) is the one to share.`);
  const notes = new ExportNotes();
  const paths = new Map<string, Json>();
  const schemes = new Map<string, Json>();
  let requests = 0;
  for (const visit of httpRequests(scope, notes)) {
    const request = httpOf(visit.request);
    const method = request.method.toLowerCase();
    if (!METHODS.has(method)) {
      notes.add(`${request.name}: the method ${request.method} has no place in OpenAPI: left out.`);
      continue;
    }
    const path = pathOf(request.url);
    const item = paths.get(path) ?? {};
    if (Object.hasOwn(item, method)) {
      notes.add(`${request.name} is a second ${request.method} ${path}: the first request makes the operation.`);
      continue;
    }
    requests++;
    const { auth } = effectiveAuth(request.auth, visit.inherited.auth);
    const security = securityOf(auth, schemes, notes, request.name);
    item[method] = {
      operationId: operationId(request.name, requests),
      summary: request.name,
      ...(request.description ? { description: request.description } : {}),
      ...(visit.folders.length > 0 ? { tags: [visit.folders.join('/')] } : {}),
      ...parametersOf(path, request, visit.inherited.headers),
      ...requestBodyOf(request, notes),
      responses: responsesOf(visit.request.examples, notes, request.name),
      ...(security ? { security } : {}),
    };
    paths.set(path, item);
  }
  const server = /^https?:\/\//i.test(scope.api.baseUrl.trim()) ? [{ url: scope.api.baseUrl.trim() }] : [];
  const doc: Json = {
    openapi: '3.1.0',
    info: { title: scope.root.name, version: '1.0.0', description: `Written by Parley from the requests of ${scope.of === 'api' ? 'the API' : 'the folder'} ${scope.root.name}.` },
    ...(server.length > 0 ? { servers: server } : {}),
    paths: Object.fromEntries(paths),
    ...(schemes.size > 0 ? { components: { securitySchemes: Object.fromEntries(schemes) } } : {}),
  };
  return { text: `${JSON.stringify(doc, null, 2)}\n`, requests, notes: notes.lines };
}

/** The URL's path as an OpenAPI path template: without scheme and host or a leading `${variable}`, `:name` as `{name}`, other `${x}` as `{x}`. */
export function pathOf(url: string): string {
  let path = splitUrlText(url.trim()).base;
  path = path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/^\$\{[^{}]+\}/, '');
  path = path.replace(/(^|\/):([A-Za-z_][\w.-]*)(?=\/|$)/g, '$1{$2}').replace(/\$\{([^{}]+)\}/g, '{$1}');
  if (!path.startsWith('/')) path = `/${path}`;
  return path.replace(/\/{2,}/g, '/');
}

function operationId(name: string, n: number): string {
  const id = name.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')).replace(/^[^A-Za-z]+/, '');
  return `${id.charAt(0).toLowerCase()}${id.slice(1) || 'operation'}${n}`;
}

function parametersOf(path: string, request: Request, inherited: readonly { name: string; value: string }[]): Json {
  const parameters: Json[] = [];
  const names = new Set<string>();
  for (const m of path.matchAll(/\{([^{}]+)\}/g)) {
    if (names.has(`path:${m[1]}`)) continue;
    names.add(`path:${m[1]}`);
    const value = request.pathParams.find((p) => p.name === m[1])?.value;
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' }, ...(value && !value.includes('${') ? { example: value } : {}) });
  }
  for (const row of [...queryRows(request.url), ...request.query]) {
    if (row.name === '' || names.has(`query:${row.name}`)) continue;
    names.add(`query:${row.name}`);
    parameters.push({ name: row.name, in: 'query', schema: { type: 'string' } });
  }
  for (const h of [...inherited, ...request.headers]) {
    const key = h.name.trim().toLowerCase();
    if (key === '' || NOT_PARAMETERS.has(key) || names.has(`header:${key}`)) continue;
    names.add(`header:${key}`);
    parameters.push({ name: h.name.trim(), in: 'header', schema: { type: 'string' } });
  }
  return parameters.length > 0 ? { parameters } : {};
}

function requestBodyOf(request: Request, notes: ExportNotes): Json {
  const body = request.body;
  const header = request.headers.find((h) => h.enabled && h.name.trim().toLowerCase() === 'content-type')?.value.split(';')[0]!.trim();
  let content: Json;
  switch (body.kind) {
    case 'none':
      return {};
    case 'raw': {
      const type = header || RAW_CONTENT_TYPES[body.raw.language];
      const parsed = body.raw.language === 'json' ? parseJson(body.raw.text.replace(/\$\{[^{}]+\}/g, 'x')) : undefined;
      content = { [type]: { schema: parsed === undefined ? { type: 'string' } : schemaOf(parsed, 0) } };
      break;
    }
    case 'form':
      content = { [FORM_CONTENT_TYPE]: { schema: { type: 'object', properties: Object.fromEntries(body.form.filter((r) => r.name).map((r) => [r.name, { type: 'string' }])) } } };
      break;
    case 'multipart':
      content = { 'multipart/form-data': { schema: { type: 'object', properties: Object.fromEntries(body.multipart.filter((p) => p.name).map((p) => [p.name, p.kind === 'file' ? { type: 'string', contentMediaType: p.contentType || 'application/octet-stream' } : { type: 'string' }])) } } };
      break;
    case 'binary':
      content = { [header || body.binary.contentType || 'application/octet-stream']: { schema: { type: 'string', contentMediaType: body.binary.contentType || 'application/octet-stream' } } };
      break;
    case 'graphql':
      notes.add(`${request.name} sends GraphQL: described as a JSON body with query, variables and operationName.`);
      content = { 'application/json': { schema: { type: 'object', properties: { query: { type: 'string' }, variables: { type: 'object' }, operationName: { type: 'string' } }, required: ['query'] } } };
      break;
  }
  return { requestBody: { content } };
}

function responsesOf(examples: readonly Example[], notes: ExportNotes, name: string): Json {
  if (examples.length === 0) return { default: { description: 'No response was saved as an example of this request.' } };
  const out: Json = {};
  for (const example of [...examples].sort((a, b) => a.status - b.status)) {
    const type = example.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1].split(';')[0]!.trim();
    const text = new TextDecoder().decode(example.body);
    let content: Json | undefined;
    if (type && /[/+]json$/i.test(type) && !example.truncated) {
      const parsed = parseJson(text);
      content = { [type]: parsed === undefined ? { schema: {} } : { schema: schemaOf(parsed, 0) } };
    } else if (type) content = { [type]: { schema: { type: 'string' } } };
    if (example.truncated) notes.add(`The example ${example.status} of ${name} was cut when saved: its schema is not inferred.`);
    out[String(example.status)] = { description: example.statusText || example.name || `Status ${example.status}`, ...(content ? { content } : {}) };
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON Schema for a value as recorded: its types, an object's properties, an array's first item's. */
export function schemaOf(value: unknown, depth: number): Json {
  if (depth > MAX_DEPTH) return {};
  if (value === null) return { type: 'null' };
  if (Array.isArray(value)) return value.length > 0 ? { type: 'array', items: schemaOf(value[0], depth + 1) } : { type: 'array' };
  switch (typeof value) {
    case 'string':
      return { type: 'string' };
    case 'number':
      return { type: Number.isInteger(value) ? 'integer' : 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'object': {
      const entries = Object.entries(value as Json);
      return { type: 'object', properties: Object.fromEntries(entries.map(([k, v]) => [k, schemaOf(v, depth + 1)])), ...(entries.length > 0 ? { required: entries.map(([k]) => k) } : {}) };
    }
    default:
      return {};
  }
}

/** The operation's security requirement, its scheme added to `schemes` once; none for no auth. */
function securityOf(auth: Auth, schemes: Map<string, Json>, notes: ExportNotes, name: string): Json[] | null {
  let id: string;
  let scheme: Json;
  switch (auth.type) {
    case 'inherit':
    case 'none':
      return [];
    case 'basic':
      [id, scheme] = ['basicAuth', { type: 'http', scheme: 'basic' }];
      break;
    case 'bearer':
      [id, scheme] = ['bearerAuth', { type: 'http', scheme: 'bearer' }];
      break;
    case 'apikey':
      [id, scheme] = [`apiKey_${auth.in}_${auth.name.replace(/[^\w.-]+/g, '_')}`, { type: 'apiKey', name: auth.name, in: auth.in }];
      break;
    case 'oauth2': {
      const flow = auth.grant === 'client_credentials' ? { clientCredentials: { tokenUrl: urlOf(auth.tokenUrl, '/token'), scopes: scopesOf(auth.scope) } } : { authorizationCode: { authorizationUrl: urlOf(auth.authorizationUrl, '/authorize'), tokenUrl: urlOf(auth.tokenUrl, '/token'), scopes: scopesOf(auth.scope) } };
      [id, scheme] = [`oauth2_${auth.grant}`, { type: 'oauth2', flows: flow }];
      break;
    }
    case 'kerberos':
      [id, scheme] = ['negotiate', { type: 'http', scheme: 'negotiate' }];
      notes.add(`${name} uses Kerberos: described as the HTTP Negotiate scheme.`);
      break;
  }
  if (!schemes.has(id)) schemes.set(id, scheme);
  return [{ [id]: auth.type === 'oauth2' ? auth.scope.split(/\s+/).filter(Boolean) : [] }];
}

function scopesOf(scope: string): Json {
  return Object.fromEntries(scope.split(/\s+/).filter(Boolean).map((s) => [s, s]));
}

/** A URL for a document: one made of `${...}` becomes its path (the variables are the user's, not the document's). */
function urlOf(text: string, fallback: string): string {
  if (text.trim() === '') return fallback;
  return text.includes('${') ? pathOf(text) : text.trim();
}
