import { describe, expect, it } from 'vitest';
import type { MockLogEntry } from '../../protocol/model/mock.js';
import { DETAILS_PER_ENTRY, LINES_PER_BATCH, LINE_VALUE_CHARS, formatLogBatch, formatLogEntry } from './log-lines.js';

function entry(over: Partial<MockLogEntry> = {}): MockLogEntry {
  const empty = { text: '', size: 0, truncated: false };
  return {
    id: 'x-1',
    time: '2030-01-02T03:04:05.678Z',
    mock: 'm',
    method: 'GET',
    path: '/pets?limit=5',
    operation: 'listPets',
    responseName: 'Default',
    status: 200,
    durationMs: 0.42,
    request: { method: 'GET', path: '/pets?limit=5', headers: [], body: empty },
    response: { status: 200, headers: [], body: empty },
    problems: [],
    notes: [],
    ...over,
  };
}

describe('mock serve console log', () => {
  it('puts time, method and path, status, operation and response, and duration on one line', () => {
    expect(formatLogEntry(entry())).toBe('03:04:05.678  GET /pets?limit=5  → 200  listPets › Default  0.42 ms\n');
    expect(formatLogEntry(entry({ operation: '', responseName: '', status: 404, path: '/nope' }))).toBe('03:04:05.678  GET /nope  → 404  -  0.42 ms\n');
  });

  it('lists contract problems and notes under the line, one line each, with a count past the cap', () => {
    const problems = [
      { in: 'query' as const, pointer: 'limit', message: 'limit: expected integer' },
      { in: 'body' as const, pointer: '', message: 'expected the required property "kind"' },
    ];
    const text = formatLogEntry(entry({ problems, notes: ['The contract check gave up\n(took too long).'] }));
    expect(text.split('\n')).toEqual([
      '03:04:05.678  GET /pets?limit=5  → 200  listPets › Default  0.42 ms  2 contract problems',
      '              query limit: limit: expected integer',
      '              body: expected the required property "kind"',
      '              The contract check gave up (took too long).',
      '',
    ]);
    const many = formatLogEntry(entry({ notes: Array.from({ length: DETAILS_PER_ENTRY + 3 }, (_, i) => `note ${i}`) }));
    expect(many).toContain('… and 3 more\n');
  });

  it('prints a batch up to its cap, then how many more requests there were', () => {
    const text = formatLogBatch(Array.from({ length: LINES_PER_BATCH + 7 }, () => entry()));
    expect(text.split('\n').filter((l) => l.includes('GET /pets'))).toHaveLength(LINES_PER_BATCH);
    expect(text.endsWith('… and 7 more requests\n')).toBe(true);
  });

  it('prints a bounded start of every value, so a batch of huge entries is a few KB (a 1 MB path, name and notes)', () => {
    const huge = 'x'.repeat(1_000_000);
    const text = formatLogBatch(
      Array.from({ length: LINES_PER_BATCH + 1 }, () =>
        entry({ path: `/${huge}`, operation: huge, responseName: huge, problems: [{ in: 'body', pointer: huge, message: huge }], notes: [huge, huge] }),
      ),
    );
    const lines = text.split('\n');
    // Each request's line holds three cut values; each detail line one (the pointer and message, cut together).
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(3 * LINE_VALUE_CHARS + 100);
    expect(text.length).toBeLessThan(LINES_PER_BATCH * (3 + DETAILS_PER_ENTRY) * (LINE_VALUE_CHARS + 40));
    expect(lines[0]).toContain(`/${'x'.repeat(LINE_VALUE_CHARS - 2)}…`);
  });
});
