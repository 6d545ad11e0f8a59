/**
 * An API or a folder as a Postman collection v2.1 (docs/export.md, "Postman"): folders and
 * requests in Parley's order; every body kind; auth on the collection, folders and requests as
 * Parley has it (Postman inherits the same way); folder headers, which Postman does not have,
 * on each request under them, as a send puts them; project properties and the inherited folder
 * variables as collection variables; assertions and captures as the request's test script
 * (postman-tests.ts). Credentials only as references (common.ts).
 */
import { Url } from 'postman-collection';
import type { ExportFolder, ExportResult, ExportScope } from '../../../../protocol/export/scope.js';
import { inheritedHeadersFor, inheritedSettings, type FolderScope } from '../../../../protocol/inheritance.js';
import type { Auth } from '../../../../protocol/model/auth.js';
import type { Row } from '../../../../protocol/model/common.js';
import { GRAPHQL_ACCEPT } from '../../../../protocol/model/graphql.js';
import type { InheritedSettings } from '../../../../protocol/model/project.js';
import { isHttp } from '../../../../protocol/kinds/index.js';
import type { Request } from '../../../../protocol/model/request.js';
import { formatPair, splitUrlText } from '../../../../protocol/request-url.js';
import { doubleBraces, ExportNotes, folderScope, joinedUrl, rootFolderChain } from './common.js';
import { testScript } from './postman-tests.js';

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

type Json = Record<string, unknown>;

export function exportPostman(scope: ExportScope): ExportResult {
  const notes = new ExportNotes();
  const rootChain = rootFolderChain(scope);
  const atRoot = inheritedSettings(scope.api, rootChain);
  let requests = 0;

  const walk = (folder: ExportFolder, chain: FolderScope[], path: string[]): Json[] =>
    folder.items.map((item): Json | null => {
      if (item.kind === 'folder') {
        const sub = [...path, item.name];
        const settings = item.settings;
        const variables = settings.variables.map((v) => variable(v, notes, `the folder ${sub.join('/')}`));
        if (variables.length > 0) notes.add(`The variables of the folder ${sub.join('/')} are the folder's in Postman, which newman does not read.`);
        return {
          name: item.name,
          item: walk(item, [...chain, folderScope(item, sub)], sub),
          ...(settings.auth.type !== 'inherit' ? { auth: postmanAuth(settings.auth, notes, `the folder ${sub.join('/')}`) } : {}),
          ...(variables.length > 0 ? { variable: variables } : {}),
        };
      }
      if (!isHttp(item.request)) {
        notes.add(`${item.request.name} is a ${item.request.kind} request, which a Postman collection does not hold: left out.`);
        return null;
      }
      requests++;
      return postmanItem(scope, item.request, inheritedSettings(scope.api, chain), notes);
    }).filter((i): i is Json => i !== null);

  const rootAuth = atRoot.auth.auth;
  // The collection's variables: the project's properties, under the variables of the folders the export inherits (as a send lays them).
  const variables = new Map<string, Row>();
  for (const p of scope.properties) if (p.name !== '') variables.set(p.name, p);
  for (const v of atRoot.variables) variables.set(v.name, { name: v.name, value: v.value, enabled: true });
  const collection: Json = {
    info: { name: scope.root.name, schema: POSTMAN_SCHEMA },
    item: walk(scope.root, rootChain, []),
    ...(rootAuth.type !== 'none' && rootAuth.type !== 'inherit' ? { auth: postmanAuth(rootAuth, notes, scope.of === 'api' ? `the API ${scope.api.name}` : 'the folders above') } : {}),
    ...(variables.size > 0 ? { variable: [...variables.values()].map((v) => variable(v, notes, 'the project')) } : {}),
  };
  return { text: `${JSON.stringify(collection, null, 2)}\n`, requests, notes: notes.lines };
}

function postmanItem(scope: ExportScope, request: Request, inherited: InheritedSettings, notes: ExportNotes): Json {
  const where = request.name;
  // Postman has no folder headers: the folders' headers go on the request, before its own, as a send puts them.
  const folderHeaders: Row[] = inheritedHeadersFor(request.headers, inherited.headers).map((h) => ({ name: h.name, value: h.value, enabled: true }));
  const headers = [...folderHeaders, ...request.headers];
  const has = (name: string) => headers.some((h) => h.enabled && h.name.trim().toLowerCase() === name);
  const body = postmanBody(request, notes);
  // What Parley adds itself where Postman adds something else: written out, so newman sends what Parley does.
  if (request.body.kind === 'binary' && !has('content-type') && request.body.binary.contentType) headers.push({ name: 'Content-Type', value: request.body.binary.contentType, enabled: true });
  if (request.body.kind === 'graphql' && !has('accept')) headers.push({ name: 'Accept', value: GRAPHQL_ACCEPT, enabled: true });
  const script = testScript(request.assertions ?? [], request.captures ?? []);
  return {
    name: request.name,
    ...(script.length > 0 ? { event: [{ listen: 'test', script: { type: 'text/javascript', exec: script } }] } : {}),
    ...(request.settings.sendCookies ? {} : { protocolProfileBehavior: { disableCookies: true } }),
    request: {
      method: request.method,
      header: headers.map((h) => ({ key: h.name, value: doubleBraces(notes.rowValue(h, 'header', where)), ...(h.enabled ? {} : { disabled: true }) })),
      url: postmanUrl(scope, request, notes),
      ...(body ? { body } : {}),
      ...(request.auth.type !== 'inherit' ? { auth: postmanAuth(request.auth, notes, where) } : {}),
      ...(request.description ? { description: request.description } : {}),
    },
  };
}

