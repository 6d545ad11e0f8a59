import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderedRequest } from '../../../protocol/project/tree-order.js';
import { openDataFile, type DataRow } from './data-file.js';
import { runEngine, type EnginePlan, type StartRequest } from './engine.js';
import type { RequestOutcome, RunEvent, RunSummary } from './report.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const requests: OrderedRequest[] = ['login', 'create', 'fetch'].map((name, i) => ({ id: `r${i}`, name, apiId: 'a', apiName: 'API', folders: [] }));
const plan = (over: Partial<EnginePlan> = {}): EnginePlan => ({ project: 'P', requests, iterations: 2, delayMs: 0, bail: false, ...over });

function outcomeOf(item: OrderedRequest, iteration: number, row: DataRow | undefined, failed = false): RequestOutcome {
  return {
    iteration,
    ...(row ? { row: `row ${row.number}` } : {}),
    request: { id: item.id, name: item.name, path: `API/${item.name}`, api: 'API', folders: [], method: 'GET', url: `http://127.0.0.1/${item.name}?i=${iteration}` },
    response: { status: 200, statusText: 'OK', timeMs: 1.5, size: 20 },
    assertions: [{ index: 0, label: 'status equals 200', passed: !failed, message: failed ? 'got 500' : '' }],
    failed,
  };
}

/** A StartRequest that logs each step: resolved, on the wire, response in, outcome complete. */
function loggingStart(log: string[], failing = new Set<string>()): StartRequest {
  return ({ item, iteration, row, gate }) => {
    const key = `${item.name}#${iteration}`;
    log.push(`resolve ${key}`);
    let onWire!: () => void;
    const wire = new Promise<void>((resolve) => (onWire = resolve));
    const outcome = (async () => {
      await gate;
      log.push(`send ${key}`);
      await turn();
      log.push(`response ${key}`);
      onWire();
      await turn();
      await turn();
      log.push(`outcome ${key}`);
      return outcomeOf(item, iteration, row, failing.has(key));
    })();
    return { wire, outcome };
  };
}

