import { describe, expect, it } from 'vitest';
import { getAt, pathLabel, removeAt, setAt } from './json-path.js';
import { parseBody, printJson, type JsonValue } from './json-value.js';

const value = (text: string) => (parseBody(text) as { value: JsonValue }).value;

describe('JSON paths', () => {
  it('labels paths with dotted names and bracketed indexes', () => {
    expect(pathLabel(['owner', 'name'])).toBe('owner.name');
    expect(pathLabel(['tags', 0])).toBe('tags[0]');
    expect(pathLabel(['address', 'lines', 1])).toBe('address.lines[1]');
    expect(pathLabel([0, 'id'])).toBe('[0].id');
    expect(pathLabel(['headers', 'content-type', 'x.y'])).toBe('headers.content-type["x.y"]');
    expect(pathLabel(['two words'])).toBe('["two words"]');
    expect(pathLabel([])).toBe('');
  });

  it('reads, writes (making what is missing) and removes by path without touching the rest', () => {
    const root = value('{"a": {"b": [1, 2]}, "a2": true}');
    expect(getAt(root, ['a', 'b', 1])).toEqual({ kind: 'number', raw: '2' });
    expect(getAt(root, ['a', 'x'])).toBeUndefined();
    const written = setAt(root, ['a', 'c', 'd', 0], { kind: 'string', value: 'new' });
    expect(printJson(written)).toBe('{\n  "a": {\n    "b": [\n      1,\n      2\n    ],\n    "c": {\n      "d": [\n        "new"\n      ]\n    }\n  },\n  "a2": true\n}');
    expect(printJson(root)).toBe(printJson(value('{"a": {"b": [1, 2]}, "a2": true}'))); // unchanged
    expect(printJson(removeAt(written, ['a', 'b', 0]))).toContain('"b": [\n      2\n    ]');
    expect(printJson(removeAt(root, ['a2']))).toBe('{\n  "a": {\n    "b": [\n      1,\n      2\n    ]\n  }\n}');
    expect(removeAt(root, [])).toBeUndefined();
    expect(setAt(undefined, ['x'], { kind: 'null' })).toEqual({ kind: 'object', entries: [{ key: 'x', value: { kind: 'null' } }] });
  });

  it('reads and writes the last of a repeated key, and removes every one', () => {
    const root = value('{"k": 1, "other": 0, "k": 2}');
    expect(getAt(root, ['k'])).toEqual({ kind: 'number', raw: '2' });
    expect(printJson(setAt(root, ['k'], { kind: 'number', raw: '3' }))).toBe('{\n  "k": 1,\n  "other": 0,\n  "k": 3\n}');
    expect(printJson(removeAt(root, ['k']))).toBe('{\n  "other": 0\n}');
  });
});
