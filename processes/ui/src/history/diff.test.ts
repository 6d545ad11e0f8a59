import { describe, expect, it } from 'vitest';
import { changes, diffHeaders, diffJson, diffSequences, diffText, parseJson } from './diff.js';

describe('text diff', () => {
  it('aligns equal lines and pairs removed with added lines', () => {
    expect(diffText('a\nb\nc\nd', 'a\nB\nc\nd\ne')).toEqual([
      { kind: 'same', left: 'a', right: 'a' },
      { kind: 'change', left: 'b', right: 'B' },
      { kind: 'same', left: 'c', right: 'c' },
      { kind: 'same', left: 'd', right: 'd' },
      { kind: 'add', right: 'e' },
    ]);
    expect(diffText('same', 'same')).toEqual([{ kind: 'same', left: 'same', right: 'same' }]);
  });
  it('finds the shortest edit (Myers)', () => {
    const steps = diffSequences([...'ABCABBA'], [...'CBABAC'], (x, y) => x === y);
    expect(steps.filter(([k]) => k !== 'same')).toHaveLength(5);
    expect(steps.filter(([k]) => k !== 'add').map(([, x]) => x).join('')).toBe('ABCABBA');
    expect(steps.filter(([k]) => k !== 'del').map(([, , y]) => y).join('')).toBe('CBABAC');
  });
  it('handles empty sides', () => {
    expect(diffText('', 'x')).toEqual([{ kind: 'change', left: '', right: 'x' }]);
    expect(changes(diffText('a\nb', 'a'))).toBe(1);
  });
});

describe('JSON diff', () => {
  const rows = (a: string, b: string) => diffJson(parseJson(a)!, parseJson(b)!);
  it('ignores member order and shows a changed value on one row', () => {
    const out = rows('{"id":1,"name":"Rex","tags":["a"]}', '{"tags":["a"],"name":"Max","id":1}');
    expect(out.filter((r) => r.kind !== 'same')).toEqual([{ kind: 'change', left: '  "name": "Rex",', right: '  "name": "Max",' }]);
    expect(out[0]).toEqual({ kind: 'same', left: '{', right: '{' });
  });
  it('shows removed and added members, and nested changes at their depth', () => {
    const out = rows('{"a":{"b":1,"c":2},"gone":true}', '{"a":{"b":1,"c":3},"new":[1,2]}');
    expect(out.filter((r) => r.kind !== 'same')).toEqual([
      { kind: 'change', left: '    "c": 2', right: '    "c": 3' },
      { kind: 'del', left: '  "gone": true' },
      { kind: 'add', right: '  "new": [' },
      { kind: 'add', right: '    1,' },
      { kind: 'add', right: '    2' },
      { kind: 'add', right: '  ]' },
    ]);
  });
  it('matches array elements by value, so an insertion is one added element', () => {
    const out = rows('[{"id":1},{"id":2},{"id":3}]', '[{"id":1},{"id":9},{"id":2},{"id":3}]');
    expect(out.filter((r) => r.kind !== 'same').map((r) => r.right)).toEqual(['  {', '    "id": 9', '  },']);
  });
  it('says two equal documents have no changes, and compares different types whole', () => {
    expect(changes(rows('{"a":[1,{"b":null}]}', '{ "a" : [1, {"b": null}] }'))).toBe(0);
    expect(rows('{"a":1}', '{"a":{"x":1}}').filter((r) => r.kind !== 'same')).toEqual([
      { kind: 'del', left: '  "a": 1' },
      { kind: 'add', right: '  "a": {' },
      { kind: 'add', right: '    "x": 1' },
      { kind: 'add', right: '  }' },
    ]);
  });
  it('tells JSON from text', () => {
    expect(parseJson('{"a":')).toBeUndefined();
    expect(parseJson('3')).toBe(3);
  });
});

describe('header diff', () => {
  it('matches names ignoring case and joins repeated headers', () => {
    expect(diffHeaders([['Content-Type', 'a'], ['X-A', '1'], ['Set-Cookie', 'x'], ['set-cookie', 'y']], [['content-type', 'a'], ['Set-Cookie', 'x, y'], ['X-B', '2']])).toEqual([
      { kind: 'same', name: 'Content-Type', left: 'a', right: 'a' },
      { kind: 'del', name: 'X-A', left: '1' },
      { kind: 'same', name: 'Set-Cookie', left: 'x, y', right: 'x, y' },
      { kind: 'add', name: 'X-B', right: '2' },
    ]);
  });
});
