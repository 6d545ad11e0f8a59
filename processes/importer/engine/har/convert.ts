/**
 * A HAR capture as APIs and requests, exactly as SPEC "HAR grouping" says: each origin (scheme,
 * host, port) is one API named after its host with the origin as base URL; calls with the same
 * method, path and query parameter names are one request named by method and path, whose first
 * recording supplies its headers, query and body. Entries are read one at a time from the
 * streaming reader; only the requests (and the recorded responses the option keeps) are held.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import type { Api } from '../../../../protocol/model/api.js';
import type { ImportResult, ImportedApi, ReportItem } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';
import { SourceOrder } from '../../../../protocol/project/order-keys.js';
import type { ImportContext, ImportInput } from '../importer.js';
import { parseUrl, skipReason, type SkipReason } from './classify.js';
import { harExchange, type HarExchange } from './entry.js';
import { digits, readHarBatches, type HarLogInfo, type RawHarEntry } from './read-har.js';
import { ExampleRecorder, HistoryRecorder } from './recorded.js';
import { requestFromRecording } from './request.js';

/** Progress is told every this many entries. */
const PROGRESS_EVERY = 1000;
/** Requests a grouped warning names before "and N more". */
const NAMED = 8;

interface ApiGroup {
  api: Api;
  requests: Map<string, Request>;
  names: Set<string>;
}

export async function convertHar(input: ImportInput, ctx: ImportContext): Promise<ImportResult> {
  const name = input.name ?? 'The pasted text';
  const includeStatic = ctx.options.includeStaticAssets === true;
  const keep = ctx.options.recordedResponses ?? 'none';
  const groups = new Map<string, ApiGroup>();
  const apiNames = new Set<string>();
  const skipped: Record<SkipReason, number> = { 'not-http': 0, preflight: 0, static: 0 };
  const grouped = new Map<string, { requests: string[]; path: string }>();
  let cookies = 0;
  const history = keep === 'history' ? new HistoryRecorder(ctx.newId) : null;
  const examples = keep === 'examples' ? new ExampleRecorder(ctx.now) : null;
  let log: HarLogInfo = {};
  let entries = 0;
  let requestCount = 0;

  /** One entry into its request (made by its first recording), History and examples. */
  const take = (raw: RawHarEntry): void => {
    entries++;
    if (entries % PROGRESS_EVERY === 0) ctx.onProgress?.({ phase: 'convert', message: `Read ${digits(entries)} entries: ${digits(requestCount)} requests`, items: requestCount });
    const exchange = harExchange(raw);
    if ('error' in exchange) throw new ParleyError('import-malformed', `${name} is not a readable HAR capture: ${exchange.error}.`, { path: `/log/entries/${raw.index}` });
    const url = parseUrl(exchange.request.url);
    const skip = skipReason(exchange, url, includeStatic);
    if (skip) {
      skipped[skip]++;
      return;
    }
    const group = groupOf(groups, apiNames, url!, ctx);
    const key = requestKey(exchange.request.method, url!);
    let request = group.requests.get(key);
    if (!request) {
      const made = requestFromRecording(exchange, url!, { id: ctx.newId('r'), name: requestName(group, exchange.request.method, url!) });
      request = made.request;
      group.requests.set(key, request);
      group.names.add(request.name);
      requestCount++;
      if (made.droppedCookies) cookies++;
      for (const warning of made.warnings) {
        const same = grouped.get(warning) ?? { requests: [], path: `/log/entries/${raw.index}` };
        same.requests.push(`${group.api.name} ${request.name}`);
        grouped.set(warning, same);
      }
    }
    history?.add(exchange, request.id);
    examples?.add(exchange, request.id);
  };

  const chunks = input.stream ? input.stream(ctx.signal) : oneChunk(input.text);
  for await (const batch of readHarBatches(chunks, name, (info) => (log = info))) {
    for (const raw of batch) {
      ctx.signal?.throwIfAborted();
      take(raw);
    }
  }

  const notes: ReportItem[] = [];
  const skips = [
    skipped.preflight > 0 ? `${count(skipped.preflight, 'CORS preflight request')}` : '',
    skipped.static > 0 ? `${count(skipped.static, 'static asset')} (images, scripts, styles, fonts: tick Include static assets to import them)` : '',
    skipped['not-http'] > 0 ? `${count(skipped['not-http'], 'entry', 'entries')} whose URL is not http: or https:` : '',
  ].filter(Boolean);
  if (requestCount === 0) {
    throw new ParleyError('import-refused', `${name} holds no HTTP requests to import (${count(entries, 'entry', 'entries')} read${skips.length > 0 ? `; skipped ${joinAnd(skips)}` : ''}): nothing was imported.`);
  }
  if (skips.length > 0) notes.push({ message: `Skipped ${joinAnd(skips)}.` });
  if (cookies > 0) notes.push({ message: `Cookies were dropped from ${count(cookies, 'request')}: the cookie jar sends cookies at send time.` });
  notes.push({ message: `${count(entries, 'entry', 'entries')} read${log.creator ? ` (recorded by ${log.creator})` : ''}: ${count(requestCount, 'request')} in ${count(groups.size, 'API')}, one per origin.` });

  const warnings: ReportItem[] = [];
  if (log.version !== undefined && log.version !== '1.1' && log.version !== '1.2') warnings.push({ message: `${name} says it is HAR ${log.version}; it was read as HAR 1.2.` });
  for (const [warning, { requests, path }] of grouped) {
    const shown = requests.slice(0, NAMED).join(', ') + (requests.length > NAMED ? ` and ${digits(requests.length - NAMED)} more` : '');
    warnings.push({ message: `${requests.length === 1 ? shown : `${digits(requests.length)} requests (${shown})`}: ${warning}.`, path });
  }

  const result: ImportResult = { apis: [...groups.values()].map(apiOf), report: reportOf(log, groups, requestCount, warnings, notes, ctx) };
  if (history) {
    result.history = history.finish();
    if (history.noTime > 0) warnings.push({ message: `${count(history.noTime, 'recorded exchange')} had no valid time and ${history.noTime === 1 ? 'was' : 'were'} not written to History.` });
    if (history.leftOut > 0) warnings.push({ message: `${count(history.leftOut, 'older recorded exchange')} did not fit: one import brings at most 16 MB of History.` });
  }
  if (examples) {
    const { examples: kept, masked } = examples.finish();
    result.examples = kept;
    if (examples.leftOut > 0) warnings.push({ message: `${count(examples.leftOut, 'recorded response')} ${examples.leftOut === 1 ? 'was' : 'were'} not kept as examples: one import keeps at most 16 MB of example bodies.` });
    if (masked.length > 0) {
      const names = new Map<string, string>();
      for (const group of groups.values()) for (const r of group.requests.values()) names.set(r.id, `${group.api.name} ${r.name}`);
      const listed = masked.slice(0, NAMED).map((m) => `${names.get(m.request)} ${m.status}`);
      notes.push({ message: `Credential values were masked in ${count(masked.length, 'example')}: ${listed.join(', ')}${masked.length > NAMED ? ` and ${masked.length - NAMED} more` : ''}.` });
    }
  }
  return result;
}

