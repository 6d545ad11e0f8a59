/**
 * One Query tab query: the document it reads (a JSON body, or a stream's events as one JSON
 * array), the expression evaluated by the body-query engine, and the items as pretty JSON.
 * Runs in the checker's query worker, where a query that never ends is stopped by its budget.
 */
import type { QueryJob, QueryResult } from '../../../protocol/model/query.js';
import type { StreamRow } from '../../../protocol/model/stream.js';
import { evaluateJsonPath, evaluateXPath, isXmlNode } from './body-query.js';

/** The items shown are cut once their JSON passes this many characters (the rest are counted). */
export const MAX_RESULT_CHARS = 4 * 1024 * 1024;

export type QueryOutcome = { ok: true; result: QueryResult } | { ok: false; code: 'not-json' | 'query-invalid'; message: string };

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

export function runQuery(job: QueryJob): QueryOutcome {
  let document: unknown;
  if (job.source.kind === 'events') {
    document = eventsDocument(job.source.rows);
  } else {
    try {
      document = JSON.parse(new TextDecoder('utf-8', { fatal: false }).decode(job.source.bytes));
    } catch (err) {
      return { ok: false, code: 'not-json', message: `The body is not valid JSON (${(err as Error).message}), so it cannot be queried.` };
    }
  }
  let items: unknown[];
  try {
    items = job.language === 'jsonpath' ? evaluateJsonPath(job.expression, document) : evaluateXPath(job.expression, document);
  } catch (err) {
    return { ok: false, code: 'query-invalid', message: `${job.language === 'jsonpath' ? 'JSONPath' : 'XPath'}: ${expressionError(err)}` };
  }
  return { ok: true, result: shownItems(items) };
}

/**
 * The engine's own words, without a stack. fontoxpath's message is the expression with a caret
 * under the place, then `Error: <code>: <what>` and `at <>:line:col`: written here as what went
 * wrong and where, then the expression with its caret.
 */
export function expressionError(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).replace(/^jsonPath: /, '').trim();
  const at = message.search(/^Error: /m);
  if (at < 0) return message.slice(0, 1500);
  const context = message.slice(0, at).replace(/\s+$/, '');
  const [what = '', ...rest] = message.slice(at + 'Error: '.length).split('\n');
  const where = rest.map((line) => /^\s*at <>:(.+)$/.exec(line)?.[1]).find((w) => w !== undefined);
  return `${what.trim()}${where ? ` (at ${where.trim()})` : ''}${context ? `\n${context}` : ''}`.slice(0, 1500);
}

function shownItems(items: unknown[]): QueryResult {
  const parts: string[] = [];
  let length = 0;
  for (const item of items) {
    const text = JSON.stringify(item, jsonSafe, 2) ?? 'null';
    if (length + text.length > MAX_RESULT_CHARS && parts.length > 0) break;
    parts.push(text);
    length += text.length;
  }
  const json = parts.length === 0 ? '[]' : `[\n${parts.map((p) => p.replace(/^/gm, '  ')).join(',\n')}\n]`;
  return { count: items.length, shown: parts.length, json };
}

/** What JSON cannot hold, written as text: XPath nodes as their text, functions by name, big integers in full. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === 'function') return `(function${value.name ? ` ${value.name}` : ''})`;
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return null;
  if (isXmlNode(value)) return value.textContent ?? '';
  return value;
}
