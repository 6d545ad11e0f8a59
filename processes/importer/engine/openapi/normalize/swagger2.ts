/**
 * Swagger 2.0 into the normalized model, read directly rather than through swagger2openapi:
 * the converter resolves external references with its own HTTP client (which would bypass
 * this job's credential, proxy and origin rules) and its output still needs the same
 * normalizing, so reading 2.0 here is both safer and shorter. Base URL is scheme + host +
 * basePath; `body` parameters become a body from their schema, `formData` parameters form or
 * multipart fields (multipart when a file is among them or only multipart is consumed).
 */
import type { DocumentSet, Resolved } from '../../load/document-set.js';
import { joinPointer } from '../../../../../protocol/json-pointer.js';
import type { DeclaredVersion } from '../version.js';
import { Collector, folderFor, readRequirements, trimBase } from './common.js';
import type { NApi, NBody, NFormField, NOperation, NParam, Part } from './model.js';
import { createSetSampler } from './sampler.js';
import { readSchemes2 } from './security-schemes.js';
import { METHODS_2, arr, asRowText, essence, isObj, obj, oneLine, pathPlaceholders, preferJson, str, type Obj } from './values.js';

const IGNORED_HEADERS = /^(accept|content-type|authorization)$/i;

interface Ctx {
  set: DocumentSet;
  c: Collector;
  consumes: string[];
  produces: string[];
}

export function normalizeSwagger2(set: DocumentSet, version: DeclaredVersion): NApi {
  const root = set.entry.value as Obj;
  const docUrl = set.entry.url;
  const c = new Collector(set);
  const at = (pointer: string, node: unknown): Part => ({ docUrl, pointer, node });
  const info = obj(root['info']);
  if (!info) c.warn('The document has no info section; the API is named after the file.', at('', root));
  const ctx: Ctx = { set, c, consumes: strings(root['consumes']), produces: strings(root['produces']) };
  const operations: NOperation[] = [];
  for (const [path, item] of Object.entries(obj(root['paths']) ?? {})) {
    if (path.startsWith('x-')) continue;
    const part = at(joinPointer('/paths', path), item);
    const resolved = set.deref(docUrl, part.pointer, item);
    if (!resolved || !isObj(resolved.value)) {
      c.error(`The path item ${path} refers to something that cannot be found; it was skipped.`, part);
      continue;
    }
    for (const [key, value] of Object.entries(resolved.value)) {
      if (METHODS_2.includes(key)) {
        if (isObj(value)) operations.push(operation(ctx, resolved, key, path, value));
      } else if (key !== 'parameters' && key !== '$ref' && !key.startsWith('x-')) {
        c.skip(`${key.toUpperCase()} ${path}`, `"${key}" is not an operation in Swagger 2.0.`, { docUrl: resolved.doc.url, pointer: joinPointer(resolved.pointer, key), node: value });
      }
    }
  }
  const definitions = at('/securityDefinitions', root['securityDefinitions']);
  return {
    declaredVersion: version.label,
    generation: version.generation,
    ...(info && str(info['title']) ? { title: str(info['title']) } : {}),
    ...(info && info['version'] !== undefined ? { apiVersion: String(info['version']) } : {}),
    baseUrl: baseUrlOf(root, docUrl),
    security: readRequirements(root['security']) ?? [],
    schemes: readSchemes2(definitions),
    operations,
    webhooks: [],
    unimported: c.unimported,
    warnings: c.warnings,
    errors: c.errors,
    apiParts: {
      servers: [at('/host', root['host']), at('/basePath', root['basePath']), at('/schemes', root['schemes'])],
      security: [at('/security', root['security']), definitions],
    },
    sampler: createSetSampler(set, { swagger: '2.0' }, (schema, reason) => c.warn(`No sample body could be made from this schema: ${reason}`, schema)),
  };
}

/** scheme://host/basePath; without a host, the document's own origin (when fetched) or just the basePath. */
function baseUrlOf(root: Obj, docUrl: string): string {
  const basePath = str(root['basePath']) ?? '';
  const host = str(root['host']);
  const fetched = /^https?:/i.test(docUrl) ? new URL(docUrl) : undefined;
  const scheme = strings(root['schemes'])[0] ?? fetched?.protocol.replace(':', '') ?? 'https';
  if (host) return trimBase(`${scheme}://${host}${basePath}`);
  if (fetched) return trimBase(`${scheme}://${fetched.host}${basePath}`);
  return trimBase(basePath);
}

