import { afterEach, describe, expect, it, vi } from 'vitest';
import { RUN_ROW_CAPTURES, RUN_ROW_FAILURES, RUN_ROWS_KEPT, RUN_ROWS_PER_EVENT } from '../../../protocol/model/run.js';
import { AppRun, EVENT_MS, rowOf } from './app-run.js';
import type { RequestOutcome, RunSummary } from './report.js';

const outcome = (id: string, failed: boolean, iteration = 1): RequestOutcome => ({
  iteration,
  request: { id, name: id, path: `API/${id}`, api: 'API', folders: [], method: 'GET', url: `http://127.0.0.1/${id}` },
  response: { status: failed ? 500 : 200, statusText: '', timeMs: 1, size: 2 },
  assertions: [{ index: 0, label: 'status equals 200', passed: !failed, message: failed ? 'got 500' : '' }],
  failed,
});

const summary = (requests: number): RunSummary => ({
  project: 'P',
  iterations: 1,
  requests,
  failed: 0,
  errors: 0,
  assertions: { total: 0, failed: 0 },
  contractFailures: 0,
  bailed: false,
  interrupted: false,
  durationMs: 1,
  startedAt: new Date().toISOString(),
});

function started(requests = ['a', 'b', 'c']) {
  const events: { type: string; payload: unknown }[] = [];
  const run = new AppRun({ id: 'run_1', project: '/p', projectName: 'P', scope: 'api', requests, delayMs: 0, dir: '/tmp/none' }, (type, payload) => void events.push({ type, payload }));
  return { run, events };
}

afterEach(() => void vi.useRealTimers());

describe('a run of the app', () => {
  it('tells the pages in batches: at most one event per EVENT_MS, its newest rows, the rest counted', () => {
    vi.useFakeTimers();
    const { run, events } = started();
    for (let i = 0; i < 10_000; i++) run.outcome(outcome('b', i % 2 === 0), { done: i + 1, total: 10_000 });
    expect(events).toEqual([]);
    vi.advanceTimersByTime(EVENT_MS);
    expect(events).toHaveLength(1);
    const event = events[0]!.payload as { rows: { n: number }[]; skipped: number; totals: { requests: number; failed: number } };
    expect(event.rows).toHaveLength(RUN_ROWS_PER_EVENT);
    expect(event.rows.at(-1)!.n).toBe(10_000);
    expect(event.skipped).toBe(10_000 - RUN_ROWS_PER_EVENT);
    expect(event.totals).toMatchObject({ requests: 10_000, failed: 5_000 });
    // What a page opening the runner now is given is bounded too.
    expect(run.state().rows).toHaveLength(RUN_ROWS_KEPT);
    expect(run.state().rows[0]!.n).toBe(10_000 - RUN_ROWS_KEPT + 1);
  });

  it('sends its last rows before it says it finished, with what failed in run order', () => {
    const { run, events } = started();
    run.outcome(outcome('c', true), { done: 1 });
    run.outcome(outcome('a', true), { done: 2 });
    run.outcome(outcome('b', false), { done: 3 });
    run.finished(summary(3));
    expect(events.map((e) => e.type)).toEqual(['run.progress', 'run.finished']);
    expect(events[1]!.payload).toMatchObject({ run: 'run_1', failedRequests: ['a', 'c'] });
    expect(run.state()).toMatchObject({ running: false, failedRequests: ['a', 'c'], summary: { requests: 3 } });
    // Nothing more once it ended.
    run.failedWith(new Error('late'));
    expect(events).toHaveLength(2);
  });

  it('ends with an error as its summary when the run itself failed, and says its reports cannot be exported', () => {
    const { run, events } = started();
    run.outcome(outcome('a', false), { done: 1 });
    run.failedWith(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', payload: { summary: { requests: 1, error: { code: 'ENOSPC' } } } });
    expect(run.reportsMissing).toMatch(/no space left/);
  });

  it('names the first failures of an outcome and counts the rest', () => {
    const many = { ...outcome('a', true), assertions: Array.from({ length: 30 }, (_, index) => ({ index, label: `#${index}`, passed: index % 3 !== 0, message: 'no' })) };
    const problems = Array.from({ length: 25 }, (_, i) => ({ pointer: `/${i}`, message: 'bad' }));
    const row = rowOf({ ...many, contract: { kind: 'problems', label: 'Contract: 25 problems', problems } }, 7);
    expect(row.assertions).toMatchObject({ total: 30, failed: 10 });
    expect(row.assertions.failures).toHaveLength(10);
    expect(row.contract!.problems).toHaveLength(RUN_ROW_FAILURES);
    expect(row.contract!.more).toBe(5);
  });

  it("carries an outcome's captures on its row (the first RUN_ROW_CAPTURES) and counts them in the totals", () => {
    const captures = Array.from({ length: 25 }, (_, index) => ({ index, name: `v${index}`, label: `$.v${index} (JSON body)`, scope: 'session' as const, ok: index !== 3, ...(index !== 3 ? { value: String(index) } : {}), message: index === 3 ? 'nothing found at $.v3' : '' }));
    const row = rowOf({ ...outcome('login', true), captures }, 1);
    expect(row.captures).toHaveLength(RUN_ROW_CAPTURES);
    expect(row.captures![3]).toMatchObject({ name: 'v3', ok: false, message: 'nothing found at $.v3' });
    const { run } = started(['login']);
    run.outcome({ ...outcome('login', true), captures }, { done: 1 });
    expect(run.state().totals.captures).toEqual({ total: 25, failed: 1 });
  });
});

