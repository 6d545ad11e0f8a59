import { afterEach, describe, expect, it, vi } from 'vitest';
import { UndoShelf } from './undo-shelf.js';

const removed = (bytes: number) => ({ files: [{ path: '/p/x.yaml', content: new Uint8Array(bytes) }], items: [{ kind: 'request' as const, id: 'r_1' }] });

afterEach(() => {
  vi.useRealTimers();
});

describe('what Undo keeps of a delete', () => {
  it('is handed back once, to its own project, until its time is over', () => {
    vi.useFakeTimers();
    const shelf = new UndoShelf(35_000, 1000);
    const token = shelf.put('/p', removed(10))!;
    expect(shelf.take('/other', token)).toBeUndefined();
    expect(shelf.take('/p', token)?.files).toHaveLength(1);
    expect(shelf.take('/p', token)).toBeUndefined();
    const late = shelf.put('/p', removed(10))!;
    vi.advanceTimersByTime(35_001);
    expect(shelf.take('/p', late)).toBeUndefined();
  });

  it('holds at most its size: the oldest goes first, and one too big alone is not kept', () => {
    const shelf = new UndoShelf(35_000, 100);
    const first = shelf.put('/p', removed(60))!;
    const second = shelf.put('/p', removed(60))!;
    expect(shelf.take('/p', first)).toBeUndefined();
    expect(shelf.take('/p', second)).toBeDefined();
    expect(shelf.put('/p', removed(101))).toBeNull();
  });
});
