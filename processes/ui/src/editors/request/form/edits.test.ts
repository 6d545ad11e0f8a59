import { describe, expect, it } from 'vitest';
import { convertType, fromInput } from './coerce.js';
import { defaultFor } from './defaults.js';
import { addItem, addProperty, chooseType, chooseVariant, create, remove, rewrite, setValue, type FormEdit } from './edits.js';
import { buildFields, type Field } from './fields.js';
import { parseBody, printJson } from './json-value.js';
import { EMPTY_SCOPE, viewOf } from './schema.js';

/** The field `key` of `text` under `schema`, and the text after applying `edit` to it. */
function edited(schema: unknown, text: string, key: string, edit: (field: Field) => FormEdit, choices?: Map<string, number>): string {
  const parsed = parseBody(text);
  if (!parsed.ok) throw new Error(parsed.message);
  const field = buildFields(schema, parsed.value, choices).fields.find((f) => f.key === key);
  if (!field) throw new Error(`no field ${key}`);
  return rewrite(text, edit(field))!;
}
const json = (plain: unknown) => JSON.stringify(plain, null, 2);

const NewPet = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, tag: { type: 'string' } } };

describe('form edits', () => {
  it('writes every edit back as pretty JSON, keeping key order and what the schema does not know', () => {
    const text = '{"tag":"dog","legs":4,"name":"Biscuit","meta":{"x":[1,2]}}';
    expect(edited(NewPet, text, 'name', (f) => setValue(f, { kind: 'string', value: 'Comet' }))).toBe(json({ tag: 'dog', legs: 4, name: 'Comet', meta: { x: [1, 2] } }));
  });

  it('adds an optional property with its starting value, and removes it again', () => {
    const text = json({ name: 'Biscuit' });
    const added = edited(NewPet, text, '', (f) => addProperty(f, 'tag'));
    expect(added).toBe(json({ name: 'Biscuit', tag: '' }));
    expect(edited(NewPet, added, 'tag', remove)).toBe(text);
  });

  it('adds and removes array items, nested in objects', () => {
    const schema = { type: 'object', properties: { address: { type: 'object', properties: { lines: { type: 'array', items: { type: 'string', default: 'line' } } } } } };
    const text = json({ address: { lines: ['1 Road'] } });
    const more = edited(schema, text, 'address.lines', addItem);
    expect(more).toBe(json({ address: { lines: ['1 Road', 'line'] } }));
    expect(edited(schema, more, 'address.lines[0]', remove)).toBe(json({ address: { lines: ['line'] } }));
  });

  it('fills a required property not given yet, and starts an empty body from the schema', () => {
    const schema = { type: 'object', required: ['name', 'owner'], properties: { name: { type: 'string' }, owner: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } } };
    expect(edited(schema, '{"name": "x"}', 'owner', create)).toBe(json({ name: 'x', owner: { id: 1 } }));
    expect(edited(schema, '{}', 'name', (f) => setValue(f, { kind: 'string', value: 'y' }))).toBe(json({ name: 'y' }));
    expect(edited(schema, '', '', create)).toBe(json({ name: '', owner: { id: 1 } }));
  });

  it('leaves ${name} expansions alone, in strings and bare', () => {
    const text = '{\n  "name": "${petName}",\n  "id": ${petId},\n  "tag": "dog"\n}';
    expect(edited(NewPet, text, 'tag', (f) => setValue(f, { kind: 'string', value: 'cat' }))).toBe('{\n  "name": "${petName}",\n  "id": ${petId},\n  "tag": "cat"\n}');
  });

  it('switches a oneOf variant keeping what fits, the discriminator set and what no variant knows', () => {
    const Pet = {
      oneOf: [
        { type: 'object', 'x-parley-name': 'Cat', required: ['kind', 'lives'], properties: { kind: { type: 'string' }, name: { type: 'string' }, lives: { type: 'integer', default: 9 } } },
        { type: 'object', 'x-parley-name': 'Dog', required: ['kind', 'good'], properties: { kind: { type: 'string' }, name: { type: 'string' }, good: { type: 'boolean' } } },
      ],
      discriminator: { propertyName: 'kind' },
    };
    const cat = json({ kind: 'Cat', name: 'Tom', lives: 7, chip: 'A1' });
    expect(edited(Pet, cat, '', (f) => chooseVariant(f, 1))).toBe(json({ kind: 'Dog', name: 'Tom', chip: 'A1', good: false }));
    expect(edited(Pet, '', '', (f) => chooseVariant(f, 0))).toBe(json({ kind: 'Cat', lives: 9 }));
    const scalar = { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 5 }] } } };
    expect(edited(scalar, '{"v": "abc"}', 'v', (f) => chooseVariant(f, 1))).toBe(json({ v: 5 }));
    expect(edited(scalar, '{"v": 7}', 'v', (f) => chooseVariant(f, 1))).toBe(json({ v: 7 }));
  });

  it('carries a value into another allowed type where it reads the same', () => {
    const schema = { type: 'object', properties: { n: { type: ['string', 'integer', 'null'] } } };
    expect(edited(schema, '{"n": "12"}', 'n', (f) => chooseType(f, 'integer'))).toBe(json({ n: 12 }));
    expect(edited(schema, '{"n": "twelve"}', 'n', (f) => chooseType(f, 'integer'))).toBe(json({ n: 0 }));
    expect(edited(schema, '{"n": 12}', 'n', (f) => chooseType(f, 'null'))).toBe(json({ n: null }));
    expect(edited(schema, '{"n": null}', 'n', (f) => chooseType(f, 'string'))).toBe(json({ n: '' }));
    const view = viewOf({}, EMPTY_SCOPE);
    expect(convertType({ kind: 'string', value: 'true' }, 'boolean', view)).toEqual({ kind: 'boolean', value: true });
    expect(convertType({ kind: 'expansion', raw: '${x}' }, 'number', view)).toEqual({ kind: 'expansion', raw: '${x}' });
    expect(convertType({ kind: 'array', items: [] }, 'array', view)).toEqual({ kind: 'array', items: [] });
  });

  it('reads inputs by the schema type: numbers, whole numbers, booleans, expansions, any JSON', () => {
    expect(fromInput('integer', ' 42 ')).toEqual({ ok: true, value: { kind: 'number', raw: '42' } });
    expect(fromInput('integer', '4.5')).toEqual({ ok: false, message: 'A whole number is expected.' });
    expect(fromInput('number', '1e3')).toEqual({ ok: true, value: { kind: 'number', raw: '1e3' } });
    expect(fromInput('number', '12abc')).toEqual({ ok: false, message: 'A number is expected.' });
    expect(fromInput('number', '${price}')).toEqual({ ok: true, value: { kind: 'expansion', raw: '${price}' } });
    expect(fromInput('boolean', 'false')).toEqual({ ok: true, value: { kind: 'boolean', value: false } });
    expect(fromInput('string', '  keep spaces ')).toEqual({ ok: true, value: { kind: 'string', value: '  keep spaces ' } });
    expect(fromInput('json', '{"a": [1]}')).toMatchObject({ ok: true, value: { kind: 'object' } });
    expect(fromInput('json', '{"a": ')).toMatchObject({ ok: false, message: expect.stringMatching(/^This is not valid JSON/) });
  });

  it('starts values from const, default, the first enum value, bounds and minItems', () => {
    const start = (schema: unknown) => printJson(defaultFor(schema, EMPTY_SCOPE));
    expect(start({ const: 'fixed' })).toBe('"fixed"');
    expect(start({ type: 'string', default: 'd', enum: ['a'] })).toBe('"d"');
    expect(start({ enum: ['a', 'b'] })).toBe('"a"');
    expect(start({ type: 'integer', exclusiveMinimum: 3 })).toBe('4');
    expect(start({ type: 'number', maximum: -2 })).toBe('-2');
    expect(start({ type: ['null', 'boolean'] })).toBe('false');
    expect(start({ type: 'array', minItems: 2, items: { type: 'string' } })).toBe(json(['', '']));
    expect(start({})).toBe('null');
    // A schema that requires itself stops after a few levels.
    const loop = { type: 'object', 'x-parley-ref': ['#/L'], required: ['next'], properties: { next: { 'x-parley-cycle': '#/L' } } };
    expect(start(loop).split('"next"').length - 1).toBe(8);
  });

  it('does not rewrite text that is not JSON', () => {
    expect(rewrite('{"a": ', (root) => root)).toBeUndefined();
  });
});
