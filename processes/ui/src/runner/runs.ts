/**
 * The runs this page shows, as the supervisor tells them (`run.start`, `run.latest`, the
 * `run.progress` and `run.finished` events): each run's totals, its newest PAGE_ROWS rows, and its
 * summary once it ends. Events can arrive before `run.start`'s answer; whichever comes first
 * makes the entry, and rows are put together by their number, never twice.
 */
import { effect, signal } from '@preact/signals';
import type { RunFinishedEvent, RunProgressEvent, RunRow, RunState, RunSummary, RunTotals } from '../../../../protocol/model/run.js';
import { peer } from '../state/app.js';

/** Rows a run keeps on the page; the reports have every one. */
export const PAGE_ROWS = 1000;

export interface PageRun {
  id: string;
  /** What the supervisor said of it when it started or was found (absent while only its events have come). */
  state: RunState | null;
  running: boolean;
  progress: RunState['progress'];
  totals: RunTotals;
  rows: RunRow[];
  summary: RunSummary | null;
  failedRequests: string[];
}

export const pageRuns = signal<ReadonlyMap<string, PageRun>>(new Map());

const EMPTY_TOTALS: RunTotals = { requests: 0, failed: 0, errors: 0, assertions: { total: 0, failed: 0 }, contractFailures: 0 };

function put(run: PageRun): void {
  const next = new Map(pageRuns.value);
  next.set(run.id, run);
  pageRuns.value = next;
}

function blank(id: string): PageRun {
  return { id, state: null, running: true, progress: { done: 0 }, totals: EMPTY_TOTALS, rows: [], summary: null, failedRequests: [] };
}

/** Rows of both, in order, each once, the newest PAGE_ROWS. */
function mergeRows(have: readonly RunRow[], more: readonly RunRow[]): RunRow[] {
  const last = have.at(-1)?.n ?? 0;
  const merged = more.length > 0 && more[0]!.n > last ? [...have, ...more] : [...new Map([...have, ...more].map((r) => [r.n, r])).values()].sort((a, b) => a.n - b.n);
  return merged.length > PAGE_ROWS ? merged.slice(-PAGE_ROWS) : merged;
}

/** A run's state from `run.start` or `run.latest`. */
export function adoptRun(state: RunState): PageRun {
  const had = pageRuns.value.get(state.run);
  const ended = had && !had.running;
  const newer = had && had.totals.requests > state.totals.requests;
  const run: PageRun = {
    id: state.run,
    state,
    running: ended ? false : state.running,
    progress: newer ? had.progress : state.progress,
    totals: newer ? had.totals : state.totals,
    rows: mergeRows(had?.rows ?? [], state.rows),
    summary: had?.summary ?? state.summary ?? null,
    failedRequests: ended ? had.failedRequests : state.failedRequests,
  };
  put(run);
  return run;
}

function progressed(e: RunProgressEvent): void {
  const had = pageRuns.value.get(e.run) ?? blank(e.run);
  put({ ...had, progress: e.progress, totals: e.totals, rows: mergeRows(had.rows, e.rows) });
}

function finished(e: RunFinishedEvent): void {
  const had = pageRuns.value.get(e.run) ?? blank(e.run);
  put({ ...had, running: false, summary: e.summary, failedRequests: e.failedRequests });
}

/** Listens on each connection to Parley (a reconnect makes a new one). */
export function listenForRuns(): void {
  effect(() => {
    const current = peer.value;
    if (!current) return;
    const offs = [current.on('run.progress', progressed), current.on('run.finished', finished)];
    return () => offs.forEach((off) => off());
  });
}
