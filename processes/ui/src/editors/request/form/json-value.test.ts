import { describe, expect, it } from 'vitest';
import { equalsPlain, fromPlain, parseBody, printCompact, printJson, type JsonValue } from './json-value.js';

const roundTrip = (text: string) => {
  const parsed = parseBody(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return printJson(parsed.value);
};

describe('JSON body values', () => {
  it('prints like JSON.stringify with two spaces for ordinary values', () => {
    const plain = { name: 'Biscuit', tags: ['a', 'b'], owner: { id: 7, ok: true, none: null }, empty: {}, list: [], ratio: -0.25, quote: 'say "hi"\n' };
    expect(roundTrip(JSON.stringify(plain))).toBe(JSON.stringify(plain, null, 2));
  });

  it('keeps key order (numeric-looking keys too), number literals and repeated keys as written', () => {
    const text = '{"b":1,"10":2,"a":{"z":0,"1":1},"big":12345678901234567890,"price":1.50,"exp":1E+3,"b":3}';
    expect(roundTrip(text)).toBe('{\n  "b": 1,\n  "10": 2,\n  "a": {\n    "z": 0,\n    "1": 1\n  },\n  "big": 12345678901234567890,\n  "price": 1.50,\n  "exp": 1E+3,\n  "b": 3\n}');
  });

  it('keeps ${name} expansions, inside strings as strings and bare ones as values', () => {
    const parsed = parseBody('{"name": "${petName}", "id": ${petId}, "note": "cost: ${a} and {b}", "list": [${x}, "$", 1]}');
    expect(parsed.ok).toBe(true);
    const value = (parsed as { value: JsonValue }).value;
    expect(value).toEqual({
      kind: 'object',
      entries: [
        { key: 'name', value: { kind: 'string', value: '${petName}' } },
        { key: 'id', value: { kind: 'expansion', raw: '${petId}' } },
        { key: 'note', value: { kind: 'string', value: 'cost: ${a} and {b}' } },
        { key: 'list', value: { kind: 'array', items: [{ kind: 'expansion', raw: '${x}' }, { kind: 'string', value: '$' }, { kind: 'number', raw: '1' }] } },
      ],
    });
    expect(printJson(value)).toBe('{\n  "name": "${petName}",\n  "id": ${petId},\n  "note": "cost: ${a} and {b}",\n  "list": [\n    ${x},\n    "$",\n    1\n  ]\n}');
  });

  it('reads an empty body as no value, and prints no value as empty text', () => {
    expect(parseBody('  \n')).toEqual({ ok: true, value: undefined });
    expect(printJson(undefined)).toBe('');
  });

  it('says what is wrong and where, for text that is not strict JSON', () => {
    expect(parseBody('{\n  "name": "Comet",\n  "tag": "bird"')).toEqual({ ok: false, message: 'The body is not valid JSON: a closing } is expected at line 3, column 16.' });
    expect(parseBody('{"a": 1,}')).toMatchObject({ ok: false, message: expect.stringMatching(/^The body is not valid JSON: .* at line 1, column 9\.$/) });
    expect(parseBody('{"a": 1} // note')).toMatchObject({ ok: false });
    expect(parseBody("{'a': 1}")).toMatchObject({ ok: false });
    expect(parseBody('{"a": ${unclosed}')).toMatchObject({ ok: false, message: expect.stringContaining('line 1, column 18') });
  });

  it('converts schema values and compares by value', () => {
    const value = fromPlain({ a: [1, 'x', null, true] });
    expect(printCompact(value)).toBe('{"a": [1, "x", null, true]}');
    expect(equalsPlain({ kind: 'number', raw: '1.0' }, 1)).toBe(true);
    expect(equalsPlain(value, { a: [1, 'x', null, true] })).toBe(true);
    expect(equalsPlain(value, { a: [1, 'x', null] })).toBe(false);
    expect(equalsPlain({ kind: 'expansion', raw: '${x}' }, '${x}')).toBe(false);
  });
});
