/** History's list form of an entry, and the search over it (URL, method, status and chip). */
import type { HistoryEntry, HistoryQuery, HistorySummary } from '../../../protocol/model/history.js';
import { chipLabel } from '../../../protocol/verdict-label.js';

export function summarize(entry: HistoryEntry): HistorySummary {
  const r = entry.response;
  return {
    id: entry.id,
    at: entry.at,
    requestId: entry.requestId,
    method: entry.request.method,
    url: entry.request.url,
    ...(r ? { status: r.status, statusText: r.statusText, timeMs: r.timeMs, size: r.size } : {}),
    ...(entry.error ? { error: entry.error } : {}),
    ...(entry.verdict ? { verdict: entry.verdict } : {}),
    redacted: entry.redacted,
  };
}

export function matchesQuery(s: HistorySummary, q: HistoryQuery): boolean {
  if (q.requestId !== undefined && s.requestId !== q.requestId) return false;
  if (q.method && s.method.toUpperCase() !== q.method.toUpperCase()) return false;
  if (q.status && !matchesStatus(s, q.status)) return false;
  if (q.chip && (s.verdict?.kind ?? 'none') !== q.chip) return false;
  const words = (q.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [s.method, s.url, s.status ?? '', s.statusText ?? '', s.error?.code ?? '', (s.verdict && chipLabel(s.verdict)) ?? ''].join(' ').toLowerCase();
  return words.every((w) => haystack.includes(w));
}

function matchesStatus(s: HistorySummary, wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  if (w === 'error') return s.status === undefined;
  if (s.status === undefined) return false;
  if (/^[1-5]xx$/.test(w)) return Math.floor(s.status / 100) === Number(w[0]);
  return String(s.status) === w;
}