async function events(gen: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

let work: string;
beforeAll(async () => void (work = await mkdtemp(join(tmpdir(), 'parley-run-engine-'))));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('the run engine', () => {
  it('puts one request on the wire at a time, in order, resolving the next while one is out', async () => {
    const log: string[] = [];
    const all = await events(runEngine(plan(), loggingStart(log), new AbortController().signal));
    const outcomes = all.flatMap((e) => (e.type === 'outcome' ? [`${e.outcome.request.name}#${e.outcome.iteration}`] : []));
    expect(outcomes).toEqual(['login#1', 'create#1', 'fetch#1', 'login#2', 'create#2', 'fetch#2']);
    const sends = log.filter((l) => l.startsWith('send ')).map((l) => l.slice(5));
    expect(sends).toEqual(outcomes);
    for (let i = 1; i < sends.length; i++) {
      // Never two on the wire: each goes once the response before it is in...
      expect(log.indexOf(`send ${sends[i]}`)).toBeGreaterThan(log.indexOf(`response ${sends[i - 1]}`));
      // ...and was resolved before the previous outcome was complete.
      expect(log.indexOf(`resolve ${sends[i]}`)).toBeLessThan(log.indexOf(`outcome ${sends[i - 1]}`));
    }
    const summary = (all.at(-1) as Extract<RunEvent, { type: 'finished' }>).summary;
    expect(summary).toMatchObject({ iterations: 2, requests: 6, failed: 0, errors: 0, assertions: { total: 6, failed: 0 }, bailed: false, interrupted: false });
    expect(all[0]).toMatchObject({ type: 'started', start: { project: 'P', requestsPerIteration: 3, iterations: 2 } });
  });

  it('with --bail, waits for each whole outcome and sends nothing after the first failure', async () => {
    const log: string[] = [];
    const all = await events(runEngine(plan({ bail: true }), loggingStart(log, new Set(['create#1'])), new AbortController().signal));
    expect(log.filter((l) => l.startsWith('send ')).map((l) => l.slice(5))).toEqual(['login#1', 'create#1']);
    expect(log.indexOf('resolve create#1')).toBeGreaterThan(log.indexOf('outcome login#1'));
    expect((all.at(-1) as Extract<RunEvent, { type: 'finished' }>).summary).toMatchObject({ requests: 2, failed: 1, bailed: true });
  });

  it('runs one iteration per data row, takes rows in turn for more iterations, and stops at a row that does not read', async () => {
    const file = join(work, 'rows.csv');
    await writeFile(file, 'user\nann\nbob\n');
    const rowsOf = (all: RunEvent[]) => all.flatMap((e) => (e.type === 'outcome' && e.outcome.request.name === 'login' ? [`${e.outcome.iteration}:${e.outcome.row}`] : []));
    const perRow = await events(runEngine(plan({ iterations: undefined, data: await openDataFile(file) }), loggingStart([]), new AbortController().signal));
    expect(rowsOf(perRow)).toEqual(['1:row 1', '2:row 2']);
    expect(perRow[0]).toMatchObject({ start: { data: file } });
    expect((perRow.at(-1) as Extract<RunEvent, { type: 'finished' }>).summary).toMatchObject({ iterations: 2, requests: 6 });
    const inTurn = await events(runEngine(plan({ iterations: 5, data: await openDataFile(file) }), loggingStart([]), new AbortController().signal));
    expect(rowsOf(inTurn)).toEqual(['1:row 1', '2:row 2', '3:row 1', '4:row 2', '5:row 1']);

    const bad = join(work, 'bad.csv');
    await writeFile(bad, 'user,team\nann,a\nbob,b\n"carl,c\n');
    const stopped = await events(runEngine(plan({ iterations: undefined, data: await openDataFile(bad) }), loggingStart([]), new AbortController().signal));
    expect(rowsOf(stopped)).toEqual(['1:row 1', '2:row 2']);
    const summary = (stopped.at(-1) as Extract<RunEvent, { type: 'finished' }>).summary;
    expect(summary).toMatchObject({ iterations: 2, requests: 6, error: { code: 'bad-input' } });
    expect(summary.error!.message).toMatch(/bad.csv is not valid CSV: Quote Not Closed/);

    const empty = join(work, 'empty.json');
    await writeFile(empty, '[]');
    const none = await events(runEngine(plan({ iterations: undefined, data: await openDataFile(empty) }), loggingStart([]), new AbortController().signal));
    expect((none.at(-1) as Extract<RunEvent, { type: 'finished' }>).summary).toMatchObject({ requests: 0, error: { message: `--data ${empty} has no rows.` } });
  });

  it('resolves the request after one that captures only once its captures are set, and counts the captures in the totals', async () => {
    const log: string[] = [];
    const start: StartRequest = ({ item, iteration, row, gate, ready }) => {
      const key = `${item.name}#${iteration}`;
      let onWire!: () => void;
      let onCaptured!: () => void;
      const wire = new Promise<void>((resolve) => (onWire = resolve));
      const captured = new Promise<void>((resolve) => (onCaptured = resolve));
      const capturing = item.name === 'login';
      const outcome = (async () => {
        await ready;
        log.push(`resolve ${key}`);
        await gate;
        log.push(`send ${key}`);
        await turn();
        onWire();
        await turn();
        if (capturing) log.push(`captured ${key}`);
        onCaptured();
        await turn();
        const captures = capturing ? [{ index: 0, name: 'token', label: '$.token (JSON body)', scope: 'session' as const, ok: iteration === 1, ...(iteration === 1 ? { value: '••••••', credential: true } : {}), message: iteration === 1 ? '' : 'nothing found at $.token' }] : undefined;
        return { ...outcomeOf(item, iteration, row, capturing && iteration === 2), ...(captures ? { captures } : {}) };
      })();
      return { wire, outcome, ...(capturing ? { captured } : {}) };
    };
    const all = await events(runEngine(plan(), start, new AbortController().signal));
    for (const iteration of [1, 2]) expect(log.indexOf(`resolve create#${iteration}`)).toBeGreaterThan(log.indexOf(`captured login#${iteration}`));
    // A request without captures holds nothing up: fetch is resolved while create is still out.
    expect(log.indexOf('resolve fetch#1')).toBeLessThan(log.indexOf('send fetch#1'));
    expect((all.at(-1) as Extract<RunEvent, { type: 'finished' }>).summary).toMatchObject({ requests: 6, failed: 1, captures: { total: 2, failed: 1 } });
  });

  it('stops sending when the signal aborts, and counts no cancelled send', async () => {
    const stop = new AbortController();
    const start: StartRequest = ({ item, iteration, row, gate, signal }) => {
      const outcome = gate.then(() => (signal.aborted ? { ...outcomeOf(item, iteration, row, true), error: { code: 'cancelled', message: 'stopped' } } : outcomeOf(item, iteration, row)));
      return { wire: outcome.then(() => undefined), outcome };
    };
    const seen: string[] = [];
    let summary: RunSummary | undefined;
    for await (const e of runEngine(plan({ iterations: 1000 }), start, stop.signal)) {
      if (e.type === 'outcome') {
        seen.push(e.outcome.request.name);
        if (seen.length === 4) stop.abort();
      }
      if (e.type === 'finished') summary = e.summary;
    }
    expect(seen.length).toBeLessThanOrEqual(5);
    expect(summary).toMatchObject({ interrupted: true, requests: seen.length });
  });
});
