/**
 * A Postman collection (v2.0 or v2.1) into one API of requests in folders (SPEC "Import
 * operations", collection format). The format's own library, postman-collection, reads the
 * export and normalises v2.0 into v2.1 (auth objects into parameter lists, URL strings into
 * parts); this module maps the normalised JSON onto Parley's model. What is carried how is in
 * docs/importers.md, "Postman collections".
 */
import postmanCollection from 'postman-collection';
import { ParleyError } from '../../../../protocol/errors.js';
import type { Auth } from '../../../../protocol/model/auth.js';
import type { Row } from '../../../../protocol/model/common.js';
import type { ImportResult, ImportedFolder, PlacedRequest, ReportItem, UnimportedItem } from '../../../../protocol/model/import.js';
import { emptyBody, defaultSettings, requestVersionOf, type Body, type MultipartPart, type RawLanguage, type Request } from '../../../../protocol/model/request.js';
import { isCredentialName, isReferenceOnly } from '../../../../protocol/credentials/names.js';
import { ownValue } from '../../../../protocol/own.js';
import { syncPathParams } from '../../../../protocol/request-url.js';
import { SourceOrder } from '../../../../protocol/project/order-keys.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { schemaVersion } from './detect.js';
import { isObject, readPostmanJson, scalarText } from './read-json.js';
import { PlaceholderConverter } from './variables.js';
import { Type as T } from '@sinclair/typebox';
import { Assertion } from '../../../../protocol/model/assertion.js';
import { Capture } from '../../../../protocol/model/capture.js';
import { checkAll } from '../../../../protocol/validate-node.js';
import { PARLEY_SCRIPT_MARK } from '../export/postman-tests.js';

const { Collection, Url } = postmanCollection;

type Json = Record<string, unknown>;

const SUPPORTED_AUTH = new Set(['noauth', 'basic', 'bearer', 'apikey', 'oauth2']);

interface Walk {
  ctx: ImportContext;
  vars: PlaceholderConverter;
  /** Every auth object as written, by the number its stand-in carries (setAsideRaw). */
  auths: Json[];
  /** Every folder's variables as written, by the number its id carries (setAsideRaw). */
  rawFolderVariables: unknown[];
  requests: PlacedRequest[];
  /** Folders and requests keep the collection's order, interleaved (order-keys.ts). */
  order: SourceOrder;
  properties: Row[];
  propertyNames: Set<string>;
  /** A folder's own auth and variables, by its path: its requests inherit them (docs/project-files.md "Folder settings"). */
  folderSettings: Map<string, Pick<ImportedFolder, 'auth' | 'variables'>>;
  /** How many folder variables were put on their folders. */
  folderVariables: number;
  warnings: ReportItem[];
  unimported: UnimportedItem[];
  notes: ReportItem[];
  /** Credential values not carried across, by where they were. */
  credentials: string[];
}