function operation(ctx: Ctx, item: Resolved, method: string, path: string, op: Obj): NOperation {
  const docUrl = item.doc.url;
  const pointer = joinPointer(item.pointer, method);
  const title = `${method.toUpperCase()} ${path}`;
  const merged = new Map<string, Part>();
  const add = (list: unknown, base: string) => {
    arr(list).forEach((raw, i) => {
      const part: Part = { docUrl, pointer: joinPointer(base, 'parameters', i), node: raw };
      const resolved = ctx.set.deref(docUrl, part.pointer, raw);
      if (!resolved || !isObj(resolved.value)) {
        ctx.c.error(`A parameter of ${title} refers to something that cannot be found; it was skipped.`, part);
        return;
      }
      const name = str(resolved.value['name']);
      const where = str(resolved.value['in']);
      if (name === undefined || where === undefined) {
        ctx.c.warn(`A parameter of ${title} has no name or no location; it was skipped.`, part);
        return;
      }
      const key = `${where}:${where === 'header' ? name.toLowerCase() : name}`;
      merged.delete(key);
      merged.set(key, { docUrl: resolved.doc.url, pointer: resolved.pointer, node: resolved.value });
    });
  };
  add((item.value as Obj)['parameters'], item.pointer);
  add(op['parameters'], pointer);

  const placeholders = pathPlaceholders(path);
  const params: NParam[] = placeholders.map((name) => {
    const declared = merged.get(`path:${name}`);
    return { name, in: 'path', required: true, value: declared ? simpleValue(declared.node as Obj) : '' };
  });
  const fields: NFormField[] = [];
  let bodyPart: Part | undefined;
  for (const part of merged.values()) {
    const p = part.node as Obj;
    const name = p['name'] as string;
    const where = p['in'] as string;
    if (where === 'query' || (where === 'header' && !IGNORED_HEADERS.test(name))) {
      params.push({ name, in: where as 'query' | 'header', required: p['required'] === true, value: simpleValue(p) });
    } else if (where === 'formData') {
      const file = p['type'] === 'file';
      fields.push({ name, required: p['required'] === true, value: file ? '' : simpleValue(p), file, contentType: file ? 'application/octet-stream' : '' });
    } else if (where === 'body') {
      bodyPart = part;
    } else if (where !== 'path' && where !== 'header') {
      ctx.c.warn(`The parameter ${name} of ${title} is in "${where}", which Swagger 2.0 does not define; it was skipped.`, part);
    }
  }
  const consumes = op['consumes'] !== undefined ? strings(op['consumes']) : ctx.consumes;
  const produces = op['produces'] !== undefined ? strings(op['produces']) : ctx.produces;
  const summary = str(op['summary']);
  const operationId = str(op['operationId']);
  const security = readRequirements(op['security']);
  const result: NOperation = {
    method,
    path,
    loc: { docUrl, pointer, node: op },
    ...(summary !== undefined && oneLine(summary) !== '' ? { summary: oneLine(summary) } : {}),
    ...(operationId !== undefined ? { operationId } : {}),
    folder: folderFor(op['tags'], new Map()),
    params,
    accept: produces,
    ...(security !== undefined ? { security } : {}),
    parts: {
      parameters: [...merged.values()].filter((p) => !['body', 'formData'].includes((p.node as Obj)['in'] as string)),
      requestBody: [...[...merged.values()].filter((p) => ['body', 'formData'].includes((p.node as Obj)['in'] as string)), { docUrl, pointer: joinPointer(pointer, 'consumes'), node: op['consumes'] }],
      responses: [
        { docUrl, pointer: joinPointer(pointer, 'responses'), node: op['responses'] },
        { docUrl, pointer: joinPointer(pointer, 'produces'), node: op['produces'] },
      ],
      security: [{ docUrl, pointer: joinPointer(pointer, 'security'), node: op['security'] }],
      servers: [{ docUrl, pointer: joinPointer(pointer, 'schemes'), node: op['schemes'] }],
    },
  };
  const body = bodyOf(bodyPart, fields, consumes);
  if (body) result.body = body;
  return result;
}

function bodyOf(bodyPart: Part | undefined, fields: NFormField[], consumes: string[]): NBody | undefined {
  if (bodyPart) {
    const schema = (bodyPart.node as Obj)['schema'];
    const body: NBody = { kind: 'media', mediaType: preferJson(consumes) ?? 'application/json' };
    if (schema !== undefined) body.schema = { docUrl: bodyPart.docUrl, pointer: joinPointer(bodyPart.pointer, 'schema'), node: schema };
    return body;
  }
  if (fields.length === 0) return undefined;
  const kinds = consumes.map(essence);
  const multipart = fields.some((f) => f.file) || (kinds.includes('multipart/form-data') && !kinds.includes('application/x-www-form-urlencoded'));
  return { kind: 'fields', mediaType: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded', fields };
}

/** A non-body parameter's starting value: x-example, default, first enum value, or the same of its items. */
function simpleValue(p: Obj): string {
  for (const source of [p, obj(p['items'])]) {
    if (!source) continue;
    for (const key of ['x-example', 'default']) if (source[key] !== undefined) return asRowText(source[key]);
    const values = arr(source['enum']);
    if (values.length > 0) return asRowText(values[0]);
  }
  return '';
}

function strings(value: unknown): string[] {
  return arr(value).filter((v): v is string => typeof v === 'string');
}
