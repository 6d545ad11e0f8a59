/**
 * Turns a request as edited (with `${...}` expansions, `{path}` placeholders, inherited auth
 * and body drafts) into the fully resolved SendSpec the sender puts on the wire. Anything
 * that does not resolve refuses the send here, before a byte reaches the network.
 */
import { relative, sep } from 'node:path';
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { Api } from '../../../protocol/model/api.js';
import type { Auth } from '../../../protocol/model/auth.js';
import type { Header, OutgoingBody, SendSpec } from '../../../protocol/model/exchange.js';
import { emptyGraphqlBody, GRAPHQL_ACCEPT, GRAPHQL_CONTENT_TYPE, type GraphqlBody } from '../../../protocol/model/graphql.js';
import type { InheritedSettings, SettingSource } from '../../../protocol/model/project.js';
import { effectiveAuth, inheritedHeadersFor, sourceLabel } from '../../../protocol/inheritance.js';
import { BINARY_CONTENT_TYPE, FORM_CONTENT_TYPE, RAW_CONTENT_TYPES, type Request } from '../../../protocol/model/request.js';
import { pathParamNames, splitUrlText } from '../../../protocol/request-url.js';
import { chosenOperation } from '../../../protocol/graphql-operations.js';
import { emptyAuthFields, emptyAuthMessage, urlProblem } from '../../../protocol/request-checks.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { serviceName } from '../../../protocol/spnego.js';
import { secretEnvName } from '../../../protocol/secret-names.js';
import { quote } from '../../../protocol/errors.js';
import { redactSecrets, type Expander } from './expand.js';

export interface ResolveContext {
  expander: Expander;
  projectRoot: string;
  proxy: string;
  caPem: string;
  inlineLimit: number;
  /** Names of the secrets this workspace stored, to point at the one a missing name may mean. */
  secretNames?: readonly string[];
  /** Where `${secret:...}` values came from, so a missing one is explained truly. */
  secretSource?: SecretSource;
  /** The requests whose captures set a variable, named when it is missing (read only then). */
  capturedBy?: (name: string) => readonly string[];
  /** Gets an OAuth 2 access token for the resolved auth settings (cached by the caller). */
  oauthToken: (auth: Extract<Auth, { type: 'oauth2' }>, cacheKey: string) => Promise<string>;
}

/**
 * `inherited`: what the request's folders and API hand down (protocol/inheritance.ts); none: only
 * the API's auth, for a request outside any folder.
 */
