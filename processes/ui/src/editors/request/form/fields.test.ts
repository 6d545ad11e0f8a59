import { describe, expect, it } from 'vitest';
import { buildFields, MAX_FIELDS, type Field } from './fields.js';
import { parseBody, type JsonValue } from './json-value.js';

const value = (text: string) => {
  const parsed = parseBody(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};
const fieldsOf = (schema: unknown, text: string, choices?: Map<string, number>) => buildFields(schema, value(text), choices).fields;
const byKey = (fields: Field[], key: string) => {
  const found = fields.find((f) => f.key === key);
  if (!found) throw new Error(`no field ${key} in ${fields.map((f) => f.key).join(', ')}`);
  return found;
};

const NewPet = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, tag: { type: 'string' } }, 'x-parley-name': 'NewPet' };

const Order = {
  type: 'object',
  required: ['owner', 'tags'],
  properties: {
    owner: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } } },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    address: { type: 'object', properties: { lines: { type: 'array', minItems: 1, items: { type: 'string' } }, country: { enum: ['NL', 'FR'] } } },
    count: { type: 'integer', minimum: 1 },
    price: { type: 'number' },
    gift: { type: 'boolean' },
    note: { type: ['string', 'null'] },
    id: { type: 'integer', readOnly: true },
    extra: {},
  },
};

