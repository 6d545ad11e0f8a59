/**
 * Swagger 1.x (1.0-1.2) into the normalized model. Written by hand: no maintained npm package
 * converts 1.x any more (swagger-converter is archived and targets 2.0 output that we would
 * then have to read again). A resource listing leads to one API declaration per resource,
 * read from the listing's location; a single API declaration imports on its own. 1.x models
 * become JSON Schema `definitions` of a synthetic spec so the same sampler makes the bodies.
 */
import { safeFileName } from '../../../../../protocol/project/safe-path.js';
import { resolveRefLocation, type RefScope } from '../../../../../protocol/ref-location.js';
import { DocumentSet, type SourceDocument } from '../../load/document-set.js';
import { joinPointer } from '../../../../../protocol/json-pointer.js';
import type { Lead } from '../../load/load-document-set.js';
import type { DeclaredVersion } from '../version.js';
import { Collector, absoluteAgainst, trimBase } from './common.js';
import type { NApi, NBody, NFormField, NOperation, NParam, NRequirement, Part } from './model.js';
import { createSetSampler } from './sampler.js';
import { readSchemes1 } from './security-schemes.js';
import { arr, asRowText, essence, isObj, obj, oneLine, pathPlaceholders, preferJson, setOwn, str, type Obj } from './values.js';

/** A resource listing lists resources without operations; a declaration carries operations. */
export function isResourceListing(root: unknown): boolean {
  const apis = arr(obj(root)?.['apis']);
  return apis.length > 0 && apis.every((a) => isObj(a) && a['operations'] === undefined);
}

/** Where each API declaration of a listing may be: under the listing's URL, beside it, with .json. */
export function discoverDeclarations(doc: { url: string; value: unknown }, scope: RefScope = {}): Lead[] {
  if (!isResourceListing(doc.value)) return [];
  const root = doc.value as Obj;
  const basePath = str(root['basePath']);
  return arr(root['apis']).flatMap((api, i) => {
    const raw = str(obj(api)?.['path']);
    if (raw === undefined) return [];
    const path = raw.replace(/\{format\}/g, 'json');
    const relative = path.replace(/^\/+/, '');
    const candidates = new Set<string>();
    let unreadable: string | undefined;
    // A declaration's path is read by the same rule as a `$ref` (protocol/ref-location).
    const add = (href: string, base: string) => {
      const target = resolveRefLocation(href, base, scope);
      if (target.ok) candidates.add(target.url);
      else unreadable ??= target.error.message;
    };
    if (basePath !== undefined) {
      try {
        add(relative, new URL(basePath.endsWith('/') ? basePath : `${basePath}/`, doc.url).href);
      } catch {
        // A basePath that is no address: the other candidates remain.
      }
    }
    if (/^https?:/i.test(doc.url)) add(relative, doc.url.endsWith('/') ? doc.url : `${doc.url}/`);
    add(relative, doc.url);
    if (!/\.(json|ya?ml)$/i.test(relative)) add(`${relative}.json`, doc.url);
    const pointer = joinPointer('/apis', i, 'path');
    if (candidates.size === 0 && unreadable !== undefined) return [{ candidates: [], purpose: 'declaration' as const, pointer, unreadable }];
    return [{ candidates: [...candidates], purpose: 'declaration' as const, pointer }];
  });
}

/** 1.x primitive type names as JSON Schema (a Map: a type named `constructor` is a model's name, not a member). */
const PRIMITIVES = new Map<string, object>([
  ['integer', { type: 'integer' }], ['int', { type: 'integer', format: 'int32' }], ['long', { type: 'integer', format: 'int64' }],
  ['number', { type: 'number' }], ['float', { type: 'number', format: 'float' }], ['double', { type: 'number', format: 'double' }],
  ['string', { type: 'string' }], ['byte', { type: 'string', format: 'byte' }], ['boolean', { type: 'boolean' }],
  ['date', { type: 'string', format: 'date' }], ['Date', { type: 'string', format: 'date-time' }], ['dateTime', { type: 'string', format: 'date-time' }],
  ['File', { type: 'string', format: 'binary' }],
]);

