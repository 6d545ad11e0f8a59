/**
 * One Query tab query: the document it reads (a JSON body, an XML or SOAP body, or a stream's
 * events as one JSON array), the expression evaluated by the body-query engine, and the items:
 * pretty JSON over JSON, XML fragments and values over XML. Errors are said in the user's terms
 * (query-errors.ts). Runs in the checker's query worker, where a query that never ends is
 * stopped by its budget.
 */
import { createHash } from 'node:crypto';
import type { Document as XmlDocument } from 'slimdom';
import { ParleyError } from '../../../protocol/errors.js';
import type { QueryItem, QueryJob, QueryResult } from '../../../protocol/model/query.js';
import type { StreamRow } from '../../../protocol/model/stream.js';
import { documentPrefixes, evaluateJsonPath, evaluateXPath, isXmlNode, parseXmlBody, serializeXmlNode } from './body-query.js';
import { jsonPathError, xpathError } from './query-errors.js';

/** The items shown are cut once their text passes this many characters (the rest are counted). */
export const MAX_RESULT_CHARS = 4 * 1024 * 1024;

export type QueryOutcome = { ok: true; result: QueryResult } | { ok: false; code: 'not-json' | 'not-xml' | 'query-invalid'; message: string };

/**
 * A stream's events as the JSON document queries read: one object per event, oldest first,
 * with its name (`message` when the stream gave none), id, data as sent, `json` when the data
 * parses as JSON, and its arrival time. Comments and retry fields are not events.
 */
export function eventsDocument(rows: readonly StreamRow[]): unknown[] {
  const events: unknown[] = [];
  for (const row of rows) {
    if (row.kind !== 'event') continue;
    const event: Record<string, unknown> = { n: row.n, event: row.name ?? 'message' };
    if (row.id !== undefined) event['id'] = row.id;
    event['data'] = row.data;
    const json = parsedData(row.data);
    if (json !== undefined) event['json'] = json;
    event['time'] = new Date(row.at).toISOString();
    events.push(event);
  }
  return events;
}

function parsedData(data: string): unknown {
  const start = data.trimStart()[0];
  // Only what can be a JSON document is tried: plain text data stays text.
  if (start === undefined || !'{["-0123456789tfn'.includes(start)) return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

type Read = { ok: true; document: unknown; reads: 'a JSON body' | 'the events' | 'an XML body' } | Extract<QueryOutcome, { ok: false }>;

function readDocument(job: QueryJob): Read {
  const { source } = job;
  if (source.kind === 'events') return { ok: true, document: eventsDocument(source.rows), reads: 'the events' };
  if (source.syntax === 'xml') {
    if (job.language === 'jsonpath') return { ok: false, code: 'not-json', message: 'JSONPath reads JSON, and this body is XML: choose XPath 3.1 (//*:name finds an element of that name in any namespace).' };
    return readXml(source.bytes);
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(source.bytes);
  try {
    return { ok: true, document: JSON.parse(text), reads: 'a JSON body' };
  } catch (err) {
    return { ok: false, code: 'not-json', message: `The body is not valid JSON (${(err as Error).message}), so it cannot be queried.` };
  }
}

/**
 * The last XML body read, by the digest of its bytes: the user runs one query after another over
 * the same response, and building its tree is most of a query's time (a 4.7 MB body: seconds),
 * while the digest takes milliseconds. The tree is only read, never changed, by XPath.
 */
let lastXml: { digest: string; document: XmlDocument } | undefined;

/** The body's tree, built again only when its bytes differ from the last body's; throws as parseXmlBody does. */
export function xmlBodyDocument(bytes: Uint8Array): XmlDocument {
  const digest = createHash('sha256').update(bytes).digest('base64');
  if (lastXml?.digest === digest) return lastXml.document;
  lastXml = undefined;
  const document = parseXmlBody(new TextDecoder('utf-8', { fatal: false }).decode(bytes));
  lastXml = { digest, document };
  return document;
}

function readXml(bytes: Uint8Array): Read {
  try {
    return { ok: true, document: xmlBodyDocument(bytes), reads: 'an XML body' };
  } catch (err) {
    if (err instanceof ParleyError) return { ok: false, code: 'not-xml', message: `${err.message} It is not queried.` };
    throw err;
  }
}

export function runQuery(job: QueryJob): QueryOutcome {
  const read = readDocument(job);
  if (!read.ok) return read;
  let items: unknown[];
  try {
    items = job.language === 'jsonpath' ? evaluateJsonPath(job.expression, read.document) : evaluateXPath(job.expression, read.document);
  } catch (err) {
    const prefixes = read.reads === 'an XML body' ? () => [...documentPrefixes(read.document as XmlDocument).keys()] : undefined;
    const message = job.language === 'jsonpath' ? `JSONPath: ${jsonPathError(err, job.expression)}` : `XPath: ${xpathError(err, job.expression, { reads: read.reads, ...(prefixes ? { prefixes } : {}) })}`;
    return { ok: false, code: 'query-invalid', message };
  }
  return { ok: true, result: read.reads === 'an XML body' ? xmlItems(items) : jsonItems(items) };
}

function jsonItems(items: unknown[]): QueryResult {
  const parts: string[] = [];
  let length = 0;
  for (const item of items) {
    const text = JSON.stringify(item, jsonSafe, 2) ?? 'null';
    if (length + text.length > MAX_RESULT_CHARS && parts.length > 0) break;
    parts.push(text);
    length += text.length;
  }
  const json = parts.length === 0 ? '[]' : `[\n${parts.map((p) => p.replace(/^/gm, '  ')).join(',\n')}\n]`;
  return { format: 'json', count: items.length, shown: parts.length, json };
}

/** XPath over XML: nodes as XML (an element with the namespace declarations it needs), values as text. */
function xmlItems(items: unknown[]): QueryResult {
  const shown: QueryItem[] = [];
  let length = 0;
  for (const item of items) {
    const next: QueryItem = isXmlNode(item) ? { kind: 'node', text: serializeXmlNode(item) } : { kind: 'value', text: valueText(item) };
    if (length + next.text.length > MAX_RESULT_CHARS && shown.length > 0) break;
    shown.push(next);
    length += next.text.length;
  }
  return { format: 'xml', count: items.length, shown: shown.length, items: shown };
}

/** An atomic value as its text; a map or an array (XPath 3.1 builds them) as JSON with its nodes as XML. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value, (key, v: unknown) => (isXmlNode(v) ? serializeXmlNode(v) : jsonSafe(key, v)), 2) ?? '';
}

/** What JSON cannot hold, written as text: XPath nodes as their text, functions by name, big integers in full. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'function') return `(function${value.name ? ` ${value.name}` : ''})`;
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return null;
  if (isXmlNode(value)) return value.textContent ?? '';
  return value;
}