describe('form fields', () => {
  it('lists one field per property of the demo body, labelled by path, with what the schema says', () => {
    const fields = fieldsOf(NewPet, '{"name": "Biscuit", "tag": "dog"}');
    expect(fields.map((f) => [f.key, f.kind, f.required, f.removable])).toEqual([
      ['', 'object', true, false],
      ['name', 'string', true, false],
      ['tag', 'string', false, true],
    ]);
    expect(byKey(fields, '').title).toBe('NewPet');
    expect(byKey(fields, 'name').hint).toBe('≥ 1 char');
    expect(byKey(fields, '').addable).toEqual([]);
    expect(byKey(fieldsOf(NewPet, '{"name": "Biscuit"}'), '').addable).toEqual(['tag']);
  });

  it('labels nested properties and array items with dotted names and bracketed indexes', () => {
    const fields = fieldsOf(Order, '{"owner": {"name": "Ann"}, "tags": ["a", "b"], "address": {"lines": ["1 Road", "Town"], "country": "NL"}}');
    expect(fields.map((f) => f.label)).toEqual(['', 'owner', 'owner.name', 'tags', 'tags[0]', 'tags[1]', 'address', 'address.lines', 'address.lines[0]', 'address.lines[1]', 'address.country']);
    expect(byKey(fields, 'owner').addable).toEqual(['email']);
    // readOnly `id` is never offered for a request body.
    expect(byKey(fields, '').addable).toEqual(['count', 'price', 'gift', 'note', 'extra']);
    expect(byKey(fields, 'tags').canAddItem).toBe(true);
    expect(byKey(fields, 'address.lines[1]').removable).toBe(true);
    expect(byKey(fieldsOf(Order, '{"address": {"lines": ["only"]}}'), 'address.lines[0]').removable).toBe(false); // minItems 1
    expect(byKey(fieldsOf(Order, '{"tags": ["a", "b", "c"]}'), 'tags').canAddItem).toBe(false); // maxItems 3
    expect(byKey(fields, 'address.country')).toMatchObject({ kind: 'enum', enumValues: ['NL', 'FR'] });
  });

  it('keeps the order of the JSON, then lists required properties not given yet', () => {
    const fields = fieldsOf(Order, '{"gift": true, "tags": [], "count": 2}');
    expect(fields.map((f) => [f.key, f.value === undefined ? 'absent' : 'present'])).toEqual([
      ['', 'present'],
      ['gift', 'present'],
      ['tags', 'present'],
      ['count', 'present'],
      ['owner', 'absent'],
    ]);
  });

  it('gives each type its input, a type picker where several are allowed, and any JSON to a schema without type', () => {
    const fields = fieldsOf(Order, '{"count": 2, "price": 2.5, "gift": false, "note": null, "extra": {"free": [1]}}');
    expect(['count', 'price', 'gift', 'note', 'extra'].map((k) => byKey(fields, k).kind)).toEqual(['integer', 'number', 'boolean', 'null', 'json']);
    expect(byKey(fields, 'note').typeChoice).toEqual({ types: ['string', 'null'], current: 'null' });
    expect(byKey(fields, 'count').hint).toBe('1 ≤ n');
  });

  it('lists values the schema does not know (an object or array as JSON), and values of the wrong type with what was wanted', () => {
    const fields = fieldsOf(NewPet, '{"name": 5, "legs": 4, "meta": {"a": 1}}');
    expect(byKey(fields, 'legs')).toMatchObject({ kind: 'integer', known: false, removable: true });
    expect(byKey(fields, 'meta')).toMatchObject({ kind: 'json', known: false });
    expect(byKey(fields, 'name')).toMatchObject({ kind: 'json', mismatch: 'Is an integer; the schema wants a string.' });
    expect(fields.some((f) => f.key === 'meta.a')).toBe(false);
  });

  it('shows a bare ${name} in a number input, and as JSON where a string goes', () => {
    const fields = fieldsOf(Order, '{"count": ${n}, "owner": {"name": ${who}}}');
    expect(byKey(fields, 'count')).toMatchObject({ kind: 'integer', value: { kind: 'expansion', raw: '${n}' } });
    expect(byKey(fields, 'owner.name').kind).toBe('json');
  });

  it('expands a recursive schema as deep as the value goes', () => {
    const Node = {
      type: 'object',
      'x-parley-ref': ['#/components/schemas/Node'],
      properties: { label: { type: 'string' }, children: { type: 'array', items: { 'x-parley-cycle': '#/components/schemas/Node' } } },
    };
    const fields = fieldsOf(Node, '{"label": "root", "children": [{"label": "kid", "children": [{"label": "grandkid"}]}]}');
    expect(byKey(fields, 'children[0].children[0].label')).toMatchObject({ kind: 'string', known: true });
    expect(byKey(fields, 'children[0].children[0]').addable).toEqual(['children']);
  });

  it('picks the variant of a oneOf by discriminator, else by best fit, and keeps a picked one while it fits', () => {
    const Pet = {
      oneOf: [
        { type: 'object', 'x-parley-name': 'Cat', 'x-parley-ref': ['#/Cat'], required: ['kind', 'lives'], properties: { kind: { type: 'string' }, lives: { type: 'integer' } } },
        { type: 'object', 'x-parley-name': 'Dog', 'x-parley-ref': ['#/Dog'], required: ['kind', 'good'], properties: { kind: { type: 'string' }, good: { type: 'boolean' } } },
      ],
      discriminator: { propertyName: 'kind', mapping: { dog: '#/Dog' } },
    };
    expect(byKey(fieldsOf(Pet, '{"kind": "dog"}'), '').variants).toMatchObject({ labels: ['Cat', 'Dog'], chosen: 1 });
    expect(byKey(fieldsOf(Pet, '{"kind": "Cat"}'), '').variants!.chosen).toBe(0);
    const untagged = { oneOf: Pet.oneOf };
    expect(byKey(fieldsOf(untagged, '{"good": true}'), '').variants!.chosen).toBe(1);
    expect(byKey(fieldsOf(untagged, '{"lives": 9}'), '').variants!.chosen).toBe(0);
    // Both fit {"kind": "x"} alike: detection says Cat, a pick of Dog is kept.
    expect(byKey(fieldsOf(untagged, '{"kind": "x"}', new Map([['', 1]])), '').variants!.chosen).toBe(1);
    const scalars = { oneOf: [{ type: 'string', title: 'Name' }, { type: 'integer' }, { type: 'null' }] };
    expect(byKey(fieldsOf({ type: 'object', properties: { v: scalars } }, '{"v": 3}'), 'v')).toMatchObject({ kind: 'integer', variants: { labels: ['Name', 'integer', 'null'], chosen: 1 } });
  });

  it('folds an allOf the supervisor left unmerged, and shows an empty body as an absent root', () => {
    const schema = { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { properties: { b: { type: 'integer' } }, required: ['b'] }] };
    const fields = fieldsOf(schema, '{"a": "x"}');
    expect(fields.map((f) => f.key)).toEqual(['', 'a', 'b']);
    expect(byKey(fields, 'b')).toMatchObject({ required: true, value: undefined, kind: 'integer' });
    expect(buildFields(NewPet, undefined).fields).toEqual([expect.objectContaining({ key: '', kind: 'object', value: undefined })]);
  });

  it('stops listing at MAX_FIELDS and says so', () => {
    const items: JsonValue[] = Array.from({ length: MAX_FIELDS + 5 }, (_, i) => ({ kind: 'number', raw: String(i) }));
    const list = buildFields({ type: 'array', items: { type: 'integer' } }, { kind: 'array', items });
    expect(list.fields).toHaveLength(MAX_FIELDS);
    expect(list.truncated).toBe(true);
  });
});
