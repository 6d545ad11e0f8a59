/**
 * OpenAPI 3.0, 3.1 and 3.2 into the normalized model: path items (and `$ref`ed ones), the
 * methods each version knows (3.2 adds QUERY and additionalOperations), merged path- and
 * operation-level parameters, the preferred request body, success response media types,
 * callbacks and root webhooks. Links, cookie and querystring parameters are reported, not
 * imported.
 */
import type { DocumentSet, Resolved } from '../../load/document-set.js';
import { joinPointer } from '../../../../../protocol/json-pointer.js';
import type { DeclaredVersion } from '../version.js';
import { Collector, folderFor, readRequirements, serverUrl, tagParents, trimBase, absoluteAgainst } from './common.js';
import type { NApi, NBody, NOperation, NParam, Part } from './model.js';
import { createSetSampler } from './sampler.js';
import { readSchemes3 } from './security-schemes.js';
import { METHODS_3, METHODS_32, arr, asRowText, isObj, obj, oneLine, pathPlaceholders, preferJson, schemaValue, str, type Obj } from './values.js';

const PATH_ITEM_FIELDS = new Set(['$ref', 'summary', 'description', 'servers', 'parameters', 'additionalOperations']);
const IGNORED_HEADERS = /^(accept|content-type|authorization)$/i;
/** An HTTP method is a token (RFC 9110); Request.method holds at most 32 characters. */
const HTTP_TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,32}$/;

interface Ctx {
  set: DocumentSet;
  c: Collector;
  version: DeclaredVersion;
  parents: Map<string, string>;
  baseUrl: string;
  webhooks: NOperation[];
}

export function normalizeOas3(set: DocumentSet, version: DeclaredVersion): NApi {
  const root = set.entry.value as Obj;
  const docUrl = set.entry.url;
  const c = new Collector(set);
  const at = (pointer: string, node: unknown): Part => ({ docUrl, pointer, node });
  if (!version.known) c.warn(`openapi: ${String(root['openapi'])} is newer than this importer knows (3.0 to 3.2); it was read as 3.2.`, at('/openapi', root['openapi']));
  const info = obj(root['info']);
  if (!info) c.warn('The document has no info section; the API is named after the file.', at('', root));
  const servers = arr(root['servers']);
  const baseUrl = (servers.length > 0 ? serverUrl(servers[0], docUrl) : undefined) ?? trimBase(absoluteAgainst('/', docUrl));
  const ctx: Ctx = { set, c, version, parents: tagParents(root), baseUrl, webhooks: [] };
  const operations: NOperation[] = [];

  const paths = obj(root['paths']);
  if (root['paths'] !== undefined && !paths) c.error('paths is not an object; no operations were read from it.', at('/paths', root['paths']));
  for (const [path, item] of Object.entries(paths ?? {})) {
    if (path.startsWith('x-')) continue;
    const resolved = derefOrReport(ctx, { docUrl, pointer: joinPointer('/paths', path), node: item }, `The path item ${path}`);
    if (resolved) operations.push(...operationsOf(ctx, resolved, path, 'path'));
  }

  const webhooks = obj(root['webhooks']);
  if (webhooks && version.generation === '3.0') {
    c.skip('webhooks', 'Root webhooks exist from OpenAPI 3.1 on; this document declares 3.0.', at('/webhooks', webhooks));
  } else {
    for (const [name, item] of Object.entries(webhooks ?? {})) {
      const resolved = derefOrReport(ctx, { docUrl, pointer: joinPointer('/webhooks', name), node: item }, `The webhook ${name}`);
      if (resolved) ctx.webhooks.push(...operationsOf(ctx, resolved, name, 'webhook'));
    }
  }

  for (const [name, link] of Object.entries(obj(obj(root['components'])?.['links']) ?? {})) {
    c.skip(`link ${name} (components)`, 'Links are not imported.', at(joinPointer('/components/links', name), link));
  }

  const components = obj(root['components']);
  const schemesPart = at('/components/securitySchemes', components?.['securitySchemes']);
  return {
    declaredVersion: version.label,
    generation: version.generation,
    ...(info && str(info['title']) ? { title: str(info['title']) } : {}),
    ...(info && info['version'] !== undefined ? { apiVersion: String(info['version']) } : {}),
    baseUrl: ctx.baseUrl,
    security: readRequirements(root['security']) ?? [],
    schemes: readSchemes3(set, schemesPart),
    operations,
    webhooks: ctx.webhooks,
    unimported: c.unimported,
    warnings: c.warnings,
    errors: c.errors,
    apiParts: { servers: [at('/servers', root['servers'])], security: [at('/security', root['security']), schemesPart] },
    sampler: createSetSampler(set, { openapi: String(root['openapi']) }, (schema, reason) => c.warn(`No sample body could be made from this schema: ${reason}`, schema)),
  };
}