function groupOf(groups: Map<string, ApiGroup>, names: Set<string>, url: URL, ctx: ImportContext): ApiGroup {
  let group = groups.get(url.origin);
  if (!group) {
    // Named after the host (with a port that is not the scheme's own); the same host by another scheme says which.
    let name = url.host;
    if (names.has(name)) name = `${url.host} (${url.protocol.slice(0, -1)})`;
    names.add(name);
    group = { api: { version: 1, id: ctx.newId('a'), name, baseUrl: url.origin, auth: { type: 'none' } }, requests: new Map(), names: new Set() };
    groups.set(url.origin, group);
  }
  return group;
}

/** Same method, path and query parameter names: one request. */
function requestKey(method: string, url: URL): string {
  return `${method} ${url.pathname} ${queryNames(url).join('&')}`;
}

/** The names of its query parameters, sorted, each once (as URLSearchParams reads them). */
export function queryNames(url: URL): string[] {
  const search = url.search;
  if (search === '') return [];
  // Names with nothing to decode are the query's own text between & and =; URLSearchParams
  // (which also decodes % and +) only for the rest. Sorted, then each name once.
  if (search.includes('%') || search.includes('+')) return [...new Set(url.searchParams.keys())].sort();
  const names: string[] = [];
  for (let at = 1; at < search.length; ) {
    let end = search.indexOf('&', at);
    if (end < 0) end = search.length;
    if (end > at) {
      const eq = search.indexOf('=', at);
      names.push(search.slice(at, eq >= 0 && eq < end ? eq : end));
    }
    at = end + 1;
  }
  names.sort();
  let kept = 0;
  for (const name of names) if (kept === 0 || names[kept - 1] !== name) names[kept++] = name;
  names.length = kept;
  return names;
}

/** Method and path; two requests of one API that would share a name are told apart by their query names. */
function requestName(group: ApiGroup, method: string, url: URL): string {
  const base = `${method} ${url.pathname}`.slice(0, 200);
  if (!group.names.has(base)) return base;
  const withQuery = `${base}?${queryNames(url).join('&')}`.slice(0, 240);
  if (!group.names.has(withQuery)) return withQuery;
  for (let n = 2; ; n++) if (!group.names.has(`${withQuery} ${n}`)) return `${withQuery} ${n}`;
}

/** The API of one origin: its requests in the order they were first recorded (order-keys.ts). */
function apiOf(group: ApiGroup): ImportedApi {
  const order = new SourceOrder();
  return { api: group.api, folders: [], requests: [...group.requests.values()].map((request) => ({ folder: '', request: order.request('', request) })), documents: [] };
}

function reportOf(log: HarLogInfo, groups: Map<string, ApiGroup>, requestCount: number, warnings: ReportItem[], notes: ReportItem[], ctx: ImportContext): ImportResult['report'] {
  const first = groups.values().next().value as ApiGroup | undefined;
  return {
    format: 'har',
    declaredVersion: `har-${log.version === '1.1' ? '1.1' : '1.2'}`,
    baseUrl: first?.api.baseUrl ?? '',
    requestCount,
    folderCount: 0,
    webhookCount: 0,
    securitySchemes: [],
    unimported: [],
    warnings,
    errors: [],
    notes,
    importedAt: ctx.now().toISOString(),
  };
}

async function* oneChunk(text: string): AsyncIterable<Uint8Array> {
  yield new TextEncoder().encode(text);
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${digits(n)} ${n === 1 ? one : many}`;
}

function joinAnd(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export type { HarExchange };