export function normalizeSwagger1(set: DocumentSet, version: DeclaredVersion): NApi {
  const root = set.entry.value as Obj;
  const c = new Collector(set);
  const listing = isResourceListing(root);
  const declarations = (listing ? set.documents.slice(1) : [set.entry]).filter((d) => isObj(d.value) && Array.isArray((d.value as Obj)['apis']));
  const first = declarations[0]?.value as Obj | undefined;
  const info = obj(root['info']);
  const title = str(info?.['title']);
  const apiVersion = root['apiVersion'] ?? first?.['apiVersion'];
  const baseOf = (d: SourceDocument) => trimBase(absoluteAgainst(str((d.value as Obj)['basePath']) ?? '', d.url));
  const baseUrl = declarations[0] ? baseOf(declarations[0]) : '';

  const definitions: Record<string, unknown> = {};
  for (const decl of declarations) {
    for (const [id, model] of Object.entries(obj((decl.value as Obj)['models']) ?? {})) {
      if (isObj(model)) setOwn(definitions, id, modelSchema(model));
    }
  }
  const models = new DocumentSet([{ url: 'swagger1:/models', cachePath: 'models', bytes: new Uint8Array(), value: { swagger: '2.0', definitions }, syntax: 'json', locate: () => undefined }]);
  const sampler = createSetSampler(models, { swagger: '2.0' }, (_schema, reason) => c.warn(`No sample body could be made from a model: ${reason}`));

  const authorizations: Part = { docUrl: set.entry.url, pointer: '/authorizations', node: root['authorizations'] ?? first?.['authorizations'] };
  const operations: NOperation[] = [];
  for (const decl of declarations) {
    const d = decl.value as Obj;
    const folder = safeFolder(str(d['resourcePath']));
    const declBase = baseOf(decl);
    arr(d['apis']).forEach((api, i) => {
      const path = str(obj(api)?.['path']);
      if (path === undefined) return;
      arr(obj(api)?.['operations']).forEach((op, j) => {
        if (!isObj(op)) return;
        const pointer = joinPointer('/apis', i, 'operations', j);
        const method = str(op['method']) ?? str(op['httpMethod']);
        if (method === undefined) {
          c.warn(`An operation of ${path} has no method; it was skipped.`, { docUrl: decl.url, pointer, node: op });
          return;
        }
        operations.push(operation(decl, d, method, path, op, pointer, folder, declBase === baseUrl ? undefined : declBase));
      });
    });
  }
  if (listing && declarations.length === 0) c.error('None of the API declarations the resource listing names could be read.', { docUrl: set.entry.url, pointer: '/apis', node: root['apis'] });
  if (!version.known) c.warn(`swaggerVersion ${String(root['swaggerVersion'])} is not one this importer knows; it was read as 1.2.`);
  return {
    declaredVersion: version.label,
    generation: version.generation,
    ...(title ? { title } : {}),
    ...(apiVersion !== undefined ? { apiVersion: String(apiVersion) } : {}),
    baseUrl,
    security: [],
    schemes: readSchemes1(authorizations),
    operations,
    webhooks: [],
    unimported: c.unimported,
    warnings: c.warnings,
    errors: c.errors,
    apiParts: {
      servers: declarations.map((d) => ({ docUrl: d.url, pointer: '/basePath', node: (d.value as Obj)['basePath'] })),
      security: [authorizations],
    },
    sampler,
  };
}