function derefOrReport(ctx: Ctx, part: Part, what: string): Resolved | undefined {
  const resolved = ctx.set.deref(part.docUrl, part.pointer, part.node);
  if (!resolved || !isObj(resolved.value)) {
    ctx.c.error(`${what} refers to something that cannot be found; it was skipped.`, part);
    return undefined;
  }
  return resolved;
}

type ItemKind = 'path' | 'webhook' | 'callback';

function operationsOf(ctx: Ctx, item: Resolved, path: string, kind: ItemKind): NOperation[] {
  const node = item.value as Obj;
  const methods = ctx.version.generation === '3.0' || ctx.version.generation === '3.1' ? METHODS_3 : METHODS_32;
  const out: NOperation[] = [];
  const label = kind === 'webhook' ? `webhook ${path}` : path;
  for (const [key, value] of Object.entries(node)) {
    if (methods.includes(key)) {
      if (isObj(value)) out.push(operation(ctx, item, key, path, value, joinPointer(item.pointer, key), kind));
    } else if (!PATH_ITEM_FIELDS.has(key) && !key.startsWith('x-')) {
      ctx.c.skip(`${key.toUpperCase()} ${label}`, `"${key}" is not an operation in OpenAPI ${ctx.version.generation}.`, { docUrl: item.doc.url, pointer: joinPointer(item.pointer, key), node: value });
    }
  }
  const additional = obj(node['additionalOperations']);
  if (additional && methods === METHODS_32) {
    for (const [key, value] of Object.entries(additional)) {
      const at = joinPointer(item.pointer, 'additionalOperations', key);
      if (!HTTP_TOKEN.test(key)) {
        ctx.c.skip(`${key} ${label}`, `"${key}" is not an HTTP method a request can send (a token of at most 32 characters).`, { docUrl: item.doc.url, pointer: at, node: value });
      } else if (isObj(value)) {
        out.push(operation(ctx, item, key, path, value, at, kind));
      }
    }
  } else if (additional) {
    ctx.c.skip(`additionalOperations of ${label}`, `additionalOperations exist from OpenAPI 3.2 on.`, { docUrl: item.doc.url, pointer: joinPointer(item.pointer, 'additionalOperations'), node: additional });
  }
  return out;
}

function operation(ctx: Ctx, item: Resolved, method: string, path: string, op: Obj, pointer: string, kind: ItemKind): NOperation {
  const docUrl = item.doc.url;
  const loc: Part = { docUrl, pointer, node: op };
  const title = `${method.toUpperCase()} ${path}`;
  const itemNode = item.value as Obj;
  const { params, parts: paramParts } = parameters(ctx, item, op, pointer, path, title);
  const requestBodyPart: Part = { docUrl, pointer: joinPointer(pointer, 'requestBody'), node: op['requestBody'] };
  const responsesPart: Part = { docUrl, pointer: joinPointer(pointer, 'responses'), node: op['responses'] };
  const security = readRequirements(op['security']);
  const opServers = arr(op['servers']).length > 0 ? arr(op['servers']) : arr(itemNode['servers']);
  const server = opServers.length > 0 ? serverUrl(opServers[0], docUrl) : undefined;
  const summary = str(op['summary']);
  const operationId = str(op['operationId']);
  const result: NOperation = {
    method,
    path,
    loc,
    ...(summary !== undefined && oneLine(summary) !== '' ? { summary: oneLine(summary) } : {}),
    ...(operationId !== undefined ? { operationId } : {}),
    folder: kind === 'path' ? folderFor(op['tags'], ctx.parents) : '',
    params,
    accept: successMediaTypes(ctx, responsesPart, title),
    ...(security !== undefined ? { security } : {}),
    ...(server !== undefined && server !== ctx.baseUrl ? { serverUrl: server } : {}),
    parts: {
      parameters: paramParts,
      requestBody: [requestBodyPart],
      responses: [responsesPart],
      security: [{ docUrl, pointer: joinPointer(pointer, 'security'), node: op['security'] }],
      servers: [
        { docUrl, pointer: joinPointer(pointer, 'servers'), node: op['servers'] },
        { docUrl, pointer: joinPointer(item.pointer, 'servers'), node: itemNode['servers'] },
      ],
    },
  };
  const body = requestBody(ctx, requestBodyPart);
  if (body) result.body = body;
  if (kind === 'webhook') result.webhook = true;
  if (kind === 'path') callbacks(ctx, op, pointer, docUrl, title);
  return result;
}

