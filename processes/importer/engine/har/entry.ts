/**
 * One HAR entry (1.1 or 1.2) as a typed exchange, for the importer and `parley check --har`
 * alike. A field HAR requires that is missing, or any field of the wrong type, is an error
 * naming the field (`log.entries[3].request.url is a number, not a string`); optional fields
 * that are absent take their empty value.
 */
import { isObj, kindOf, type RawHarEntry } from './read-har.js';

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostParam {
  name: string;
  value?: string;
  fileName?: string;
  contentType?: string;
}

export interface HarPostData {
  mimeType: string;
  text?: string;
  params?: HarPostParam[];
}

export interface HarRequest {
  method: string;
  url: string;
  headers: HarNameValue[];
  postData?: HarPostData;
}

export interface HarContent {
  mimeType?: string;
  text?: string;
  /** 'base64' for a binary body. */
  encoding?: string;
  /** The body's size as recorded (the text may be absent). */
  size?: number;
}

export interface HarResponse {
  status: number;
  statusText: string;
  headers: HarNameValue[];
  content: HarContent;
}

export interface HarExchange {
  index: number;
  /** `startedDateTime`, when it is a valid time. */
  startedAt?: Date;
  /** The whole exchange's time in ms, when recorded (HAR's -1 is "not recorded"). */
  timeMs?: number;
  /** Chrome's `_resourceType` (document, xhr, fetch, script, image...), when recorded. */
  resourceType?: string;
  request: HarRequest;
  /** Absent when the capture recorded no response (status 0: failed, blocked, cancelled). */
  response?: HarResponse;
}

export interface HarEntryError {
  index: number;
  error: string;
}

class Bad extends Error {}

type Obj = Record<string, unknown>;

/** The entry as an exchange, or what is wrong with it. */
export function harExchange({ index, value }: RawHarEntry): HarExchange | HarEntryError {
  // Where a field is, for the error naming it: `at` + a constant suffix, joined only when it is wrong.
  const at = `log.entries[${index}]`;
  try {
    const request = object(value, 'request', at, '', true)!;
    const method = string(request, 'method', at, '.request', true)!;
    if (method.trim() === '') throw new Bad(`${at}.request.method is empty`);
    const url = string(request, 'url', at, '.request', true)!;
    const exchange: HarExchange = { index, request: { method: method.trim().toUpperCase(), url, headers: nameValues(request, 'headers', at, '.request') } };
    const postData = object(request, 'postData', at, '.request', false);
    if (postData) exchange.request.postData = postDataOf(postData, `${at}.request.postData`);
    const started = string(value, 'startedDateTime', at, '', false);
    if (started !== undefined) {
      const time = new Date(started);
      if (!Number.isNaN(time.getTime()) && /^\d{4}-\d{2}-\d{2}T/.test(started)) exchange.startedAt = time;
    }
    const time = number(value, 'time', at, '');
    if (time !== undefined && time >= 0) exchange.timeMs = time;
    if (typeof value._resourceType === 'string') exchange.resourceType = value._resourceType;
    const response = object(value, 'response', at, '', false);
    if (response) {
      const status = number(response, 'status', at, '.response');
      if (status === undefined) throw new Bad(`${at}.response.status is missing`);
      if (!Number.isInteger(status) || status > 999) throw new Bad(`${at}.response.status is ${status}, not an HTTP status`);
      // Browsers record a failed, blocked or cancelled request with status 0 (or -1).
      if (status >= 100) {
        const content = object(response, 'content', at, '.response', false) ?? {};
        exchange.response = {
          status,
          statusText: string(response, 'statusText', at, '.response', false) ?? '',
          headers: nameValues(response, 'headers', at, '.response'),
          content: contentOf(content, at, '.response.content'),
        };
      }
    }
    return exchange;
  } catch (err) {
    if (err instanceof Bad) return { index, error: err.message };
    throw err;
  }
}

/** The recorded body's bytes (base64 decoded), or null when the capture kept no text. */
export function contentBytes(content: HarContent): Uint8Array | null {
  if (content.text === undefined) return null;
  const buffer = Buffer.from(content.text, content.encoding === 'base64' ? 'base64' : 'utf8');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}

/** A header's value (the first of that name, ignoring case). */
export function headerValue(headers: readonly HarNameValue[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

function postDataOf(o: Obj, at: string): HarPostData {
  const post: HarPostData = { mimeType: string(o, 'mimeType', at, '', false) ?? '' };
  const text = string(o, 'text', at, '', false);
  if (text !== undefined) post.text = text;
  if (o.params !== undefined) {
    if (!Array.isArray(o.params)) throw new Bad(`${at}.params is ${kindOf(o.params)}, not an array`);
    post.params = o.params.map((p, i) => {
      const where = `${at}.params[${i}]`;
      if (!isObj(p)) throw new Bad(`${where} is ${kindOf(p)}, not an object`);
      const param: HarPostParam = { name: string(p, 'name', where, '', true)! };
      for (const key of ['value', 'fileName', 'contentType'] as const) {
        const v = string(p, key, where, '', false);
        if (v !== undefined) param[key] = v;
      }
      return param;
    });
  }
  return post;
}

function contentOf(o: Obj, at: string, sub: string): HarContent {
  const content: HarContent = {};
  const mimeType = string(o, 'mimeType', at, sub, false);
  if (mimeType !== undefined) content.mimeType = mimeType;
  const text = string(o, 'text', at, sub, false);
  if (text !== undefined) content.text = text;
  const encoding = string(o, 'encoding', at, sub, false);
  if (encoding !== undefined) content.encoding = encoding;
  const size = number(o, 'size', at, sub);
  if (size !== undefined && size >= 0) content.size = size;
  return content;
}

function nameValues(o: Obj, key: string, at: string, sub: string): HarNameValue[] {
  const list = o[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new Bad(`${at}${sub}.${key} is ${kindOf(list)}, not an array`);
  const out: HarNameValue[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    // The usual case checked in place; the message (and its path) is made only for a wrong item.
    if (isObj(item) && Object.hasOwn(item, 'name') && typeof item.name === 'string') {
      const value = Object.hasOwn(item, 'value') ? item.value : undefined;
      if (typeof value === 'string') {
        out[i] = { name: item.name, value };
        continue;
      }
      if (value === undefined || value === null) {
        out[i] = { name: item.name, value: '' };
        continue;
      }
    }
    const where = `${at}${sub}.${key}[${i}]`;
    if (!isObj(item)) throw new Bad(`${where} is ${kindOf(item)}, not an object`);
    out[i] = { name: string(item, 'name', where, '', true)!, value: string(item, 'value', where, '', false) ?? '' };
  }
  return out;
}

function object(o: Obj, key: string, at: string, sub: string, required: boolean): Obj | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || (v === null && !required)) {
    if (required) throw new Bad(`${at}${sub}.${key} is missing`);
    return undefined;
  }
  if (!isObj(v)) throw new Bad(`${at}${sub}.${key} is ${kindOf(v)}, not an object`);
  return v;
}

function string(o: Obj, key: string, at: string, sub: string, required: boolean): string | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (typeof v === 'string') return v;
  if (v === undefined || (v === null && !required)) {
    if (required) throw new Bad(`${at}${sub}.${key} is missing`);
    return undefined;
  }
  throw new Bad(`${at}${sub}.${key} is ${kindOf(v)}, not a string`);
}

function number(o: Obj, key: string, at: string, sub: string): number | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Bad(`${at}${sub}.${key} is ${kindOf(v)}, not a number`);
  return v;
}