function operation(decl: SourceDocument, d: Obj, method: string, path: string, op: Obj, pointer: string, folder: string, serverUrl: string | undefined): NOperation {
  const params: NParam[] = [];
  const fields: NFormField[] = [];
  let bodyType: Obj | undefined;
  const paramParts: Part[] = [];
  const bodyParts: Part[] = [];
  const placeholders = pathPlaceholders(path);
  const declared = new Map<string, Obj>();
  arr(op['parameters']).forEach((raw, i) => {
    if (!isObj(raw)) return;
    const part: Part = { docUrl: decl.url, pointer: joinPointer(pointer, 'parameters', i), node: raw };
    const name = str(raw['name']) ?? '';
    const where = str(raw['paramType']) ?? '';
    const type = str(raw['type']) ?? str(raw['dataType']) ?? '';
    if (where === 'path') declared.set(name, raw);
    if (where === 'query' || (where === 'header' && !/^(accept|content-type|authorization)$/i.test(name))) {
      params.push({ name, in: where, required: raw['required'] === true, value: valueOf(raw) });
    }
    if (where === 'form' || (where === 'body' && type === 'File')) {
      fields.push({ name, required: raw['required'] === true, value: type === 'File' ? '' : valueOf(raw), file: type === 'File', contentType: type === 'File' ? 'application/octet-stream' : '' });
    } else if (where === 'body') {
      bodyType = raw;
    }
    (where === 'body' || where === 'form' ? bodyParts : paramParts).push(part);
  });
  const pathParams: NParam[] = placeholders.map((name) => ({ name, in: 'path', required: true, value: declared.has(name) ? valueOf(declared.get(name) as Obj) : '' }));
  const consumes = strings(op['consumes'] ?? d['consumes']);
  const produces = strings(op['produces'] ?? d['produces']);
  const summary = str(op['summary']);
  const nickname = str(op['nickname']);
  const security = requirements(op['authorizations']);
  const result: NOperation = {
    method,
    path,
    loc: { docUrl: decl.url, pointer, node: op },
    ...(summary !== undefined && oneLine(summary) !== '' ? { summary: oneLine(summary) } : {}),
    ...(nickname !== undefined ? { operationId: nickname } : {}),
    folder,
    params: [...pathParams, ...params],
    accept: produces,
    ...(security !== undefined ? { security } : {}),
    ...(serverUrl !== undefined ? { serverUrl } : {}),
    parts: {
      parameters: paramParts,
      requestBody: [...bodyParts, { docUrl: decl.url, pointer: joinPointer(pointer, 'consumes'), node: op['consumes'] }],
      responses: ['type', 'responseClass', 'items', 'responseMessages', 'produces'].map((key) => ({ docUrl: decl.url, pointer: joinPointer(pointer, key), node: op[key] })),
      security: [{ docUrl: decl.url, pointer: joinPointer(pointer, 'authorizations'), node: op['authorizations'] }],
      servers: [{ docUrl: decl.url, pointer: '/basePath', node: d['basePath'] }],
    },
  };
  let body: NBody | undefined;
  if (fields.length > 0) {
    const multipart = fields.some((f) => f.file) || consumes.map(essence).includes('multipart/form-data');
    body = { kind: 'fields', mediaType: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded', fields };
  } else if (bodyType) {
    const schema = typeSchema(bodyType);
    body = { kind: 'media', mediaType: preferJson(consumes) ?? 'application/json', ...(schema ? { schema: { docUrl: 'swagger1:/models', pointer: '', node: schema } } : {}) };
  }
  if (body) result.body = body;
  return result;
}

/** 1.x `authorizations` of an operation: `{}` or absent means it names none. */
function requirements(value: unknown): NRequirement[] | undefined {
  const map = obj(value);
  if (!map || Object.keys(map).length === 0) return undefined;
  return Object.entries(map).map(([scheme, scopes]) => [
    { scheme, scopes: arr(scopes).map((s) => str(obj(s)?.['scope'])).filter((s): s is string => s !== undefined) },
  ]);
}

function valueOf(p: Obj): string {
  if (p['defaultValue'] !== undefined) return asRowText(p['defaultValue']);
  const values = arr(p['enum']).length > 0 ? arr(p['enum']) : arr(obj(p['allowableValues'])?.['values']);
  return values.length > 0 ? asRowText(values[0]) : '';
}

/** A 1.x data type (primitive, container or model id) as JSON Schema. */
function typeSchema(t: Obj): object | undefined {
  const ref = str(t['$ref']);
  if (ref !== undefined) return { $ref: '#' + joinPointer('/definitions', ref) };
  const type = str(t['type']) ?? str(t['dataType']) ?? str(t['responseClass']);
  if (type === undefined || type === 'void') return undefined;
  const container = /^(array|List|Set)(?:\[(.+)\])?$/.exec(type);
  if (container) {
    const inner = container[2] !== undefined ? { type: container[2] } : (obj(t['items']) ?? {});
    return { type: 'array', items: typeSchema(inner) ?? {} };
  }
  const base = PRIMITIVES.get(type) ?? { $ref: '#' + joinPointer('/definitions', type) };
  const extra: Obj = {};
  if (str(t['format']) !== undefined && !('$ref' in base)) extra['format'] = t['format'];
  const values = arr(t['enum']).length > 0 ? arr(t['enum']) : arr(obj(t['allowableValues'])?.['values']);
  if (values.length > 0) extra['enum'] = values;
  if (t['defaultValue'] !== undefined) extra['default'] = t['defaultValue'];
  return { ...base, ...extra };
}

function modelSchema(model: Obj): object {
  const properties: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(obj(model['properties']) ?? {})) {
    if (isObj(prop)) setOwn(properties, name, typeSchema(prop) ?? {});
  }
  return { type: 'object', properties, ...(Array.isArray(model['required']) ? { required: model['required'] } : {}) };
}

function safeFolder(resourcePath: string | undefined): string {
  const name = (resourcePath ?? '').replace(/^\/+|\/+$/g, '');
  return name === '' ? '' : name.split('/').map((s) => safeFileName(s, 'resource')).join('/');
}

function strings(value: unknown): string[] {
  return arr(value).filter((v): v is string => typeof v === 'string');
}
