import { describe, expect, it } from 'vitest';
import type { ResponseHead, SendProgress } from '../../../protocol/model/exchange.js';
import { packRows, unpackRows, type StreamRow } from '../../../protocol/model/stream.js';
import { until } from '../../../test/support/until.js';
import { FORWARD_MS, MAX_BACKLOG_BYTES, PACE_TIMEOUT_MS, StreamSession } from './stream-session.js';

const head: ResponseHead = { status: 200, statusText: 'OK', httpVersion: '1.1', headers: [], hops: [], raw: { request: '', response: '' }, url: 'http://127.0.0.1/', remoteAddress: '' };
const timing = { dns: 0, connect: 0, tls: 0, send: 0, wait: 0, download: 0, total: 0 };
const rows = (from: number, count: number): StreamRow[] => Array.from({ length: count }, (_, i) => ({ n: from + i, at: 0, kind: 'event' as const, data: 'x' }));
/** A batch from the sender: rows from..from+count-1, every row so far counted. */
const add = (session: StreamSession, from: number, count: number) => session.add(packRows(rows(from, count), from + count - 1, from + count - 1));
type Batch = Extract<SendProgress, { kind: 'batch' }>;
/** The row numbers a batch to the page carries. */
const numbers = (p: Batch) => unpackRows(p.batch).map((r) => r.n);

describe('a stream\'s rows on their way to the page', () => {
  it('go in batches with the true counts', async () => {
    const sent: SendProgress[] = [];
    const session = new StreamSession({ head, timing, forward: (p) => sent.push(p) });
    add(session, 1, 3);
    await until(() => sent.length === 2);
    expect(sent[1]).toMatchObject({ kind: 'batch', batch: { total: 3, events: 3 } });
    session.close();
  });

  it('wait while the page is behind, then go as the newest 5,000 with the true counts', async () => {
    const sent: SendProgress[] = [];
    let backlog = MAX_BACKLOG_BYTES + 1;
    let asked = 0;
    const session = new StreamSession({ head, timing, forward: (p) => sent.push(p), backlog: () => (asked++, backlog) });
    add(session, 1, 4_000);
    add(session, 4_001, 4_000);
    // The session looked at the backlog more than once and held everything.
    await until(() => asked >= 2);
    expect(sent.map((p) => p.kind)).toEqual(['head']);
    backlog = 0;
    await until(() => sent.length === 2);
    const batch = sent[1] as Batch;
    expect(numbers(batch)).toHaveLength(5_000);
    expect(numbers(batch)[0]).toBe(3_001);
    expect(batch.batch).toMatchObject({ total: 8_000, events: 8_000 });
    // Every row that arrived is still held, should the sender die before it answers.
    expect(session.keptSoFar('stopped').finished).toMatchObject({ total: 8_000, notKept: 3_000 });
    session.close();
  });

  it('sends what is pending when the stream ends, however far behind the page is', () => {
    const sent: SendProgress[] = [];
    const session = new StreamSession({ head, timing, forward: (p) => sent.push(p), backlog: () => MAX_BACKLOG_BYTES * 10 });
    add(session, 1, 10);
    session.close();
    expect(sent.at(-1)).toMatchObject({ kind: 'batch', batch: { total: 10 } });
  });

  it('once the page says what it read, wait for it to read each batch, then send the newest 5,000 with the true counts', async () => {
    const sent: SendProgress[] = [];
    let asked = 0;
    const session = new StreamSession({ head, timing, forward: (p) => sent.push(p), backlog: () => (asked++, 0) });
    const batches = () => sent.filter((p): p is Batch => p.kind === 'batch');
    add(session, 1, 10);
    await until(() => batches().length === 1);
    // Not paced until the page reads: a caller that never reads is never held.
    add(session, 11, 10);
    await until(() => batches().length === 2);
    session.read(20);
    add(session, 21, 10);
    await until(() => batches().length === 3);
    expect(numbers(batches()[2]!)[0]).toBe(21);
    // Batch 3 is not read: the rows wait (the session looked again and again), the newest 5,000 kept.
    add(session, 31, 8_000);
    const looked = asked;
    await until(() => asked >= looked + 3);
    expect(batches()).toHaveLength(3);
    session.read(30);
    await until(() => batches().length === 4);
    const batch = batches()[3]!;
    expect(numbers(batch)).toHaveLength(5_000);
    expect(numbers(batch)[0]).toBe(3_031);
    expect(batch.batch).toMatchObject({ total: 8_030, events: 8_030 });
    expect(session.keptSoFar('stopped').finished.total).toBe(8_030);
    session.close();
  });

  it('lets the next batch go when a paced page does not read within PACE_TIMEOUT_MS', async () => {
    const sent: SendProgress[] = [];
    const session = new StreamSession({ head, timing, forward: (p) => sent.push(p) });
    const batches = () => sent.filter((p) => p.kind === 'batch');
    add(session, 1, 1);
    await until(() => batches().length === 1);
    session.read(1);
    add(session, 2, 1);
    await until(() => batches().length === 2);
    const sentAt = performance.now();
    add(session, 3, 1);
    await until(() => batches().length === 3, PACE_TIMEOUT_MS * 5);
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(PACE_TIMEOUT_MS - FORWARD_MS);
    session.close();
  });
});

describe('the sender\'s batches', () => {
  it('are said to be taken once passed on to the page, and not while the page is behind', async () => {
    const sent: SendProgress[] = [];
    let taken = 0;
    let backlog = 0;
    const session = new StreamSession({ head, timing, forward: (p) => sent.push(p), backlog: () => backlog, onTaken: () => taken++ });
    add(session, 1, 10);
    await until(() => taken === 1);
    expect(sent.filter((p) => p.kind === 'batch')).toHaveLength(1);
    backlog = MAX_BACKLOG_BYTES + 1;
    add(session, 11, 10);
    await new Promise((resolve) => setTimeout(resolve, FORWARD_MS * 3));
    expect(taken).toBe(1);
    backlog = 0;
    await until(() => taken === 2);
    session.close();
  });

  it('are taken at once when nothing goes on to a page', () => {
    let taken = 0;
    const session = new StreamSession({ head, timing, onTaken: () => taken++ });
    add(session, 1, 10);
    expect(taken).toBe(1);
    session.close();
  });
});

describe('a stream whose sender died', () => {
  it('keeps what arrived by the holders\' rules, with the true counts the last batch gave', () => {
    const session = new StreamSession({ head, timing });
    // The sender let rows 401-10,000 go before they left (the newest were on their way).
    session.add(packRows(rows(1, 400), 400, 400));
    session.add(packRows(rows(10_001, 5_000), 15_000, 14_990));
    const kept = session.keptSoFar('stopped', { code: 'child-died', message: 'The sender process died.' });
    expect(kept.finished).toMatchObject({ state: 'stopped', error: { code: 'child-died' }, total: 15_000, events: 14_990, notKept: 10_000 });
    expect(kept.finished.rows.map((r) => r.n)).toEqual([...Array.from({ length: 400 }, (_, i) => i + 1), ...Array.from({ length: 4_600 }, (_, i) => 10_401 + i)]);
    expect(kept.history.rows.map((r) => r.n)).toEqual([...Array.from({ length: 400 }, (_, i) => i + 1), ...Array.from({ length: 100 }, (_, i) => 14_901 + i)]);
    expect(kept.history).toMatchObject({ total: 15_000, notKept: 14_500 });
    session.close();
  });
});
