import { describe, expect, it } from 'vitest';
import type { MockLogEntry } from './model/mock.js';
import {
  LOG_ENTRY_BYTES_MAX,
  LOG_LIST_BYTES,
  LOG_PAGE_BYTES,
  LOG_PAGE_ENTRIES,
  LOG_TEXT_CHARS,
  LogRing,
  boundLogEntry,
  boundProblemsAndNotes,
  logEntryBytes,
  newestWithin,
  utf8Length,
} from './mock-log-bounds.js';
import { encode } from './codec.js';

function entry(over: Partial<MockLogEntry> = {}): MockLogEntry {
  const empty = { text: '', size: 0, truncated: false };
  return {
    id: 'x-1',
    time: '2030-01-02T03:04:05.678Z',
    mock: 'm',
    method: 'POST',
    path: '/pets',
    operation: 'addPet',
    responseName: 'Default',
    status: 200,
    durationMs: 0.42,
    request: { method: 'POST', path: '/pets', headers: [{ name: 'Content-Type', value: 'application/json' }], body: empty },
    response: { status: 200, headers: [], body: empty },
    problems: [],
    notes: [],
    ...over,
  };
}

const MB = 'é'.repeat(1_000_000);

describe('one log entry', () => {
  it('is left as it is (the same object) when it is within every bound', () => {
    const e = entry({ notes: ['The contract check gave up (it took longer than 1000 ms).'], problems: [{ in: 'body', pointer: '/name', message: 'expected string' }] });
    expect(boundLogEntry(e)).toBe(e);
  });

  it('keeps a short start of every value from outside, and comes to at most LOG_ENTRY_BYTES_MAX however big its parts', () => {
    const preview = { text: MB, size: 9_000_000, truncated: true };
    const huge = entry({
      path: `/${MB}`,
      operation: MB,
      responseName: MB,
      mock: MB,
      request: { method: 'POST', path: `/${MB}`, headers: Array.from({ length: 5_000 }, (_, i) => ({ name: `X-${i}`, value: MB })), body: preview },
      response: { status: 500, headers: Array.from({ length: 5_000 }, () => ({ name: 'X', value: 'y' })), body: preview },
      problems: Array.from({ length: 5_000 }, () => ({ in: 'body' as const, pointer: MB, message: MB })),
      notes: [`respond(): this operation has no response named "${MB}"`, ...Array.from({ length: 5_000 }, () => MB)],
    });
    const bounded = boundLogEntry(huge);
    expect(logEntryBytes(bounded)).toBeLessThanOrEqual(LOG_ENTRY_BYTES_MAX);
    // What the bus carries is what was counted, within a margin for the keys.
    expect(encode(bounded).byteLength).toBeLessThanOrEqual(LOG_ENTRY_BYTES_MAX);
    expect(bounded.path.length).toBe(LOG_TEXT_CHARS);
    expect(bounded.notes[0]!.startsWith('respond(): this operation has no response named "éé')).toBe(true);
    expect(bounded.notes.slice(-4)).toEqual([
      expect.stringMatching(/^[\d,]+ more notes were not kept \(a log entry keeps 16 KiB of them\)\.$/),
      expect.stringMatching(/^[\d,]+ more request headers were not kept/),
      expect.stringMatching(/^[\d,]+ more response headers were not kept/),
      expect.stringMatching(/^[\d,]+ more contract problems were not kept/),
    ]);
    expect(bounded.request.body).toMatchObject({ size: 9_000_000, truncated: true });
    // Bounding again changes nothing.
    expect(boundLogEntry(bounded)).toBe(bounded);
  });

  it('counts a reply\'s problems and notes within a list\'s bytes, each cut to LOG_TEXT_CHARS', () => {
    const { problems, notes } = boundProblemsAndNotes([{ in: 'query', pointer: 'q', message: MB }], [MB, 'short']);
    expect(problems[0]!.message.length).toBe(LOG_TEXT_CHARS);
    expect(notes.map((n) => n.length)).toEqual([LOG_TEXT_CHARS, 5]);
    const many = boundProblemsAndNotes([], Array.from({ length: 1_000 }, () => 'x'.repeat(100)));
    expect(many.notes.reduce((sum, n) => sum + n.length, 0)).toBeLessThan(LOG_LIST_BYTES);
    const empty = { problems: [], notes: [] };
    const same = boundProblemsAndNotes(empty.problems, empty.notes);
    expect(same.problems).toBe(empty.problems);
    expect(same.notes).toBe(empty.notes);
  });

  it('counts bytes as UTF-8 does', () => {
    for (const text of ['', 'ascii', 'é', '€', '😀', 'a😀é€z', '\ud800']) expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });
});

describe('a log bounded in entries and bytes', () => {
  it('keeps the newest within both, and at least the newest one', () => {
    const ring = new LogRing<number>(5, 100);
    for (let i = 1; i <= 8; i++) ring.push(i, 10);
    expect(ring.entries()).toEqual([4, 5, 6, 7, 8]);
    ring.push(9, 70);
    expect(ring.entries()).toEqual([6, 7, 8, 9]);
    expect(ring.bytes).toBe(100);
    ring.push(10, 500);
    expect(ring.entries()).toEqual([10]);
    for (let i = 11; i < 2_000; i++) ring.push(i, 1);
    expect(ring.entries()).toEqual([1995, 1996, 1997, 1998, 1999]);
    expect(ring.bytes).toBe(5);
  });

  it('pages from the newest back, each page within a page\'s entries and bytes, a dropped cursor ending the pages', () => {
    const ring = new LogRing<{ id: number; size: number }>(500);
    for (let i = 0; i < 450; i++) ring.push({ id: i, size: 100 }, 100);
    const first = ring.page();
    expect(first.items.map((e) => e.id)).toEqual(Array.from({ length: LOG_PAGE_ENTRIES }, (_, i) => 250 + i));
    expect(first.more).toBe(true);
    const second = ring.page((e) => e.id === 250);
    expect(second.items[0]!.id).toBe(50);
    expect(second.items.at(-1)!.id).toBe(249);
    const third = ring.page((e) => e.id === 50);
    expect([third.items.length, third.more]).toEqual([50, false]);
    expect(ring.page((e) => e.id === -1)).toEqual({ items: [], more: false });

    const big = new LogRing<number>(500);
    for (let i = 0; i < 10; i++) big.push(i, LOG_PAGE_BYTES / 3);
    expect(big.page().items).toEqual([7, 8, 9]);
    expect(big.page((n) => n === 7).items).toEqual([4, 5, 6]);
  });

  it('takes the newest items within a count and bytes for an event', () => {
    expect(newestWithin([1, 2, 3, 4], () => 10, 3, 100)).toEqual([2, 3, 4]);
    expect(newestWithin([1, 2, 3, 4], () => 40, 10, 100)).toEqual([3, 4]);
    expect(newestWithin([1], () => 1_000, 10, 100)).toEqual([1]);
  });
});