export async function resolveRequest(request: Request, api: Api, ctx: ResolveContext, inherited: InheritedSettings = apiOnly(api)): Promise<SendSpec> {
  const x = (text: string) => ctx.expander.expand(text);
  const missingPath: string[] = [];

  // URL: the text as typed, cut before its fragment (a fragment is never sent). Base URL + path,
  // `{name}` segments filled from the path-parameter rows; the query as typed, each `${...}` in
  // it expanded and percent-encoded where it stands.
  const typed = splitUrlText(request.url.trim());
  const typedQuery = typed.query === null ? null : ctx.expander.expandEncoded(typed.query, encodeURIComponent);
  let path = x(typed.base);
  for (const name of pathParamNames(request.url)) {
    const row = request.pathParams.find((p) => p.name === name);
    const value = row ? x(row.value) : '';
    if (value === '') missingPath.push(name);
    else path = path.split(`{${name}}`).join(encodeURIComponent(value));
  }
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
  const base = absolute ? '' : x(api.baseUrl.trim());

  // The folders' headers first (outermost first), then the request's own, which hide theirs by name.
  const headers: Header[] = [
    ...inheritedHeadersFor(request.headers, inherited.headers).map((h): Header => [x(h.name.trim()), x(h.value)]),
    ...request.headers.filter((h) => h.enabled && h.name.trim()).map((h): Header => [x(h.name.trim()), x(h.value)]),
  ];
  const query: [string, string][] = request.query.filter((q) => q.enabled && (q.name || q.value)).map((q) => [x(q.name), x(q.value)]);
  // A GraphQL subscription goes over graphql-ws to the same endpoint (ws: for http:, wss: for https:).
  const graphql = request.body.kind === 'graphql' ? (request.body.graphql ?? emptyGraphqlBody()) : undefined;
  const subscription = graphql && chosenOperation(graphql.query, graphql.operationName)?.type === 'subscription' ? graphqlOperation(graphql, x) : undefined;
  const body: OutgoingBody = subscription ? { type: 'none' } : resolveBody(request, headers, x, ctx.projectRoot);

  const { auth, from } = effectiveAuth(request.auth, inherited.auth);
  // An OAuth 2 token is cached per place its settings live: the request, a folder or the API.
  const authRefusal = await applyAuth(auth, headers, query, x, ctx, from ? `${from.kind}:${from.id}` : `request:${request.id}`, from);

  // Refuse before anything else can fail: the user needs every unresolved name at once.
  const unresolved = [...ctx.expander.unresolved];
  if (missingPath.length > 0 || unresolved.length > 0) {
    throw unresolvedRefusal(unresolved, ctx, missingPath);
  }
  if (authRefusal) throw authRefusal;

  // Before `new URL`, which would take "ht!tp://bad url/%%" for a path under the base URL.
  const typedFull = absolute || /^[^:/?#\s]*:\/\//.test(path);
  const joined = typedFull ? path : `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const withQuery = (text: string) => (typedQuery === null ? text : `${text}?${typedQuery}`);
  const problem = typedFull || base ? urlProblem(withQuery(joined)) : urlProblem(withQuery(path));
  if (problem) throw new ParleyError('bad-url', redactSecrets(`Not sent: the URL "${withQuery(joined)}" is not valid: ${problem}.`, ctx.expander.secretValues));
  if (!absolute && !base) throw new ParleyError('bad-url', `Not sent: "${path}" is a path and the API ${api.name} has no base URL. Set one on the API tab, or use a full URL.`);
  let url: URL;
  try {
    url = new URL(joined);
  } catch {
    throw new ParleyError('bad-url', redactSecrets(`Not sent: "${joined}" is not a valid URL.`, ctx.expander.secretValues));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParleyError('bad-url', `Not sent: ${url.protocol} URLs are not HTTP requests.`);
  // The query: what an expansion in the base brought, then the typed one, then switched-on rows
  // the request still holds outside its text and an API key (an empty part adds no `&`).
  const rows = query.map(([k, v]) => (v === '' ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&');
  const parts = [url.search.slice(1), typedQuery ?? '', rows].filter((part) => part !== '');
  url.search = parts.length > 0 ? parts.join('&') : typedQuery !== null ? '?' : '';
  url.hash = '';
  if (subscription) url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  else if (request.body.kind === 'graphql' && request.method.toUpperCase() === 'GET') graphqlQueryParams(url, graphqlOperation(request.body.graphql ?? emptyGraphqlBody(), x));

  for (const [name, value] of headers) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new ParleyError('bad-header', `Not sent: "${name}" is not a valid header name.`);
    if (/[\r\n\0]/.test(value)) throw new ParleyError('bad-header', `Not sent: the value of header ${name} contains a line break or NUL.`);
  }

  return {
    method: subscription ? 'GET' : request.method.toUpperCase(),
    url: url.toString(),
    headers,
    body,
    timeoutMs: request.settings.timeoutMs,
    httpVersion: request.settings.httpVersion,
    followRedirects: true,
    maxRedirects: 20,
    proxy: ctx.proxy,
    caPem: ctx.caPem,
    inlineLimit: ctx.inlineLimit,
    ...negotiateFor(auth, headers, x),
    ...(subscription ? { subscription } : {}),
  };
}

/** What a request outside any folder inherits: the API's auth. */
/** The refusal of a send whose `${...}` (or `{path}` parameters) resolve nowhere, naming every one. */
export function unresolvedRefusal(unresolved: string[], ctx: Pick<ResolveContext, 'secretNames' | 'secretSource' | 'capturedBy'>, missingPath: string[] = []): ParleyError {
  const parts = [
    ...missingPath.map((name) => `path parameter {${name}} has no value`),
    ...unresolved.map((name) => (name.startsWith('secret:') ? missingSecret(name.slice('secret:'.length), ctx.secretNames ?? [], ctx.secretSource) : missingVariable(name, ctx.capturedBy?.(name) ?? []))),
  ];
  return new ParleyError('unresolved', `Not sent: ${parts.join('; ')}.`, { pathParams: missingPath, expansions: unresolved });
}

/** A variable defined nowhere; one a request captures names that request, whose response has not set it. */
function missingVariable(name: string, capturers: readonly string[]): string {
  if (capturers.length === 0) return `\${${name}} is not defined in the active environment, the project properties or the globals`;
  const which = capturers.length === 1 ? `the request ${quote(capturers[0]!)} captures it` : `the requests ${capturers.map((c) => quote(c)).join(', ')} capture it`;
  return `\${${name}} is not set: ${which}, and no response of ${capturers.length === 1 ? 'it' : 'theirs'} has set it yet (send ${capturers.length === 1 ? 'it' : 'one'} first)`;
}

function apiOnly(api: Api): InheritedSettings {
  return { auth: { auth: api.auth.type === 'inherit' ? { type: 'none' } : api.auth, from: { kind: 'api', id: api.id, name: api.name } }, headers: [], variables: [] };
}

/**
 * Kerberos auth as the sender's `negotiate`: the SPN expanded and checked here, so a malformed one
 * refuses the send before the network. A hand-set Authorization header wins, as for Basic.
 */
function negotiateFor(auth: Auth, headers: Header[], x: (s: string) => string): Pick<SendSpec, 'negotiate'> {
  if (auth.type !== 'kerberos' || headers.some(([n]) => n.toLowerCase() === 'authorization')) return {};
  const spn = x(auth.spn ?? '').trim();
  if (spn !== '') serviceName(spn, '', 'request');
  return { negotiate: { spn } };
}

export interface SecretSource {
  /** The workspace's secret store. */
  store: 'keychain' | 'vault' | 'none';
  /** `parley run`: `PARLEY_SECRET_<NAME>` was looked at first. */
  fromEnvironment?: boolean;
  /** Why the store was not asked (a run without one): said after the variable's name. */
  problem?: string;
}

const STORE_WORDS = { keychain: 'the keychain', vault: 'the vault', none: 'secure storage' } as const;

/**
 * "${secret:apiToken} names no secret in the keychain", and the stored name it may have meant;
 * under `parley run` the exact PARLEY_SECRET_<NAME> variable that would supply it.
 */
function missingSecret(name: string, known: readonly string[], source: SecretSource = { store: 'keychain' }): string {
  const lower = name.toLowerCase();
  const near = known.find((k) => k.toLowerCase() === lower || k.toLowerCase().endsWith(`/${lower}`));
  const nearHint = near ? ` (did you mean \${secret:${near}}?)` : '';
  if (source.fromEnvironment) {
    const variable = `set ${secretEnvName(name)} to supply it`;
    if (source.problem !== undefined || source.store === 'none') return `\${secret:${name}} has no value: ${variable} (${source.problem ?? 'there is no system keychain or vault here'})${nearHint}`;
    return `\${secret:${name}} names no secret in ${STORE_WORDS[source.store]}: ${variable}${nearHint}`;
  }
  if (source.store === 'none') return `\${secret:${name}} has no value: there is no secure storage on this system to hold it`;
  return `\${secret:${name}} names no secret in ${STORE_WORDS[source.store]}${near ? nearHint : ' (store one with Add secret… under Environments)'}`;
}

function resolveBody(request: Request, headers: Header[], x: (s: string) => string, root: string): OutgoingBody {
  const body = request.body;
  const hasContentType = headers.some(([name]) => name.toLowerCase() === 'content-type');
  const setType = (type: string) => {
    if (!hasContentType) headers.push(['Content-Type', type]);
  };
  switch (body.kind) {
    case 'none':
      return { type: 'none' };
    case 'raw':
      setType(RAW_CONTENT_TYPES[body.raw.language] ?? 'text/plain');
      return { type: 'bytes', data: new TextEncoder().encode(x(body.raw.text)) };
    case 'form': {
      setType(FORM_CONTENT_TYPE);
      const params = new URLSearchParams();
      for (const row of body.form) if (row.enabled && row.name) params.append(x(row.name), x(row.value));
      return { type: 'bytes', data: new TextEncoder().encode(params.toString()) };
    }
    case 'multipart':
      // The sender writes the boundary into Content-Type; a hand-set one would not match it.
      return {
        type: 'multipart',
        root,
        parts: body.multipart
          .filter((p) => p.enabled && p.name)
          .map((p) =>
            p.kind === 'text'
              ? { kind: 'text' as const, name: x(p.name), value: x(p.value) }
              : { kind: 'file' as const, name: x(p.name), path: bodyFilePath(root, x(p.file), `file of multipart part "${p.name}"`), contentType: p.contentType || 'application/octet-stream' },
          ),
      };
    case 'binary':
      if (!body.binary.file) throw new ParleyError('bad-input', 'Not sent: the binary body has no file chosen.');
      setType(body.binary.contentType || BINARY_CONTENT_TYPE);
      return { type: 'file', root, path: bodyFilePath(root, x(body.binary.file), "binary body's file") };
    case 'graphql': {
      // GraphQL over HTTP: a POST carries the operation as JSON; a GET carries it in the URL (graphqlQueryParams).
      if (!hasHeader(headers, 'accept')) headers.push(['Accept', GRAPHQL_ACCEPT]);
      if (request.method.toUpperCase() === 'GET') return { type: 'none' };
      setType(GRAPHQL_CONTENT_TYPE);
      return { type: 'bytes', data: new TextEncoder().encode(JSON.stringify(graphqlOperation(body.graphql ?? emptyGraphqlBody(), x))) };
    }
  }
}

/** The operation a GraphQL body sends: its query, its variables parsed (after `${...}` expansion), its operation name. */
export function graphqlOperation(body: GraphqlBody, x: (s: string) => string): { query: string; variables?: Record<string, unknown>; operationName?: string } {
  const text = x(body.variables).trim();
  let variables: unknown;
  if (text !== '') {
    try {
      variables = JSON.parse(text);
    } catch (err) {
      throw new ParleyError('bad-input', `Not sent: the GraphQL variables are not JSON (${(err as Error).message}).`, { field: 'variables' });
    }
    if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) throw new ParleyError('bad-input', 'Not sent: the GraphQL variables must be a JSON object.', { field: 'variables' });
  }
  return { query: body.query, ...(variables !== undefined ? { variables: variables as Record<string, unknown> } : {}), ...(body.operationName !== '' ? { operationName: body.operationName } : {}) };
}

/** A GraphQL GET: `query`, `variables` (JSON) and `operationName` as URL parameters (GraphQL over HTTP, "GET"). */
function graphqlQueryParams(url: URL, operation: ReturnType<typeof graphqlOperation>): void {
  const params = new URLSearchParams({ query: operation.query });
  if (operation.variables !== undefined) params.append('variables', JSON.stringify(operation.variables));
  if (operation.operationName !== undefined) params.append('operationName', operation.operationName);
  // Appended as text: `searchParams` would re-encode the query as typed.
  url.search = url.search.length > 1 ? `${url.search.slice(1)}&${params.toString()}` : params.toString();
}

function hasHeader(headers: Header[], name: string): boolean {
  return headers.some(([n]) => n.toLowerCase() === name);
}

/**
 * A body file, which lives in the project folder (docs/project-files.md): a path relative to it,
 * whose real path stays inside. An absolute path, `../`, or a link out is refused, so a project
 * from elsewhere cannot make Send upload any other file on the machine. Checked here to name the
 * field before anything starts; the sender checks again as it opens the file, which is what
 * holds when the path is swapped for a link in between (sender/engine/body-file.ts).
 */
function bodyFilePath(root: string, file: string, field: string): string {
  if (file === '') throw new ParleyError('bad-input', `Not sent: the ${field} is not chosen.`);
  try {
    return relative(root, resolveInside(root, file, field)).split(sep).join('/');
  } catch (err) {
    if (!hasCode(err, 'path-escape')) throw err;
    throw new ParleyError('path-escape', `Not sent: ${(err as Error).message} Body files live in the project folder: choose the file again in the Body tab to copy it in.`, { field, file });
  }
}

/** Puts the auth on the request's headers or query; a refusal (values missing, a token not obtained) is returned to be thrown after the unresolved names. */
export async function applyAuth(
  auth: Auth,
  headers: Header[],
  query: [string, string][],
  x: (s: string) => string,
  ctx: ResolveContext,
  cacheKey: string,
  from?: SettingSource,
): Promise<ParleyError | null> {
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name.toLowerCase());
  // An auth without its values is not sent as if it had them ("Basic Og==", "Bearer ").
  const empty = emptyAuthFields(auth, x);
  if (empty.length > 0) {
    const where = !from ? 'on the Auth tab' : from.kind === 'api' ? "on the API's tab" : `in the Folder settings of ${from.name}`;
    return new ParleyError('auth-incomplete', `Not sent: ${emptyAuthMessage(auth, empty, from && sourceLabel(from))}. Fill it in ${where}, or choose No auth.`);
  }
  switch (auth.type) {
    case 'inherit':
    case 'none':
    case 'kerberos': // the token is made by the sender, per hop, when the server asks (negotiateFor)
      return null;
    case 'basic':
      if (!has('authorization')) headers.push(['Authorization', `Basic ${Buffer.from(`${x(auth.username)}:${x(auth.password)}`).toString('base64')}`]);
      return null;
    case 'bearer':
      if (!has('authorization')) headers.push(['Authorization', `Bearer ${x(auth.token)}`]);
      return null;
    case 'apikey':
      if (auth.in === 'header') {
        if (!has(auth.name)) headers.push([x(auth.name), x(auth.value)]);
      } else query.push([x(auth.name), x(auth.value)]);
      return null;
    case 'oauth2': {
      const resolved = {
        ...auth,
        tokenUrl: x(auth.tokenUrl),
        authorizationUrl: x(auth.authorizationUrl),
        clientId: x(auth.clientId),
        clientSecret: x(auth.clientSecret),
        scope: x(auth.scope),
      };
      if (ctx.expander.unresolved.size > 0) return null; // refused above with the names
      try {
        const token = await ctx.oauthToken(resolved, cacheKey);
        if (!has('authorization')) headers.push(['Authorization', `Bearer ${token}`]);
        return null;
      } catch (err) {
        return err instanceof ParleyError ? err : new ParleyError('oauth-failed', `Not sent: the OAuth 2 token could not be obtained (${(err as Error).message}).`);
      }
    }
  }
}
