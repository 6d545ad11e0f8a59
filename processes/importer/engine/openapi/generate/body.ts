/**
 * Request bodies from the normalized model, and the one text form a body is compared in.
 * A generated body is recorded as (content type, text): the content type picks the body kind
 * and raw language, the text is that kind's draft (raw text; form rows or multipart parts as
 * JSON). A definition update compares a request's current draft with this text to tell an
 * edited body from a generated one.
 */
import { emptyBody, type Body, type BodyKind, type MultipartPart, type RawLanguage } from '../../../../../protocol/model/request.js';
import type { Row } from '../../../../../protocol/model/common.js';
import type { NBody, SchemaHandle } from '../normalize/model.js';
import type { Sampler } from '../normalize/sampler.js';
import { isJsonMediaType } from '../../../../../protocol/media-type.js';
import { asRowText, essence, isObj, obj, ownValue, str } from '../normalize/values.js';

export interface BodyShape {
  kind: BodyKind;
  language: RawLanguage;
}

export function shapeFor(contentType: string): BodyShape {
  const e = essence(contentType);
  if (e === '') return { kind: 'none', language: 'json' };
  if (isJsonMediaType(e)) return { kind: 'raw', language: 'json' };
  if (/(^|\/|\+)xml$/.test(e) || e.endsWith('/xml')) return { kind: 'raw', language: 'xml' };
  if (e === 'text/html') return { kind: 'raw', language: 'html' };
  if (/javascript|ecmascript/.test(e)) return { kind: 'raw', language: 'javascript' };
  if (e.startsWith('text/')) return { kind: 'raw', language: 'text' };
  if (e === 'application/x-www-form-urlencoded') return { kind: 'form', language: 'json' };
  if (e.startsWith('multipart/')) return { kind: 'multipart', language: 'json' };
  return { kind: 'binary', language: 'json' };
}

/** The draft of a body's current kind, as text. */
export function draftText(body: Body): string {
  switch (body.kind) {
    case 'none':
      return '';
    case 'raw':
      return body.raw.text;
    case 'form':
      return JSON.stringify(body.form);
    case 'multipart':
      return JSON.stringify(body.multipart);
    case 'binary':
      return body.binary.file;
    case 'graphql':
      return body.graphql?.query ?? '';
  }
}

/** Whether a request's body is still exactly what (contentType, text) generated. */
export function bodyIsGenerated(body: Body, contentType: string, text: string): boolean {
  const shape = shapeFor(contentType);
  if (body.kind !== shape.kind) return false;
  if (shape.kind === 'raw' && body.raw.language !== shape.language) return false;
  if (shape.kind === 'binary' && body.binary.contentType !== contentType) return false;
  return draftText(body) === text;
}

/** `body` with the generated kind selected and its draft replaced; other kinds' drafts kept. */
export function withGeneratedBody(body: Body, contentType: string, text: string): Body {
  const shape = shapeFor(contentType);
  const out: Body = { ...body, kind: shape.kind };
  switch (shape.kind) {
    case 'raw':
      out.raw = { language: shape.language, text };
      break;
    case 'form':
      out.form = JSON.parse(text) as Row[];
      break;
    case 'multipart':
      out.multipart = JSON.parse(text) as MultipartPart[];
      break;
    case 'binary':
      out.binary = { file: text, contentType };
      break;
    case 'none':
      break;
  }
  return out;
}

export function bodyFromGenerated(contentType: string, text: string): Body {
  return withGeneratedBody(emptyBody(), contentType, text);
}

/** Content type and draft text for an operation's body; ('', '') when it has none. */
export function generateBody(body: NBody | undefined, sampler: Sampler): { contentType: string; text: string } {
  if (!body) return { contentType: '', text: '' };
  const contentType = body.mediaType;
  const shape = shapeFor(contentType);
  if (body.kind === 'fields') {
    if (shape.kind === 'multipart') {
      const parts: MultipartPart[] = body.fields.map((f) =>
        f.file ? { kind: 'file', name: f.name, file: '', contentType: f.contentType || 'application/octet-stream', enabled: f.required } : { kind: 'text', name: f.name, value: f.value, enabled: f.required },
      );
      return { contentType, text: JSON.stringify(parts) };
    }
    const rows: Row[] = body.fields.map((f) => ({ name: f.name, value: f.value, enabled: f.required }));
    return { contentType, text: JSON.stringify(rows) };
  }
  const example = body.example;
  switch (shape.kind) {
    case 'raw': {
      if (shape.language === 'json') {
        const value = example ? example.value : body.schema ? sampler.json(body.schema) : undefined;
        if (value === undefined) return { contentType, text: '' };
        // An example written as JSON text is kept as written.
        return { contentType, text: typeof value === 'string' && example && isJsonText(value) ? value : JSON.stringify(value, null, 2) };
      }
      if (example && typeof example.value === 'string') return { contentType, text: example.value };
      if (shape.language === 'xml') return { contentType, text: body.schema ? (sampler.xml(body.schema) ?? '') : '' };
      const value = body.schema ? sampler.json(body.schema) : undefined;
      return { contentType, text: typeof value === 'string' ? value : '' };
    }
    case 'form':
    case 'multipart':
      return { contentType, text: JSON.stringify(fieldsFromSchema(body, sampler, shape.kind)) };
    default:
      return { contentType, text: '' };
  }
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Form rows or multipart parts from a schema (and its example): required ones enabled. */
function fieldsFromSchema(body: Extract<NBody, { kind: 'media' }>, sampler: Sampler, kind: 'form' | 'multipart'): Row[] | MultipartPart[] {
  const shape = body.schema ? sampler.shape(body.schema) : { required: [], properties: [] };
  const sampled = body.example ? body.example.value : body.schema ? sampler.json(body.schema) : undefined;
  const values = obj(sampled) ?? {};
  // A read-only property is never sent.
  const writable = shape.properties.filter((p) => obj(sampler.resolve(p.schema)?.node)?.['readOnly'] !== true);
  const names = [...new Set([...writable.map((p) => p.name), ...Object.keys(values)])];
  // By own value: a property named `toString` that the sample lacks is empty, not Object.prototype's.
  if (kind === 'form') return names.map((name) => ({ name, value: asRowText(ownValue(values, name)), enabled: shape.required.includes(name) }));
  return names.map((name): MultipartPart => {
    const enabled = shape.required.includes(name);
    const schema = shape.properties.find((p) => p.name === name)?.schema;
    if (schema && isFileSchema(schema, sampler)) {
      const encoding = body.encoding && Object.hasOwn(body.encoding, name) ? body.encoding[name] : undefined;
      const contentType = encoding?.contentType?.split(',')[0]?.trim() || 'application/octet-stream';
      return { kind: 'file', name, file: '', contentType, enabled };
    }
    return { kind: 'text', name, value: asRowText(ownValue(values, name)), enabled };
  });
}

/** A binary string (3.0 format binary/base64, 3.1 contentMediaType/contentEncoding), or an array of them. */
function isFileSchema(handle: SchemaHandle, sampler: Sampler): boolean {
  const resolved = sampler.resolve(handle);
  const node = obj(resolved?.node);
  if (!node || !resolved) return false;
  if (node['type'] === 'array' && isObj(node['items'])) return isFileSchema({ docUrl: resolved.docUrl, pointer: `${resolved.pointer}/items`, node: node['items'] }, sampler);
  const format = str(node['format']);
  return format === 'binary' || format === 'base64' || node['contentMediaType'] !== undefined || node['contentEncoding'] !== undefined;
}