function parameters(ctx: Ctx, item: Resolved, op: Obj, pointer: string, path: string, title: string): { params: NParam[]; parts: Part[] } {
  const merged = new Map<string, { node: Obj; part: Part }>();
  const add = (list: unknown, base: string, docUrl: string) => {
    arr(list).forEach((raw, i) => {
      const part: Part = { docUrl, pointer: joinPointer(base, 'parameters', i), node: raw };
      const resolved = ctx.set.deref(docUrl, part.pointer, raw);
      if (!resolved || !isObj(resolved.value)) {
        ctx.c.error(`A parameter of ${title} refers to something that cannot be found; it was skipped.`, part);
        return;
      }
      const p = resolved.value;
      const name = str(p['name']);
      const where = str(p['in']);
      if (name === undefined || where === undefined) {
        ctx.c.warn(`A parameter of ${title} has no name or no location; it was skipped.`, part);
        return;
      }
      const key = `${where}:${where === 'header' ? name.toLowerCase() : name}`;
      merged.delete(key);
      merged.set(key, { node: p, part: { docUrl: resolved.doc.url, pointer: resolved.pointer, node: p } });
    });
  };
  add((item.value as Obj)['parameters'], item.pointer, item.doc.url);
  add(op['parameters'], pointer, item.doc.url);

  const placeholders = pathPlaceholders(path);
  const params: NParam[] = [...new Set(placeholders)].map((name) => {
    const declared = merged.get(`path:${name}`);
    return { name, in: 'path', required: true, value: declared ? paramValue(ctx, declared.part) : '' };
  });
  for (const { node, part } of merged.values()) {
    const name = node['name'] as string;
    const where = node['in'] as string;
    if (where === 'path') continue;
    if (where === 'query' || where === 'header') {
      if (where === 'header' && IGNORED_HEADERS.test(name)) continue;
      params.push({ name, in: where, required: node['required'] === true, value: paramValue(ctx, part) });
    } else if (where === 'cookie') {
      ctx.c.skip(`cookie parameter ${name} of ${title}`, 'Requests have no cookie rows; send it with a Cookie header or the cookie jar.', part);
    } else if (where === 'querystring') {
      ctx.c.skip(`querystring parameter ${name} of ${title}`, 'A parameter that is the whole query string is not imported.', part);
    } else {
      ctx.c.warn(`The parameter ${name} of ${title} is in "${where}", which OpenAPI does not define; it was skipped.`, part);
    }
  }
  return { params, parts: [...merged.values()].map((m) => m.part) };
}

/** Example, first of examples, then the schema's example, default, enum or const. */
function paramValue(ctx: Ctx, part: Part): string {
  const p = part.node as Obj;
  if (p['example'] !== undefined) return asRowText(p['example']);
  const fromExamples = firstExample(ctx, part, p['examples']);
  if (fromExamples) return asRowText(fromExamples.value);
  const content = obj(p['content']);
  if (content) {
    const [mediaType, media] = Object.entries(content)[0] ?? [];
    if (mediaType !== undefined && isObj(media)) {
      const mediaPart: Part = { docUrl: part.docUrl, pointer: joinPointer(part.pointer, 'content', mediaType), node: media };
      if (media['example'] !== undefined) return asRowText(media['example']);
      const ex = firstExample(ctx, mediaPart, media['examples']);
      if (ex) return asRowText(ex.value);
      return schemaText(ctx, { docUrl: part.docUrl, pointer: joinPointer(mediaPart.pointer, 'schema'), node: media['schema'] });
    }
  }
  return schemaText(ctx, { docUrl: part.docUrl, pointer: joinPointer(part.pointer, 'schema'), node: p['schema'] });
}

function schemaText(ctx: Ctx, part: Part): string {
  if (part.node === undefined) return '';
  const schema = ctx.set.deref(part.docUrl, part.pointer, part.node);
  const node = obj(schema?.value);
  const own = schemaValue(node);
  if (own) return asRowText(own.value);
  if (node && schema && node['items'] !== undefined) {
    const items = obj(ctx.set.deref(schema.doc.url, joinPointer(schema.pointer, 'items'), node['items'])?.value);
    const item = schemaValue(items);
    if (item) return asRowText(item.value);
  }
  return '';
}