export async function convertPostmanCollection(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const file = input.name ?? 'The pasted text';
  const value = readPostmanJson(input.text, file);
  const raw = isObject(value) && isObject(value.collection) && !isObject(value.info) ? value.collection : value;
  if (!isObject(raw) || !isObject(raw.info)) {
    if (isObject(raw) && Array.isArray(raw.requests)) throw new ParleyError('import-malformed', `${file} is a Postman collection v1, which Parley does not read: export it again from Postman as Collection v2.1.`, { file });
    throw new ParleyError('import-malformed', `${file} is not a Postman collection: it has no info object.`, { file, path: '/info' });
  }
  const version = schemaVersion(raw.info.schema) ?? (typeof raw.info.schema === 'string' ? null : '2.1');
  if (version === null) throw new ParleyError('import-malformed', `${file} declares the schema ${quoteShort(String(raw.info.schema))}, not Postman collection v2.0 or v2.1.`, { file, path: '/info/schema' });
  if (raw.item !== undefined && !Array.isArray(raw.item)) throw new ParleyError('import-malformed', `${file} is not a valid Postman collection: item must be a list.`, { file, path: '/item' });

  let collection: Json;
  const { auths, folderVariables: rawFolderVariables } = setAsideRaw(raw);
  try {
    collection = new Collection(raw as never).toJSON() as Json;
  } catch (err) {
    throw new ParleyError('import-malformed', `${file} could not be read as a Postman collection: ${(err as Error).message.split('\n')[0]}`, { file });
  }
  const info = raw.info;
  const name = typeof info.name === 'string' && info.name.trim() !== '' ? info.name.trim() : 'Postman collection';
  const walk: Walk = { ctx, vars: new PlaceholderConverter(), auths, rawFolderVariables, requests: [], order: new SourceOrder(), properties: [], propertyNames: new Set(), folderSettings: new Map(), folderVariables: 0, warnings: [], unimported: [], notes: [], credentials: [] };

  addVariables(walk, collection.variable, '/variable');
  scripts(walk, collection.event, 'The collection', '/event');
  const collectionAuth = isObject(collection.auth) ? mapAuth(walk, collection.auth, 'the collection', '/auth') : null;
  const apiAuth: Auth = collectionAuth ?? { type: 'none' };
  walkItems(walk, asArray(collection.item), '', '/item');

  const apiId = ctx.newId('a');
  const dynamic = walk.vars.warning();
  if (dynamic) walk.warnings.push({ message: dynamic });
  if (walk.credentials.length > 0) {
    walk.warnings.push({ message: `Credentials are not carried across: ${list(walk.credentials)} arrived empty. Set them on the request or API, or use \${variables}.` });
  }
  if (walk.properties.length > 0) walk.notes.push({ message: `${walk.properties.length} collection variable${walk.properties.length === 1 ? '' : 's'} became project properties; a name the project already has keeps its value.` });
  if (walk.folderVariables > 0) walk.notes.push({ message: `${walk.folderVariables} folder variable${walk.folderVariables === 1 ? ' is' : 's are'} kept on ${walk.folderVariables === 1 ? 'its folder' : 'their folders'}, for the requests in them (newman ignores folder variables; Parley uses them).` });
  const description = descriptionText(info.description);
  if (description) walk.notes.push({ message: `Collection description: ${description.length > 300 ? `${description.slice(0, 300)}…` : description}` });

  const folders = walk.order.folders().map((folder) => ({ ...folder, ...walk.folderSettings.get(folder.path) }));
  return {
    apis: [
      {
        api: { version: 1, id: apiId, name, baseUrl: '', auth: apiAuth },
        folders,
        requests: walk.requests,
        documents: [],
      },
    ],
    properties: walk.properties,
    report: {
      format: 'postman-collection',
      declaredVersion: `postman-collection-${version}`,
      baseUrl: '',
      requestCount: walk.requests.length,
      folderCount: folders.length,
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

function walkItems(walk: Walk, items: unknown[], folder: string, path: string): void {
  items.forEach((item, index) => {
    const at = `${path}/${index}`;
    if (!isObject(item)) {
      walk.warnings.push({ message: 'An item that is not an object was skipped.', path: at });
      return;
    }
    const itemName = cleanName(item.name, Array.isArray(item.item) ? 'Folder' : 'Request');
    if (Array.isArray(item.item)) {
      const sub = folder ? `${folder}/${safeSegment(itemName)}` : safeSegment(itemName);
      walk.order.folder(sub);
      scripts(walk, item.event, `Folder ${sub}`, `${at}/event`);
      // The folder keeps its auth and variables, and its requests inherit them as in Postman. An
      // auth Parley does not have (reported) sends none rather than the auth of the folder above.
      const settings: Pick<ImportedFolder, 'auth' | 'variables'> = {};
      if (isObject(item.auth)) settings.auth = mapAuth(walk, item.auth, `folder ${sub}`, `${at}/auth`) ?? { type: 'none' };
      const variables = folderVariables(walk, rawFolderVariables(walk, item));
      if (variables.length > 0) settings.variables = variables;
      if (settings.auth || settings.variables) walk.folderSettings.set(sub, settings);
      walkItems(walk, item.item, sub, `${at}/item`);
      return;
    }
    if (!isObject(item.request)) {
      walk.warnings.push({ message: `${itemName} has no request and was skipped.`, path: at });
      return;
    }
    const checks = parleyChecks(item.event);
    const request = { ...convertRequest(walk, item, item.request, itemName, at), ...checks };
    request.version = requestVersionOf(request);
    if (Array.isArray(item.variable) && item.variable.length > 0) addVariables(walk, item.variable, `${at}/variable`);
    scripts(walk, item.event, `Request ${folder ? `${folder}/` : ''}${itemName}`, `${at}/event`);
    const responses = asArray(item.response).length;
    if (responses > 0) walk.unimported.push({ item: `${itemName}: ${responses} saved response${responses === 1 ? '' : 's'}`, reason: 'Saved responses of a collection are not imported as examples; send the request and save its response.', path: `${at}/response` });
    walk.requests.push({ folder, request: walk.order.request(folder, request) });
    if (walk.requests.length % 500 === 0) walk.ctx.onProgress?.({ phase: 'convert', message: `Converted ${walk.requests.length} requests`, items: walk.requests.length });
  });
}

function convertRequest(walk: Walk, item: Json, req: Json, name: string, at: string): Request {
  const where = `${name}`;
  const { url, query } = convertUrl(walk, req.url, where);
  const pathVariables = new Map<string, string>();
  if (isObject(req.url)) {
    for (const v of asArray(req.url.variable)) if (isObject(v) && typeof v.key === 'string') pathVariables.set(v.key, walk.vars.convert(scalarText(v.value)));
  }
  const pathParams = syncPathParams(url, []).map((p) => ({ name: p.name, value: pathVariables.get(p.name) ?? '' }));
  const headers: Row[] = [];
  for (const h of asArray(req.header)) {
    if (!isObject(h) || typeof h.key !== 'string') continue;
    headers.push({ name: h.key, value: credentialValue(walk, h.key, walk.vars.convert(scalarText(h.value)), `header ${h.key} of ${where}`), enabled: h.disabled !== true });
  }
  const body = convertBody(walk, req.body, where, headers);
  let auth: Auth;
  if (isObject(req.auth)) auth = mapAuth(walk, req.auth, where, `${at}/request/auth`) ?? { type: 'none' };
  else auth = { type: 'inherit' };
  const description = descriptionText(req.description) || descriptionText(item.description);
  const method = typeof req.method === 'string' && /^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(req.method) ? req.method.toUpperCase() : 'GET';
  return {
    version: requestVersionOf({ body }),
    id: walk.ctx.newId('r'),
    name,
    method,
    url,
    pathParams,
    query,
    headers,
    body,
    auth,
    settings: defaultSettings(),
    ...(description ? { description } : {}),
  };
}

/** `%xx` escapes decoded (not `+`, which Postman sends as it is); text with a broken escape is kept as written. */
function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The URL without its query (rows carry it), `{{x}}` as `${x}`, `:name` segments as `{name}`. */
function convertUrl(walk: Walk, value: unknown, where: string): { url: string; query: Row[] } {
  if (value === undefined || value === null) return { url: '', query: [] };
  let text: string;
  let queryRows: Row[] = [];
  try {
    // Path variables are read by name into a Map (convertRequest): the library's own list finds a
    // variable named `__proto__` even after clear() and would put its value into the path.
    const url = new Url((isObject(value) ? { ...value, variable: [] } : value) as never);
    queryRows = (url.query.all() as { key: string | null; value: string | null; disabled?: boolean }[]).map((q) => {
      // Postman keeps a query row as written in the URL (`a%20b`); Parley's rows hold the value itself and encode it when sending.
      const key = percentDecoded(q.key ?? '');
      return { name: key, value: credentialValue(walk, key, percentDecoded(walk.vars.convert(q.value ?? '')), `query parameter ${key} of ${where}`), enabled: q.disabled !== true };
    });
    // The query travels as rows; the URL keeps everything before it. Path variables stay
    // `:name` segments (toString would put their values in), to become `{name}` rows below.
    url.query.clear();
    url.variables.clear();
    text = url.toString();
  } catch {
    text = typeof value === 'string' ? value.split('?')[0]! : '';
  }
  const converted = walk.vars.convert(text).replace(/(^|\/):([A-Za-z_][\w.-]*)(?=\/|$|#)/g, '$1{$2}');
  return { url: converted.replace(/\?$/, ''), query: queryRows };
}

function convertBody(walk: Walk, value: unknown, where: string, headers: Row[]): Body {
  const body = emptyBody();
  if (!isObject(value) || typeof value.mode !== 'string' || value.disabled === true) return body;
  switch (value.mode) {
    case 'raw': {
      body.kind = 'raw';
      const options = isObject(value.options) && isObject(value.options.raw) ? value.options.raw : {};
      body.raw = { language: rawLanguage(scalarText(options.language), headers), text: walk.vars.convert(scalarText(value.raw)) };
      break;
    }
    case 'urlencoded':
      body.kind = 'form';
      body.form = asArray(value.urlencoded).filter(isObject).map((p) => {
        const key = scalarText(p.key);
        return { name: key, value: credentialValue(walk, key, walk.vars.convert(scalarText(p.value)), `form field ${key} of ${where}`), enabled: p.disabled !== true };
      });
      break;
    case 'formdata':
      body.kind = 'multipart';
      body.multipart = asArray(value.formdata).filter(isObject).map((p): MultipartPart => {
        const key = scalarText(p.key);
        const enabled = p.disabled !== true;
        if (p.type === 'file') {
          const src = Array.isArray(p.src) ? scalarText(p.src[0]) : scalarText(p.src);
          if (src) walk.warnings.push({ message: `The file part ${key} of ${where} named ${src} on the machine it was exported from: pick the file again.` });
          return { kind: 'file', name: key, file: src, contentType: scalarText(p.contentType) || 'application/octet-stream', enabled };
        }
        return { kind: 'text', name: key, value: credentialValue(walk, key, walk.vars.convert(scalarText(p.value)), `form field ${key} of ${where}`), enabled };
      });
      break;
    case 'file': {
      body.kind = 'binary';
      const src = isObject(value.file) ? scalarText(value.file.src) : '';
      if (src) walk.warnings.push({ message: `The body file of ${where} named ${src} on the machine it was exported from: pick the file again.` });
      body.binary = { file: src, contentType: headerValue(headers, 'content-type') || 'application/octet-stream' };
      break;
    }
    case 'graphql': {
      // Postman's graphql mode is Parley's GraphQL body: the query, its variables (kept as text,
      // pretty when they are JSON, `{{name}}` as `${name}`) and the operation name.
      const graphql = isObject(value.graphql) ? value.graphql : {};
      const variables = walk.vars.convert(scalarText(graphql.variables));
      let pretty = variables;
      if (variables.trim() !== '') {
        try {
          pretty = JSON.stringify(JSON.parse(variables), null, 2);
        } catch {
          walk.warnings.push({ message: `The GraphQL variables of ${where} are not valid JSON; they are kept as written.` });
        }
      }
      // Postman and newman send their default `Accept: */*` with a GraphQL body too; Parley's own
      // GraphQL requests ask for the GraphQL over HTTP media types. An imported request keeps
      // Postman's header, so the same request goes on the wire.
      if (!headerValue(headers, 'accept')) headers.push({ name: 'Accept', value: '*/*', enabled: true });
      body.kind = 'graphql';
      body.graphql = { query: walk.vars.convert(scalarText(graphql.query)), variables: pretty, operationName: scalarText(graphql.operationName), schemaFile: '' };
      break;
    }
    default:
      walk.unimported.push({ item: `${where}: body`, reason: `The body mode ${quoteShort(value.mode)} is not one Parley knows; the request has no body.` });
  }
  return body;
}

function rawLanguage(language: string, headers: Row[]): RawLanguage {
  const known: Record<string, RawLanguage> = { json: 'json', xml: 'xml', text: 'text', html: 'html', javascript: 'javascript' };
  if (Object.hasOwn(known, language)) return known[language]!;
  const type = headerValue(headers, 'content-type').toLowerCase();
  if (type.includes('json')) return 'json';
  if (type.includes('xml')) return 'xml';
  if (type.includes('html')) return 'html';
  if (type.includes('javascript')) return 'javascript';
  return 'text';
}

/**
 * postman-collection keeps an auth's parameters as properties named by its type, and indexes its
 * lists by parameter name in plain objects: an auth of type `__proto__` (or `update`, one of its
 * own methods) or a parameter named `constructor` fails the whole collection. So auth objects
 * never reach it: each one anywhere in the export (the collection's, a folder's, a request's, a
 * saved response's original request's) is replaced by a stand-in carrying its number, which the
 * library keeps where the auth was, and read here (mapAuth).
 */
const AUTH_STAND_IN = 'parley-auth';

function setAsideRaw(raw: Json): { auths: Json[]; folderVariables: unknown[] } {
  const auths: Json[] = [];
  const folderVariables: unknown[] = [];
  // The export is nested at most MAX_DEPTH levels (read-json.ts); walked without recursion all the same.
  const stack: unknown[] = [raw];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node.filter((child) => child !== null && typeof child === 'object'));
      continue;
    }
    if (!isObject(node)) continue;
    if (isObject(node.auth)) {
      auths.push(node.auth);
      node.auth = { type: AUTH_STAND_IN, [AUTH_STAND_IN]: [{ key: 'n', value: String(auths.length - 1) }] };
    }
    // A folder's variables: postman-collection drops them (its ItemGroup keeps no `variable`), but
    // keeps a folder's id, which carries their number here (its own id is not used).
    if (node !== raw && Array.isArray(node.item) && Array.isArray(node.variable)) {
      folderVariables.push(node.variable);
      node.id = `${FOLDER_STAND_IN}${folderVariables.length - 1}`;
    }
    for (const [key, child] of Object.entries(node)) if (key !== 'auth' && key !== 'variable' && child !== null && typeof child === 'object') stack.push(child);
  }
  return { auths, folderVariables };
}

const FOLDER_STAND_IN = 'parley-folder-';

/** The variables a folder had in the export, set aside by its id (setAsideRaw). */
function rawFolderVariables(walk: Walk, folder: Json): unknown {
  const id = typeof folder.id === 'string' && folder.id.startsWith(FOLDER_STAND_IN) ? Number(folder.id.slice(FOLDER_STAND_IN.length)) : NaN;
  return Number.isInteger(id) ? walk.rawFolderVariables[id] : undefined;
}

/** The auth a stand-in stands for, with its parameters by name: a v2.1 list of `{ key, value }`, or a v2.0 object. */
function authOf(walk: Walk, standIn: Json): { type: string; params: Map<string, string> } {
  const entry = asArray(standIn[AUTH_STAND_IN]).find((p) => isObject(p) && p.key === 'n');
  const auth = (isObject(entry) ? walk.auths[Number(entry.value)] : undefined) ?? {};
  const type = scalarText(auth.type);
  const params = new Map<string, string>();
  const given = ownValue(auth, type);
  if (Array.isArray(given)) {
    for (const p of given) if (isObject(p) && typeof p.key === 'string') params.set(p.key, scalarText(p.value));
  } else if (isObject(given)) {
    for (const [key, value] of Object.entries(given)) params.set(key, scalarText(value));
  }
  return { type, params };
}

/** Postman's auth as Parley's; null when it cannot be carried (reported). */
function mapAuth(walk: Walk, standIn: Json, where: string, path: string): Auth | null {
  const { type, params } = authOf(walk, standIn);
  if (!SUPPORTED_AUTH.has(type)) {
    walk.unimported.push({ item: `Auth of ${where}`, reason: `${type || 'This'} authentication is not one Parley has (Basic, Bearer, API key, OAuth 2); set it up by hand.`, path });
    return null;
  }
  if (type === 'noauth') return { type: 'none' };
  const get = (key: string) => walk.vars.convert(params.get(key) ?? '');
  const secret = (key: string, label: string) => credentialValue(walk, 'password', get(key), `${label} of ${where}`);
  if (type === 'basic') return { type: 'basic', username: get('username'), password: secret('password', 'the Basic password') };
  if (type === 'bearer') return { type: 'bearer', token: secret('token', 'the Bearer token') };
  if (type === 'apikey') return { type: 'apikey', name: get('key') || 'X-API-Key', value: secret('value', 'the API key'), in: get('in') === 'query' ? 'query' : 'header' };
  const grant = params.get('grant_type') ?? 'authorization_code';
  if (grant !== 'client_credentials' && grant !== 'authorization_code' && grant !== 'authorization_code_with_pkce') {
    walk.unimported.push({ item: `Auth of ${where}`, reason: `OAuth 2 with the ${grant} grant is not one Parley has (client credentials, authorization code); set it up by hand.`, path });
    return null;
  }
  return {
    type: 'oauth2',
    grant: grant === 'client_credentials' ? 'client_credentials' : 'authorization_code',
    tokenUrl: get('accessTokenUrl'),
    authorizationUrl: get('authUrl'),
    clientId: get('clientId'),
    clientSecret: secret('clientSecret', 'the OAuth 2 client secret'),
    scope: get('scope'),
    usePkce: grant === 'authorization_code_with_pkce',
  };
}

/**
 * SPEC: credentials are not carried across. A value under a credential-looking name arrives
 * empty unless it is made only of variables (optionally after an auth scheme word), which hold no secret.
 */
function credentialValue(walk: Walk, name: string, value: string, where: string): string {
  if (value === '' || !isCredentialName(name)) return value;
  const withoutScheme = value.replace(/^(Bearer|Basic|Token|Digest)\s+/i, '');
  if (isReferenceOnly(withoutScheme)) return value;
  walk.credentials.push(where);
  return '';
}

function addVariables(walk: Walk, value: unknown, path: string): void {
  asArray(value).forEach((v, index) => {
    if (!isObject(v) || typeof v.key !== 'string' || v.key.trim() === '') return;
    if (walk.propertyNames.has(v.key)) return; // The first definition wins.
    walk.propertyNames.add(v.key);
    walk.properties.push(variableRow(walk, v, v.key));
    void index;
    void path;
  });
}

/** A folder's variables as its rows (the first of a name wins); credentials are not carried across, as for any variable. */
function folderVariables(walk: Walk, value: unknown): Row[] {
  const rows: Row[] = [];
  const names = new Set<string>();
  for (const v of asArray(value)) {
    if (!isObject(v) || typeof v.key !== 'string' || v.key.trim() === '' || names.has(v.key)) continue;
    names.add(v.key);
    rows.push(variableRow(walk, v, v.key));
  }
  walk.folderVariables += rows.length;
  return rows;
}

function variableRow(walk: Walk, v: Json, key: string): Row {
  const text = credentialValue(walk, key, walk.vars.convert(scalarText(v.value)), `variable ${key}`);
  return { name: key, value: v.type === 'secret' ? credentialValue(walk, 'secret', text, `variable ${key}`) : text, enabled: v.disabled !== true };
}

/**
 * The assertions and captures of a test script Parley's export wrote (its first line, the
 * PARLEY_SCRIPT_MARK, carries them as data: docs/export.md): read back as data, never run. A
 * line that does not hold valid ones is an ordinary script.
 */
function parleyChecks(value: unknown): { assertions?: Assertion[]; captures?: Capture[] } {
  for (const e of asArray(value)) {
    const first = parleyLine(e);
    if (first === null) continue;
    try {
      const data = JSON.parse(first.slice(PARLEY_SCRIPT_MARK.length)) as unknown;
      if (!isObject(data)) continue;
      const assertions = data.assertions ?? [];
      const captures = data.captures ?? [];
      if (checkAll(T.Array(Assertion, { maxItems: 200 }), assertions).length > 0 || checkAll(T.Array(Capture, { maxItems: 200 }), captures).length > 0) continue;
      return { ...((assertions as Assertion[]).length > 0 ? { assertions: assertions as Assertion[] } : {}), ...((captures as Capture[]).length > 0 ? { captures: captures as Capture[] } : {}) };
    } catch {
      continue;
    }
  }
  return {};
}

/** The first line of a test script when it is Parley's data line; null otherwise. */
function parleyLine(e: unknown): string | null {
  if (!isObject(e) || e.listen !== 'test' || !isObject(e.script)) return null;
  const exec = e.script.exec;
  const first = Array.isArray(exec) ? scalarText(exec[0]) : typeof exec === 'string' ? exec.split('\n')[0]! : '';
  return first.startsWith(PARLEY_SCRIPT_MARK) ? first : null;
}

/** Scripts are never run: each is listed as not carried across (Parley's own test script is read as data: parleyChecks). */
function scripts(walk: Walk, value: unknown, where: string, path: string): void {
  asArray(value).forEach((e, index) => {
    if (!isObject(e) || !isObject(e.script)) return;
    if (parleyLine(e) !== null && Object.keys(parleyChecks([e])).length > 0) return;
    const exec = e.script.exec;
    const lines = Array.isArray(exec) ? exec.length : typeof exec === 'string' ? exec.split('\n').length : 0;
    if (lines === 0 || (Array.isArray(exec) && exec.every((l) => scalarText(l).trim() === ''))) return;
    const kind = e.listen === 'prerequest' ? 'Pre-request script' : e.listen === 'test' ? 'Test script' : `Script (${scalarText(e.listen) || 'unknown event'})`;
    walk.unimported.push({ item: `${where}: ${kind}`, reason: `Scripts are not carried across (${lines} line${lines === 1 ? '' : 's'}); Parley never runs them.`, path: `${path}/${index}` });
  });
}

function descriptionText(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (isObject(value) && typeof value.content === 'string') return value.content.trim();
  return '';
}

function headerValue(headers: Row[], name: string): string {
  return headers.find((h) => h.enabled && h.name.toLowerCase() === name)?.value ?? '';
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function cleanName(value: unknown, fallback: string): string {
  const text = scalarText(value).replace(/\s+/g, ' ').trim();
  return text || fallback;
}

/** A folder name as one path segment: a `/` in a Postman folder name is not a nesting step. */
function safeSegment(name: string): string {
  return name.replace(/[\\/]+/g, '-');
}

function quoteShort(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function list(items: string[]): string {
  const shown = items.slice(0, 8).join('; ');
  return items.length > 8 ? `${shown}; and ${items.length - 8} more` : shown;
}
