/**
 * The sender keeps an event stream's rows and sends on only what some holder can keep or the live
 * pane shows: the first 400 and the newest 5,000, coalesced into one batch at most every BATCH_MS
 * with the true counts; its records are the retentions' own. The batch's columns give back the
 * rows exactly (names, ids, kinds, arrival times, gaps in the numbering).
 */
import { describe, expect, it } from 'vitest';
import { lastRowNumber, newestRows, packRows, STREAM_LIMITS, unpackRows, type RowBatch, type StreamRow } from '../../../protocol/model/stream.js';
import { until } from '../../../test/support/until.js';
import { BATCH_MS, StreamKeeper, TAKEN_TIMEOUT_MS } from './stream-keeper.js';
import { RowRetention } from './stream-retention.js';

const row = (n: number): StreamRow => ({ n, at: 1_700_000_000_000 + n, kind: 'event', data: `d${n}` });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Feeds rows from..to in parse-sized batches of 1,000. */
function feed(keeper: StreamKeeper, from: number, to: number): void {
  for (let start = from; start <= to; start += 1_000) keeper.add(range(start, Math.min(to, start + 999)).map(row));
}

describe('the sender\'s keeper of a stream', () => {
  it('sends the first 400 and the newest 5,000 of what arrived between two batches, with the true counts, at once when BATCH_MS have passed', async () => {
    const batches: RowBatch[] = [];
    const keeper = new StreamKeeper((b) => batches.push(b));
    // The first rows go at once; what arrives within BATCH_MS after waits for the next batch.
    keeper.add([row(1)]);
    expect(batches).toHaveLength(1);
    // One parse's rows (one add): at its end, or when BATCH_MS are up, they go as one batch.
    keeper.add(range(2, 20_000).map(row));
    await until(() => batches.length === 2);
    const sent = unpackRows(batches[1]!).map((r) => r.n);
    expect(sent).toEqual([...range(2, 400), ...range(15_001, 20_000)]);
    expect(batches[1]).toMatchObject({ total: 20_000, events: 20_000 });
    keeper.add(range(20_001, 20_010).map(row));
    await until(() => batches.length === 3);
    expect(unpackRows(batches[2]!).map((r) => r.n)).toEqual(range(20_001, 20_010));
    expect(batches[2]!.total).toBe(20_010);
    keeper.end('ended');
  });

  it('sends at most one batch every BATCH_MS, and the last one when the stream ends', async () => {
    const at: number[] = [];
    const keeper = new StreamKeeper(() => at.push(performance.now()));
    for (let n = 1; n <= 40; n++) {
      keeper.add([row(n)]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => at.length >= 1);
    const before = at.length;
    keeper.add([row(41)]);
    keeper.end('ended');
    expect(at.length).toBe(before + 1);
    for (let i = 1; i < at.length - 1; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(BATCH_MS - 2);
  });

  it('once the receiver says it took a batch, waits for that before the next (or TAKEN_TIMEOUT_MS), letting go of rows meanwhile', async () => {
    const batches: RowBatch[] = [];
    const sentAt: number[] = [];
    const keeper = new StreamKeeper((b) => (batches.push(b), sentAt.push(performance.now())));
    keeper.add([row(1)]);
    keeper.taken();
    keeper.add(range(2, 401).map(row));
    await until(() => batches.length === 2);
    // Batch 2 is not taken: 12,000 rows wait, and only the newest 5,000 are still there when it is.
    keeper.add(range(402, 12_401).map(row));
    await new Promise((resolve) => setTimeout(resolve, BATCH_MS * 3));
    expect(batches).toHaveLength(2);
    keeper.taken();
    await until(() => batches.length === 3);
    expect(unpackRows(batches[2]!).map((r) => r.n)).toEqual(range(7_402, 12_401));
    // Not taken again: the next batch goes after TAKEN_TIMEOUT_MS all the same.
    keeper.add([row(12_402)]);
    await until(() => batches.length === 4, TAKEN_TIMEOUT_MS * 5);
    expect(sentAt[3]! - sentAt[2]!).toBeGreaterThanOrEqual(TAKEN_TIMEOUT_MS - BATCH_MS);
    keeper.end('ended');
  });

  it('keeps by the retentions\' rules: its records are what the finished stream and History keep of every row', () => {
    const keeper = new StreamKeeper(() => {});
    const finished = new RowRetention(STREAM_LIMITS.finished);
    const history = new RowRetention(STREAM_LIMITS.history);
    // Rows of growing size, so the byte budgets matter too.
    const rows = range(1, 12_000).map((n) => ({ ...row(n), data: 'x'.repeat((n % 97) * 40) }));
    keeper.add(rows);
    for (const r of rows) {
      finished.add(r);
      history.add(r);
    }
    const kept = keeper.end('stopped', { code: 'protocol-error', message: 'dropped' });
    expect(kept.finished).toEqual(finished.record('stopped', { code: 'protocol-error', message: 'dropped' }));
    expect(kept.history).toEqual(history.record('stopped', { code: 'protocol-error', message: 'dropped' }));
  });

  it('leaves large rows still waiting at the end to the answer, which carries them: they do not cross twice', async () => {
    const batches: RowBatch[] = [];
    const keeper = new StreamKeeper((b) => batches.push(b));
    keeper.add([row(1)]);
    // Taken once: batch 2 then waits to be taken (up to a second), so rows 3 and 4 are still waiting at the end.
    keeper.taken();
    keeper.add([row(2)]);
    await until(() => batches.length === 2);
    keeper.add([3, 4].map((n) => ({ ...row(n), data: 'x'.repeat(700 * 1024) })));
    const kept = keeper.end('ended');
    expect(batches).toHaveLength(2);
    expect(batches.flatMap((b) => unpackRows(b).map((r) => r.n))).not.toContain(4);
    expect(kept.finished.rows.map((r) => r.n)).toEqual([1, 2, 3, 4]);
  });

  it('without a batch callback only keeps', async () => {
    const keeper = new StreamKeeper();
    feed(keeper, 1, 3_000);
    expect(keeper.end('ended').finished.total).toBe(3_000);
  });
});

describe('a batch of rows as columns', () => {
  it('gives back the rows exactly: kinds, names, ids, times and gaps in the numbering', () => {
    const rows: StreamRow[] = [
      { n: 1, at: 1_700_000_000_000, kind: 'comment', data: 'hello' },
      { n: 2, at: 1_700_000_000_003, kind: 'retry', data: '3000' },
      { n: 3, at: 1_700_000_000_003, kind: 'event', name: 'tick', id: '7', data: 'a\nb' },
      { n: 9, at: 1_700_000_000_001, kind: 'event', data: '' },
      { n: 10, at: 1_700_000_000_020, kind: 'event', id: '', data: '{"x":1}' },
    ];
    const batch = packRows(rows, 12, 9);
    expect(batch.runs).toEqual([1, 3, 9, 2]);
    expect(unpackRows(batch)).toEqual(rows);
    expect(batch).toMatchObject({ total: 12, events: 9 });
    expect(unpackRows(packRows([], 0, 0))).toEqual([]);
  });

  it('refuses a batch whose columns disagree', () => {
    const batch = packRows([row(1), row(2)], 2, 2);
    expect(() => unpackRows({ ...batch, data: ['one'] })).toThrow(/columns disagree/);
    expect(() => unpackRows({ ...batch, runs: [1, 3] })).toThrow(/outrun/);
    expect(() => unpackRows({ ...batch, runs: [0, 2] })).toThrow(/numbered 0/);
    expect(() => unpackRows({ ...batch, kinds: 'ez' })).toThrow(/unknown row kind/);
    expect(() => unpackRows({ ...batch, runs: [1, 1] })).toThrow(/do not cover/);
  });
});

describe('the newest rows of several batches', () => {
  it('are one batch of the newest rows, numbers and times exact, with the last batch\'s counts', () => {
    const rows = range(1, 30).map((n) => ({ ...row(n), at: 1_700_000_000_000 + ((n * 37) % 11) }));
    const batches = [packRows(rows.slice(0, 10), 10, 10), packRows([...rows.slice(10, 12), ...rows.slice(15, 20)], 20, 19), packRows(rows.slice(20), 30, 28)];
    const kept = [...rows.slice(0, 12), ...rows.slice(15)];
    for (const max of [0, 3, 10, 14, 17, 100]) {
      const newest = newestRows(batches, max);
      expect(unpackRows(newest)).toEqual(max === 0 ? [] : kept.slice(-max));
      expect(newest).toMatchObject({ total: 30, events: 28 });
    }
    expect(lastRowNumber(batches[1]!)).toBe(20);
    expect(lastRowNumber(packRows([], 0, 0))).toBe(0);
  });
});