/** The URL as Postman's parts: `{name}` path parameters as `:name` with their values, the query as typed plus the rows switched off. */
function postmanUrl(scope: ExportScope, request: Request, notes: ExportNotes): Json {
  const typed = joinedUrl(scope.api.baseUrl, request.url);
  const parts = splitUrlText(typed);
  const base = doubleBraces(parts.base.replace(/(?<!\$)\{([^{}/?#]+)\}/g, ':$1'));
  const enabledRows = request.query.filter((q) => q.enabled && (q.name !== '' || q.value !== ''));
  const pairs = [...(parts.query === null ? [] : parts.query.split('&')).map((pair) => doubleBraces(pair)), ...enabledRows.map((q) => doubleBraces(formatPair({ name: q.name, value: notes.rowValue(q, 'query', request.name) })))];
  const raw = `${base}${pairs.length > 0 || parts.query !== null ? `?${pairs.join('&')}` : ''}`;
  const parsed = Url.parse(raw) as Json & { query?: Json[] };
  const query = [
    ...pairs.map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? { key: pair, value: null } : { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
    }),
    ...request.query.filter((q) => !q.enabled).map((q) => ({ key: q.name, value: doubleBraces(notes.rowValue(q, 'query', request.name)), disabled: true })),
  ];
  const variable = request.pathParams.map((p) => ({ key: p.name, value: doubleBraces(p.value) }));
  const { raw: _raw, query: _query, variable: _variable, ...rest } = parsed;
  return { raw, ...rest, ...(query.length > 0 ? { query } : {}), ...(variable.length > 0 ? { variable } : {}) };
}

function postmanBody(request: Request, notes: ExportNotes): Json | null {
  const body = request.body;
  switch (body.kind) {
    case 'none':
      return null;
    case 'raw':
      return { mode: 'raw', raw: doubleBraces(body.raw.text), options: { raw: { language: body.raw.language } } };
    case 'form':
      return { mode: 'urlencoded', urlencoded: body.form.map((r) => ({ key: r.name, value: doubleBraces(notes.rowValue(r, 'form', request.name)), ...(r.enabled ? {} : { disabled: true }) })) };
    case 'multipart':
      return {
        mode: 'formdata',
        formdata: body.multipart.map((p) =>
          p.kind === 'file'
            ? { key: p.name, type: 'file', src: p.file, ...(p.contentType && p.contentType !== 'application/octet-stream' ? { contentType: p.contentType } : {}), ...(p.enabled ? {} : { disabled: true }) }
            : { key: p.name, type: 'text', value: doubleBraces(notes.rowValue({ name: p.name, value: p.value, enabled: p.enabled }, 'form', request.name)), ...(p.enabled ? {} : { disabled: true }) },
        ),
      };
    case 'binary':
      return { mode: 'file', file: { src: body.binary.file } };
    case 'graphql': {
      const graphql = body.graphql ?? { query: '', variables: '', operationName: '', schemaFile: '' };
      if (graphql.schemaFile) notes.add(`The GraphQL schema file of ${request.name} (${graphql.schemaFile}) is Parley's: not exported.`);
      return { mode: 'graphql', graphql: { query: doubleBraces(graphql.query), variables: doubleBraces(graphql.variables), ...(graphql.operationName ? { operationName: graphql.operationName } : {}) } };
    }
  }
}

/** Parley's auth as Postman's; a secret's reference as `{{secret:name}}` (never its value: a saved auth holds none). */
export function postmanAuth(auth: Auth, notes: ExportNotes, where: string): Json {
  const param = (key: string, value: string, type = 'string') => ({ key, value: doubleBraces(value), type });
  switch (auth.type) {
    case 'inherit':
    case 'none':
      return { type: 'noauth' };
    case 'basic':
      return { type: 'basic', basic: [param('username', auth.username), param('password', secretRef(auth.password, notes, where))] };
    case 'bearer':
      return { type: 'bearer', bearer: [param('token', secretRef(auth.token, notes, where))] };
    case 'apikey':
      return { type: 'apikey', apikey: [param('key', auth.name), param('value', secretRef(auth.value, notes, where)), param('in', auth.in)] };
    case 'oauth2':
      notes.add(`The OAuth 2 settings of ${where} are exported; Postman gets its token when you ask it to, newman never does.`);
      return {
        type: 'oauth2',
        oauth2: [
          param('grant_type', auth.grant === 'authorization_code' && auth.usePkce ? 'authorization_code_with_pkce' : auth.grant),
          param('accessTokenUrl', auth.tokenUrl),
          param('authUrl', auth.authorizationUrl),
          param('clientId', auth.clientId),
          param('clientSecret', secretRef(auth.clientSecret, notes, where)),
          param('scope', auth.scope),
        ],
      };
    case 'kerberos':
      notes.add(`The Kerberos auth of ${where} has no Postman equivalent: exported as no auth.`);
      return { type: 'noauth' };
  }
}

/** A saved auth's secret field holds a reference or nothing; anything else (a hand-edited file) is not written. */
function secretRef(value: string, notes: ExportNotes, where: string): string {
  if (value === '' || /^(\$\{[^{}]+\})+$/.test(value.trim())) return value;
  notes.add(`A secret typed into the auth of ${where} is not exported: set {{secret}} in Postman.`);
  return '${secret}';
}

function variable(row: Row, notes: ExportNotes, where: string): Json {
  return { key: row.name, value: doubleBraces(notes.rowValue(row, 'variable', where)), ...(row.enabled ? {} : { disabled: true }) };
}