/** The first entry of an `examples` map (Example Objects, possibly `$ref`ed). */
function firstExample(ctx: Ctx, part: Part, examples: unknown): { value: unknown } | undefined {
  const map = obj(examples);
  if (!map) return undefined;
  const [name, raw] = Object.entries(map)[0] ?? [];
  if (name === undefined) return undefined;
  const resolved = obj(ctx.set.deref(part.docUrl, joinPointer(part.pointer, 'examples', name), raw)?.value);
  if (!resolved) return undefined;
  for (const key of ['value', 'dataValue', 'serializedValue']) {
    if (resolved[key] !== undefined) return { value: resolved[key] };
  }
  return undefined;
}

function requestBody(ctx: Ctx, part: Part): NBody | undefined {
  if (part.node === undefined) return undefined;
  const resolved = ctx.set.deref(part.docUrl, part.pointer, part.node);
  const body = obj(resolved?.value);
  if (!resolved || !body) {
    ctx.c.error('A request body refers to something that cannot be found; the request has no body.', part);
    return undefined;
  }
  const content = obj(body['content']) ?? {};
  const mediaType = preferJson(Object.keys(content));
  if (mediaType === undefined) return undefined;
  const mediaPart = ctx.set.deref(resolved.doc.url, joinPointer(resolved.pointer, 'content', mediaType), content[mediaType]);
  const media = obj(mediaPart?.value) ?? {};
  const mediaAt: Part = { docUrl: mediaPart?.doc.url ?? resolved.doc.url, pointer: mediaPart?.pointer ?? joinPointer(resolved.pointer, 'content', mediaType), node: media };
  const out: NBody = { kind: 'media', mediaType };
  if (media['example'] !== undefined) out.example = { value: media['example'] };
  else {
    const ex = firstExample(ctx, mediaAt, media['examples']);
    if (ex) out.example = ex;
  }
  if (media['schema'] !== undefined) out.schema = { docUrl: mediaAt.docUrl, pointer: joinPointer(mediaAt.pointer, 'schema'), node: media['schema'] };
  const encoding = obj(media['encoding']);
  if (encoding) {
    out.encoding = Object.fromEntries(
      Object.entries(encoding).map(([name, e]) => {
        const contentType = str(obj(e)?.['contentType']);
        return [name, contentType !== undefined ? { contentType } : {}];
      }),
    );
  }
  return out;
}

/** Media types of the 2XX responses (or of `default` when there is none), in order; links reported. */
function successMediaTypes(ctx: Ctx, part: Part, title: string): string[] {
  const responses = obj(part.node);
  if (!responses) return [];
  const keys = Object.keys(responses).filter((k) => !k.startsWith('x-'));
  const success = keys.filter((k) => /^2(\d\d|XX)$/i.test(k));
  const chosen = success.length > 0 ? success : keys.filter((k) => k === 'default');
  const out: string[] = [];
  for (const key of keys) {
    const at: Part = { docUrl: part.docUrl, pointer: joinPointer(part.pointer, key), node: responses[key] };
    const response = ctx.set.deref(at.docUrl, at.pointer, at.node);
    const node = obj(response?.value);
    if (!response || !node) continue;
    for (const [name, link] of Object.entries(obj(node['links']) ?? {})) {
      ctx.c.skip(`link ${name} (${title}, response ${key})`, 'Links are not imported.', { docUrl: response.doc.url, pointer: joinPointer(response.pointer, 'links', name), node: link });
    }
    if (!chosen.includes(key)) continue;
    for (const mediaType of Object.keys(obj(node['content']) ?? {})) if (!out.includes(mediaType)) out.push(mediaType);
  }
  return out;
}

/** Operation callbacks: each operation of each callback path item, into the webhooks list. */
function callbacks(ctx: Ctx, op: Obj, pointer: string, docUrl: string, title: string): void {
  for (const [name, raw] of Object.entries(obj(op['callbacks']) ?? {})) {
    const callback = derefOrReport(ctx, { docUrl, pointer: joinPointer(pointer, 'callbacks', name), node: raw }, `The callback ${name} of ${title}`);
    if (!callback) continue;
    for (const [expression, item] of Object.entries(callback.value as Obj)) {
      if (expression.startsWith('x-')) continue;
      const resolved = derefOrReport(ctx, { docUrl: callback.doc.url, pointer: joinPointer(callback.pointer, expression), node: item }, `The callback ${name} of ${title}`);
      if (!resolved) continue;
      for (const cb of operationsOf(ctx, resolved, expression, 'callback')) {
        cb.summary ??= `${name}: ${cb.method.toUpperCase()} ${expression}`;
        ctx.webhooks.push(cb);
      }
    }
  }
}
