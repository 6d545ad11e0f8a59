import { describe, expect, it } from 'vitest';
import type { ResponseHead } from '../../../../protocol/model/exchange.js';
import { packRows, STREAM_LIMITS, type StreamRow } from '../../../../protocol/model/stream.js';
import { LiveStream, onStreamProgress, shownRows } from './live-stream.js';

const head: ResponseHead = { status: 200, statusText: 'OK', httpVersion: '1.1', headers: [['content-type', 'text/event-stream']], hops: [], raw: { request: '', response: '' }, url: 'http://127.0.0.1/', remoteAddress: '' };
const event = (n: number): StreamRow => ({ n, at: n, kind: 'event', data: `d${n}` });
const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => event(from + i));

describe('the live Events pane', () => {
  it('holds the newest 5,000 rows and shows the true counts it is given', () => {
    const live = new LiveStream('s', head);
    live.add(rows(1, 3_000), 3_000, 3_000);
    live.add(rows(3_001, 5_000), 5_000, 5_000);
    expect(live.rows).toHaveLength(STREAM_LIMITS.liveRows);
    live.add(rows(5_001, 5_001), 5_001, 5_001);
    expect(live.rows).toHaveLength(STREAM_LIMITS.liveRows);
    expect(live.rows[0]!.n).toBe(2);
    expect(live.rows.at(-1)!.n).toBe(5_001);
    // A batch that left rows out (the supervisor sends at most the newest 5,000): the counts are the true ones.
    live.add(rows(15_002, 20_001), 20_001, 19_990);
    expect(live.rows[0]!.n).toBe(15_002);
    expect(live.total.value).toBe(20_001);
    expect(live.events.value).toBe(19_990);
  });

  it('redraws once per batch, not once per row', () => {
    const live = new LiveStream('s', head);
    live.add(rows(1, 200), 200, 200);
    live.add(rows(201, 400), 400, 400);
    expect(live.version.value).toBe(2);
  });

  it('is made at the head, then fed the rows of request.send\'s progress', () => {
    let made: LiveStream | null = null;
    onStreamProgress(null, { kind: 'head', stream: 'id-1', head }, (s) => (made = s));
    expect(made!.id).toBe('id-1');
    expect(made!.state.value).toBe('open');
    onStreamProgress(made, { kind: 'batch', batch: packRows(rows(1, 3), 3, 3) }, () => {});
    expect(made!.rows.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it('takes the finished record when it ends: its kept rows, its counts, and a dropped connection\'s error', () => {
    const live = new LiveStream('s', head);
    live.add(rows(1, 10), 10, 10);
    live.finish({ state: 'stopped', error: { code: 'network', message: 'other side closed' }, total: 12, events: 12, rows: rows(1, 12), notKept: 0 });
    expect(live.state.value).toBe('stopped');
    expect(live.error.value?.message).toBe('other side closed');
    expect(live.rows).toHaveLength(12);
    expect(live.total.value).toBe(12);
  });
});

describe('rows as the Events list shows them', () => {
  it('marks where rows were let go, and hides comments and retry fields when asked', () => {
    const kept: StreamRow[] = [{ n: 1, at: 1, kind: 'comment', data: 'hello' }, { n: 2, at: 2, kind: 'retry', data: '3000' }, event(3), event(8), event(9)];
    expect(shownRows(kept, true).map((r) => (r.kind === 'gap' ? `gap ${r.missing}` : r.row.n))).toEqual([1, 2, 3, 'gap 4', 8, 9]);
    expect(shownRows(kept, false).map((r) => (r.kind === 'gap' ? `gap ${r.missing}` : r.row.n))).toEqual([3, 'gap 4', 8, 9]);
    // The live pane's newest rows: the gap says how many came before.
    expect(shownRows(rows(15_001, 15_002), true)[0]).toEqual({ kind: 'gap', missing: 15_000 });
  });
});

describe('the Events tab\'s lists of a live stream', () => {
  const mixed = (from: number, to: number): StreamRow[] => Array.from({ length: to - from + 1 }, (_, i) => (from + i) % 3 === 0 ? { n: from + i, at: 0, kind: 'comment', data: 'c' } : event(from + i));
  const items = (list: { length: number; slice(a: number, b: number): unknown[] }) => list.slice(0, list.length);

  it('are what shownRows makes of the rows held, batch after batch: marks where rows were let go, before the first row too', () => {
    const live = new LiveStream('s', head);
    const batches = [mixed(1, 3_000), mixed(3_001, 4_000), mixed(9_001, 12_000), mixed(12_001, 12_001), mixed(20_000, 26_000)];
    for (const batch of batches) {
      live.add(batch, batch.at(-1)!.n, batch.at(-1)!.n);
      for (const others of [true, false]) expect(items(live.shown(others))).toEqual(shownRows(live.rows, others));
    }
    expect(live.heldCount).toBe(STREAM_LIMITS.liveRows);
    expect(live.rowNumbered(25_000)?.n).toBe(25_000);
    expect(live.rowNumbered(20_000)).toBeUndefined();
    // A window of the list: the virtualized view draws only that.
    expect(live.shown(true).slice(0, 2)).toEqual([{ kind: 'gap', missing: 21_000 }, { kind: 'row', row: live.rows[0] }]);
  });

  it('are rebuilt from the finished record when the stream ends', () => {
    const live = new LiveStream('s', head);
    live.add(mixed(1, 6_000), 6_000, 4_000);
    const record = { state: 'ended' as const, total: 6_000, events: 4_000, rows: [...mixed(1, 400), ...mixed(1_401, 6_000)], notKept: 1_000 };
    live.finish(record);
    expect(live.rows).toBe(record.rows);
    for (const others of [true, false]) expect(items(live.shown(others))).toEqual(shownRows(record.rows, others));
  });
});

