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
  const at = `log.entries[${index}]`;
  try {
    const request = object(value, 'request', at, true)!;
    const method = string(request, 'method', `${at}.request`, true)!;
    if (method.trim() === '') throw new Bad(`${at}.request.method is empty`);
    const url = string(request, 'url', `${at}.request`, true)!;
    const exchange: HarExchange = { index, request: { method: method.trim().toUpperCase(), url, headers: nameValues(request, 'headers', `${at}.request`) } };
    const postData = object(request, 'postData', `${at}.request`, false);
    if (postData) exchange.request.postData = postDataOf(postData, `${at}.request.postData`);
    const started = string(value, 'startedDateTime', at, false);
    if (started !== undefined) {
      const time = new Date(started);
      if (!Number.isNaN(time.getTime()) && /^\d{4}-\d{2}-\d{2}T/.test(started)) exchange.startedAt = time;
    }
    const time = number(value, 'time', at);
    if (time !== undefined && time >= 0) exchange.timeMs = time;
    if (typeof value._resourceType === 'string') exchange.resourceType = value._resourceType;
    const response = object(value, 'response', at, false);
    if (response) {
      const status = number(response, 'status', `${at}.response`);
      if (status === undefined) throw new Bad(`${at}.response.status is missing`);
      if (!Number.isInteger(status) || status > 999) throw new Bad(`${at}.response.status is ${status}, not an HTTP status`);
      // Browsers record a failed, blocked or cancelled request with status 0 (or -1).
      if (status >= 100) {
        const content = object(response, 'content', `${at}.response`, false) ?? {};
        exchange.response = {
          status,
          statusText: string(response, 'statusText', `${at}.response`, false) ?? '',
          headers: nameValues(response, 'headers', `${at}.response`),
          content: contentOf(content, `${at}.response.content`),
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
  const post: HarPostData = { mimeType: string(o, 'mimeType', at, false) ?? '' };
  const text = string(o, 'text', at, false);
  if (text !== undefined) post.text = text;
  if (o.params !== undefined) {
    if (!Array.isArray(o.params)) throw new Bad(`${at}.params is ${kindOf(o.params)}, not an array`);
    post.params = o.params.map((p, i) => {
      const where = `${at}.params[${i}]`;
      if (!isObj(p)) throw new Bad(`${where} is ${kindOf(p)}, not an object`);
      const param: HarPostParam = { name: string(p, 'name', where, true)! };
      for (const key of ['value', 'fileName', 'contentType'] as const) {
        const v = string(p, key, where, false);
        if (v !== undefined) param[key] = v;
      }
      return param;
    });
  }
  return post;
}

function contentOf(o: Obj, at: string): HarContent {
  const content: HarContent = {};
  for (const key of ['mimeType', 'text', 'encoding'] as const) {
    const v = string(o, key, at, false);
    if (v !== undefined) content[key] = v;
  }
  const size = number(o, 'size', at);
  if (size !== undefined && size >= 0) content.size = size;
  return content;
}

function nameValues(o: Obj, key: string, at: string): HarNameValue[] {
  const list = o[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new Bad(`${at}.${key} is ${kindOf(list)}, not an array`);
  return list.map((item, i) => {
    const where = `${at}.${key}[${i}]`;
    if (!isObj(item)) throw new Bad(`${where} is ${kindOf(item)}, not an object`);
    return { name: string(item, 'name', where, true)!, value: string(item, 'value', where, false) ?? '' };
  });
}

function object(o: Obj, key: string, at: string, required: boolean): Obj | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || (v === null && !required)) {
    if (required) throw new Bad(`${at}.${key} is missing`);
    return undefined;
  }
  if (!isObj(v)) throw new Bad(`${at}.${key} is ${kindOf(v)}, not an object`);
  return v;
}

function string(o: Obj, key: string, at: string, required: boolean): string | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || (v === null && !required)) {
    if (required) throw new Bad(`${at}.${key} is missing`);
    return undefined;
  }
  if (typeof v !== 'string') throw new Bad(`${at}.${key} is ${kindOf(v)}, not a string`);
  return v;
}

function number(o: Obj, key: string, at: string): number | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Bad(`${at}.${key} is ${kindOf(v)}, not a number`);
  return v;
}
