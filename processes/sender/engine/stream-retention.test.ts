/**
 * Stream retention at SPEC's exact boundaries: a finished stream keeps the first 400 and the last
 * 4,600 rows (5,000 kept whole, the 5,001st lets row 401 go) within 32 MB of event data; History
 * keeps the first 400 and last 100 within 1 MB; the total always counts every row.
 */
import { describe, expect, it } from 'vitest';
import { STREAM_LIMITS, type StreamRow } from '../../../protocol/model/stream.js';
import { RowRetention, rowBytes } from './stream-retention.js';

const MB = 1024 * 1024;

function row(n: number, data = `d${n}`, kind: StreamRow['kind'] = 'event'): StreamRow {
  return { n, at: 0, kind, data };
}

function feed(retention: RowRetention, count: number, data?: (n: number) => string): RowRetention {
  for (let n = 1; n <= count; n++) retention.add(row(n, data ? data(n) : `d${n}`));
  return retention;
}

const numbers = (r: RowRetention) => r.rows().map((x) => x.n);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('a finished stream, the HTTP Log and HAR export: first 400 and last 4,600 within 32 MB', () => {
  const finished = () => new RowRetention(STREAM_LIMITS.finished);

  it('keeps a stream of exactly 5,000 rows whole', () => {
    const r = feed(finished(), 5_000);
    expect(numbers(r)).toEqual(range(1, 5_000));
    expect(r.record('ended')).toMatchObject({ total: 5_000, events: 5_000, notKept: 0 });
  });

  it('lets row 401 go at the 5,001st row: the first 400 stay, the last 4,600 turn over', () => {
    const r = feed(finished(), 5_001);
    expect(numbers(r)).toEqual([...range(1, 400), ...range(402, 5_001)]);
    expect(r.record('ended')).toMatchObject({ total: 5_001, notKept: 1 });
  });

  it('keeps exactly 400 first rows however long the stream, and counts every row', () => {
    const r = feed(finished(), 20_000);
    const kept = numbers(r);
    expect(kept).toHaveLength(5_000);
    expect(kept.slice(0, 400)).toEqual(range(1, 400));
    expect(kept.slice(400)).toEqual(range(15_401, 20_000));
    expect(r.record('stopped', { code: 'x', message: 'y' })).toMatchObject({ state: 'stopped', error: { code: 'x', message: 'y' }, total: 20_000, notKept: 15_000 });
  });

  it('holds rows of exactly 32 MB of data whole, and lets one go past it', () => {
    const data = 'x'.repeat(MB);
    const r = feed(finished(), 32, () => data);
    expect(r.keptBytes).toBe(32 * MB);
    expect(r.kept).toBe(32);
    r.add(row(33, 'y'));
    expect(r.kept).toBe(32);
    expect(r.keptBytes).toBeLessThanOrEqual(32 * MB);
    // The newest row stays; one of the first rows went (they used more than their share).
    expect(numbers(r)).toEqual([...range(1, 31), 33]);
  });

  it('stays within 32 MB over a long stream of large rows, keeping both ends', () => {
    const r = feed(finished(), 2_000, () => 'z'.repeat(40_000));
    expect(r.keptBytes).toBeLessThanOrEqual(32 * MB);
    const kept = numbers(r);
    expect(kept[0]).toBe(1);
    expect(kept.at(-1)).toBe(2_000);
    // The first rows shrank to their share of the budget (400 / 5,000 of 32 MB).
    const firstBytes = r.rows().filter((x) => x.n <= 400).reduce((sum, x) => sum + rowBytes(x), 0);
    expect(firstBytes).toBeLessThanOrEqual((32 * MB * 400) / 5_000);
    expect(r.record('ended').notKept).toBe(2_000 - kept.length);
  });

  it('counts data, name and id in UTF-8 bytes', () => {
    expect(rowBytes({ n: 1, at: 0, kind: 'event', name: 'né', id: '7', data: '€' })).toBe(3 + 1 + 3);
  });

  it('does not keep a single row larger than the whole budget, but counts it', () => {
    const r = new RowRetention({ first: 2, last: 2, bytes: 10 });
    r.add(row(1, 'abc'));
    r.add(row(2, 'x'.repeat(11)));
    r.add(row(3, 'def'));
    expect(numbers(r)).toEqual([1, 3]);
    expect(r.record('ended')).toMatchObject({ total: 3, notKept: 1 });
  });
});

describe('History: first 400 and last 100 within 1 MB', () => {
  const history = () => new RowRetention(STREAM_LIMITS.history);

  it('keeps exactly 500 rows whole and lets row 401 go at the 501st', () => {
    expect(numbers(feed(history(), 500))).toEqual(range(1, 500));
    const r = feed(history(), 501);
    expect(numbers(r)).toEqual([...range(1, 400), ...range(402, 501)]);
    expect(r.record('ended').notKept).toBe(1);
  });

  it('keeps 1 MB exactly, and stays within 1 MB past it, saying how many rows it did not keep', () => {
    const exact = feed(history(), 4, () => 'q'.repeat(MB / 4));
    expect(exact.keptBytes).toBe(MB);
    expect(exact.kept).toBe(4);
    const r = feed(history(), 1_000, () => 'q'.repeat(5_000));
    expect(r.keptBytes).toBeLessThanOrEqual(MB);
    const kept = numbers(r);
    expect(kept[0]).toBe(1);
    expect(kept.at(-1)).toBe(1_000);
    expect(kept.filter((n) => n > 400).length).toBeLessThanOrEqual(100);
    expect(r.record('ended')).toMatchObject({ total: 1_000, notKept: 1_000 - kept.length });
  });

  it('counts comments and retry fields as rows and events apart', () => {
    const r = history();
    r.add(row(1, 'hi', 'comment'));
    r.add(row(2, '3000', 'retry'));
    r.add(row(3, 'e'));
    expect(r.record('ended')).toMatchObject({ total: 3, events: 1, notKept: 0 });
  });
});
