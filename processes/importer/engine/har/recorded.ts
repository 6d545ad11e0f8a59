/**
 * Recorded responses of a capture, kept as the Recorded responses option says: each exchange as
 * a History entry at its recorded time, redacted as a live send's entry is
 * (protocol/history-record.ts, and the credential values the exchange carried taken out of its
 * response by value); or up to 5 examples per request, one per status code, masked the same way
 * (protocol/project/examples.ts, rule 2). A whole import's result crosses the bus in one
 * message, so both are held within a byte budget: History keeps the newest exchanges that fit,
 * examples the first; what is left out is counted for the report.
 */
import type { Header } from '../../../../protocol/model/exchange.js';
import { EXAMPLE_LIMIT, type Example } from '../../../../protocol/model/example.js';
import type { HistoryEntry } from '../../../../protocol/model/history.js';
import type { ImportedExample } from '../../../../protocol/model/import.js';
import { recordExample } from '../../../../protocol/project/examples.js';
import { recordRequest, recordResponse } from '../../../../protocol/history-record.js';
import { carriedReplacements, carriedValues, replaceSecretValues } from '../../../../protocol/credentials/index.js';
import { contentBytes, type HarExchange, type HarNameValue } from './entry.js';

/** History entries an import hands over at most, in bytes of their bodies and headers. */
export const HISTORY_BUDGET_BYTES = 16 * 1024 * 1024;
/** Example bodies an import keeps at most. */
export const EXAMPLES_BUDGET_BYTES = 16 * 1024 * 1024;

const headersOf = (list: readonly HarNameValue[]): Header[] => list.map((h) => [h.name, h.value]);

export class HistoryRecorder {
  private entries: { entry: HistoryEntry; bytes: number; at: number; order: number }[] = [];
  private bytes = 0;
  /** Exchanges with no valid recorded time (not written: SPEC). */
  noTime = 0;
  /** Exchanges left out because the import's History budget was full (the oldest go first). */
  leftOut = 0;

  constructor(private readonly newId: (prefix: string) => string, private readonly budget = HISTORY_BUDGET_BYTES) {}

  add(exchange: HarExchange, requestId: string): void {
    if (!exchange.startedAt) {
      this.noTime++;
      return;
    }
    const { request, response } = exchange;
    const postData = request.postData;
    const sentText = postData?.text ?? (postData?.params ? new URLSearchParams(postData.params.map((p) => [p.name, p.value ?? ''])).toString() : undefined);
    const sent = recordRequest({
      method: request.method,
      url: request.url,
      headers: headersOf(request.headers),
      body: sentText === undefined || sentText === '' ? { type: 'none' } : { type: 'bytes', data: new TextEncoder().encode(sentText) },
    });
    const entry: HistoryEntry = { id: this.newId('h'), at: exchange.startedAt.toISOString(), requestId, request: sent.request, redacted: sent.masked };
    if (response) {
      const bytes = contentBytes(response.content) ?? new Uint8Array(0);
      const pairs = carriedPairs(exchange);
      let reflected = false;
      const recorded = recordResponse({
        status: response.status,
        statusText: response.statusText,
        headers: headersOf(response.headers),
        body: { bytes, size: Math.max(bytes.byteLength, response.content.size ?? 0) },
        url: request.url,
        timing: { total: exchange.timeMs ?? 0 },
      }, (text) => {
        const out = pairs.length === 0 ? text : replaceSecretValues(text, pairs);
        reflected ||= out !== text;
        return out;
      });
      entry.response = recorded.response;
      entry.redacted = sent.masked || recorded.masked || reflected;
    } else {
      entry.error = { code: 'no-response', message: 'The capture recorded no response: the request failed, was blocked or was cancelled.' };
    }
    const size = sizeOf(entry);
    this.entries.push({ entry, bytes: size, at: exchange.startedAt.getTime(), order: this.entries.length });
    this.bytes += size;
    if (this.bytes > 2 * this.budget) this.trim();
  }

  /** The entries kept, oldest first. */
  finish(): HistoryEntry[] {
    this.trim();
    return this.entries.sort((a, b) => a.at - b.at || a.order - b.order).map((e) => e.entry);
  }

  /** Keeps the newest entries within the budget. */
  private trim(): void {
    this.entries.sort((a, b) => b.at - a.at || b.order - a.order);
    let total = 0;
    let keep = 0;
    while (keep < this.entries.length && total + this.entries[keep]!.bytes <= this.budget) total += this.entries[keep++]!.bytes;
    this.leftOut += this.entries.length - keep;
    this.entries.length = keep;
    this.bytes = total;
  }
}

export class ExampleRecorder {
  private readonly byRequest = new Map<string, Map<number, Example>>();
  private bytes = 0;
  /** Responses that would have been examples but did not fit the import's budget. */
  leftOut = 0;

  constructor(private readonly now: () => Date, private readonly budget = EXAMPLES_BUDGET_BYTES) {}

  add(exchange: HarExchange, requestId: string): void {
    const response = exchange.response;
    if (!response || response.status > 999) return;
    let kept = this.byRequest.get(requestId);
    if (!kept) this.byRequest.set(requestId, (kept = new Map()));
    if (kept.has(response.status) || kept.size >= EXAMPLE_LIMIT) return;
    const body = contentBytes(response.content) ?? new Uint8Array(0);
    const at = (exchange.startedAt ?? this.now()).toISOString();
    const example = recordExample({ status: response.status, statusText: response.statusText, headers: headersOf(response.headers), body, size: Math.max(body.byteLength, response.content.size ?? 0) }, at, carriedPairs(exchange));
    if (this.bytes + example.body.byteLength > this.budget) {
      this.leftOut++;
      return;
    }
    this.bytes += example.body.byteLength;
    kept.set(response.status, example);
  }

  finish(): { examples: ImportedExample[]; masked: { request: string; status: number }[] } {
    const examples: ImportedExample[] = [];
    const masked: { request: string; status: number }[] = [];
    for (const [request, kept] of this.byRequest) {
      for (const example of [...kept.values()].sort((a, b) => a.status - b.status)) {
        examples.push({ request, example });
        if (example.masked) masked.push({ request, status: example.status });
      }
    }
    return { examples, masked };
  }
}

/**
 * The credential values a captured exchange carried in its headers (its cookies, Authorization,
 * Set-Cookie...), masked by value wherever its response reflects them, as a live send's are
 * (protocol/credentials/carried.ts).
 */
function carriedPairs(exchange: HarExchange): [string, string][] {
  const { request, response } = exchange;
  return carriedReplacements(carriedValues({ url: request.url, request: headersOf(request.headers), responses: response ? [headersOf(response.headers)] : [] }));
}

function sizeOf(entry: HistoryEntry): number {
  let n = 256 + entry.request.url.length + entry.request.body.length;
  for (const [a, b] of entry.request.headers) n += a.length + b.length;
  if (entry.response) {
    n += entry.response.body.length;
    for (const [a, b] of entry.response.headers) n += a.length + b.length;
  }
  return n;
}
