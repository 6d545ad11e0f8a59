import { readdirSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../protocol/model/history.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import { HistoryStore } from './history-store.js';

const verdict = (kind: Verdict['kind']): Verdict => ({ kind, problems: [], moreProblems: false, partial: false, notes: [], steps: 0 });

function entry(n: number, over: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id: `e${n}`,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    requestId: n % 2 ? 'r-odd' : 'r-even',
    request: { method: n % 3 ? 'GET' : 'POST', url: `https://api.example.com/items/${n}`, headers: [], body: '', bodyKind: 'none' },
    response: { status: n % 5 ? 200 : 404, statusText: n % 5 ? 'OK' : 'Not Found', headers: [], body: `{"n":${n}}`, size: 8, timeMs: 3 },
    verdict: verdict(n % 5 ? 'pass' : 'unexpected-status'),
    redacted: false,
    ...over,
  };
}

describe('HistoryStore', () => {
  let dir: string;
  let limit = 500;
  let store: HistoryStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-history-'));
    limit = 500;
    store = new HistoryStore(dir, () => limit);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('lists newest first, gets one entry whole, and reads the file again after a restart', async () => {
    for (let n = 1; n <= 5; n++) await store.add('/p', entry(n));
    expect((await store.list('/p')).map((s) => s.id)).toEqual(['e5', 'e4', 'e3', 'e2', 'e1']);
    expect(await store.get('/p', 'e3')).toEqual(entry(3));
    const again = new HistoryStore(dir, () => limit);
    expect((await again.list('/p')).map((s) => s.id)).toEqual(['e5', 'e4', 'e3', 'e2', 'e1']);
    expect(await again.get('/p', 'e2')).toEqual(entry(2));
    expect(await store.list('/other')).toEqual([]);
  });

  it('merges recorded exchanges in by their recorded times, keeping the newest `limit` and counting what was dropped and what did not fit', async () => {
    limit = 5;
    for (const n of [10, 20, 30]) await store.add('/p', entry(n));
    // Two older than everything kept, three newer: the newest five stay.
    const recorded = [1, 2, 25, 40, 50].map((n) => entry(n, { id: `h${n}` }));
    expect(await store.addRecorded('/p', recorded)).toEqual({ dropped: 1, notFitted: 2 });
    expect((await store.list('/p')).map((s) => s.id)).toEqual(['h50', 'h40', 'e30', 'h25', 'e20']);
    expect(await store.get('/p', 'h25')).toEqual(entry(25, { id: 'h25' }));
    // The file is in time order and reads back the same after a restart.
    expect((await new HistoryStore(dir, () => limit).list('/p')).map((s) => s.id)).toEqual(['h50', 'h40', 'e30', 'h25', 'e20']);
    await store.add('/p', entry(60));
    expect((await store.list('/p')).map((s) => s.id)[0]).toBe('e60');
  });

  it('keeps the newest `limit` entries, drops the oldest, and says how many fell out', async () => {
    limit = 10;
    const dropped: number[] = [];
    for (let n = 1; n <= 45; n++) dropped.push((await store.add('/p', entry(n))).dropped);
    expect(dropped.slice(0, 10).every((d) => d === 0)).toBe(true);
    expect(dropped.slice(10).every((d) => d === 1)).toBe(true);
    const listed = await store.list('/p');
    expect(listed.map((s) => s.id)).toEqual(Array.from({ length: 10 }, (_, i) => `e${45 - i}`));
    await expect(store.get('/p', 'e35')).rejects.toMatchObject({ code: 'not-found' });
    // The file is trimmed in batches: never more than the limit plus its slack.
    const file = join(dir, 'history', readdirSync(join(dir, 'history'))[0]!);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(30);
    expect(lines.at(-1)).toContain('"e45"');
    expect(await new HistoryStore(dir, () => limit).get('/p', 'e40')).toEqual(entry(40));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('adds a batch and counts what it pushed out', async () => {
    limit = 10;
    for (let n = 1; n <= 8; n++) await store.add('/p', entry(n));
    expect(await store.add('/p', entry(9), entry(10), entry(11), entry(12))).toEqual({ dropped: 2 });
  });

  it('searches by request, URL words, method, status class or code, error, and chip', async () => {
    for (let n = 1; n <= 20; n++) await store.add('/p', entry(n));
    await store.add('/p', entry(21, { response: undefined, verdict: undefined, error: { code: 'timeout', message: 'no answer' } }));
    const ids = async (q: Parameters<HistoryStore['list']>[1]) => (await store.list('/p', q)).map((s) => s.id);
    expect(await ids({ requestId: 'r-even' })).toEqual(['e20', 'e18', 'e16', 'e14', 'e12', 'e10', 'e8', 'e6', 'e4', 'e2']);
    expect(await ids({ text: 'items/1' })).toEqual(['e19', 'e18', 'e17', 'e16', 'e15', 'e14', 'e13', 'e12', 'e11', 'e10', 'e1']);
    expect(await ids({ text: 'POST items/1' })).toEqual(['e18', 'e15', 'e12']);
    expect(await ids({ method: 'post', status: '4xx' })).toEqual(['e15']);
    expect(await ids({ status: '404' })).toEqual(['e20', 'e15', 'e10', 'e5']);
    expect(await ids({ status: 'error' })).toEqual(['e21']);
    expect(await ids({ text: 'timeout' })).toEqual(['e21']);
    expect(await ids({ chip: 'unexpected-status' })).toEqual(['e20', 'e15', 'e10', 'e5']);
    expect(await ids({ chip: 'none' })).toEqual(['e21']);
    expect(await ids({ text: 'unexpected' })).toEqual(['e20', 'e15', 'e10', 'e5']);
  });

  it('skips a torn line and lines that are not entries, and keeps appending after them', async () => {
    await store.add('/p', entry(1));
    const file = join(dir, 'history', readdirSync(join(dir, 'history'))[0]!);
    await appendFile(file, '{"id":"broken","at":\n{"not":"an entry"}\n');
    const fresh = new HistoryStore(dir, () => limit);
    await fresh.add('/p', entry(2));
    expect((await fresh.list('/p')).map((s) => s.id)).toEqual(['e2', 'e1']);
    expect(await fresh.get('/p', 'e2')).toEqual(entry(2));
  });

  it('notices another writer appending to the same file', async () => {
    await store.add('/p', entry(1));
    const other = new HistoryStore(dir, () => limit);
    await other.add('/p', entry(2));
    expect((await store.list('/p')).map((s) => s.id)).toEqual(['e2', 'e1']);
    expect(await store.get('/p', 'e2')).toEqual(entry(2));
  });

  it('clears a project, or one request of it', async () => {
    for (let n = 1; n <= 4; n++) await store.add('/p', entry(n));
    await store.clear('/p', 'r-odd');
    expect((await store.list('/p')).map((s) => s.id)).toEqual(['e4', 'e2']);
    expect(await store.get('/p', 'e2')).toEqual(entry(2));
    await store.clear('/p');
    expect(await store.list('/p')).toEqual([]);
    await store.add('/p', entry(9));
    expect((await store.list('/p')).map((s) => s.id)).toEqual(['e9']);
  });
});
