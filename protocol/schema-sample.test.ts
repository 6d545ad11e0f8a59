import { describe, expect, it } from 'vitest';
import { SAMPLE_LIMITS, sampleSchema } from './schema-sample.js';

/**
 * A document shaped like Microsoft Graph's entities: each of `width` entities has `width`
 * navigation properties, arrays of the others, so a sample grows by `width` at every level.
 */
function entityWeb(width: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < width; i++) {
    const properties: Record<string, unknown> = { id: { type: 'string' }, displayName: { type: 'string' } };
    for (let j = 0; j < width; j++) properties[`nav${j}`] = { type: 'array', items: { $ref: `#/components/schemas/e${j}` } };
    schemas[`e${i}`] = { type: 'object', properties };
  }
  return { openapi: '3.0.3', components: { schemas } };
}

function countValues(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  return 1 + Object.values(value).reduce<number>((n, child) => n + countValues(child), 0);
}

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

describe('sampleSchema', () => {
  it('samples an ordinary schema in full, references followed', () => {
    const doc = {
      openapi: '3.0.3',
      components: {
        schemas: {
          Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string', example: 'Rex' }, tag: { $ref: '#/components/schemas/Tag' }, id: { type: 'integer', readOnly: true } } },
          Tag: { type: 'object', properties: { label: { type: 'string', example: 'good' } } },
        },
      },
    };
    const schema = { $ref: '#/components/schemas/Pet' };
    expect(sampleSchema(schema, doc, { skip: 'readOnly' })).toEqual({ name: 'Rex', tag: { label: 'good' } });
    expect(sampleSchema(schema, doc, { skip: 'writeOnly' })).toEqual({ name: 'Rex', tag: { label: 'good' }, id: 0 });
  });

  it('keeps a wide web of references within the limits by cutting its nesting', () => {
    const doc = entityWeb(40);
    const started = performance.now();
    const value = sampleSchema({ $ref: '#/components/schemas/e0' }, doc, { skip: 'readOnly' });
    const values = countValues(value);
    expect(values).toBeLessThanOrEqual(SAMPLE_LIMITS.values);
    // Cut, not emptied: the entity's own properties and one level of its navigations are there
    // (openapi-sampler's cut: past the level, an object is {}, an array [], a scalar left out).
    expect(value).toMatchObject({ id: expect.any(String), displayName: expect.any(String), nav1: [expect.objectContaining({ nav2: [] })] });
    expect(depthOf(value)).toBeLessThan(SAMPLE_LIMITS.depth);
    // Not a timing budget: a sample of this web at depth 10 would not finish in a test's lifetime.
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it('goes as deep as the limits allow, no shallower', () => {
    const doc = entityWeb(6);
    const value = sampleSchema({ $ref: '#/components/schemas/e0' }, doc, { skip: 'readOnly' }, { depth: 10, refs: 100_000, values: 400 });
    const deeper = sampleSchema({ $ref: '#/components/schemas/e0' }, doc, { skip: 'readOnly' }, { depth: 10, refs: 100_000, values: 100_000 });
    expect(countValues(value)).toBeLessThanOrEqual(400);
    expect(countValues(value)).toBeGreaterThan(40);
    expect(countValues(deeper)).toBeGreaterThan(400);
    expect(depthOf(deeper)).toBeGreaterThan(depthOf(value));
  });

  it('an XML sample is cut at the same level as the JSON one', () => {
    const doc = entityWeb(30);
    const xml = sampleSchema({ $ref: '#/components/schemas/e0' }, doc, { skip: 'readOnly', format: 'xml' });
    expect(typeof xml).toBe('string');
    expect(xml).toContain('<displayName>');
    expect((xml as string).length).toBeLessThan(SAMPLE_LIMITS.values * 80);
  });

  it('keeps a property named __proto__ as an own property, and leaves the document unchanged', () => {
    const doc = JSON.parse(
      '{"openapi":"3.0.3","components":{"schemas":{"Odd":{"type":"object","required":["__proto__"],"properties":{"__proto__":{"type":"string","example":"x"},"constructor":{"type":"integer","example":1}}}}}}',
    ) as Record<string, unknown>;
    const before = JSON.stringify(doc);
    const value = sampleSchema({ $ref: '#/components/schemas/Odd' }, doc, { skip: 'writeOnly' }) as Record<string, unknown>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(value))).toEqual(JSON.parse('{"__proto__":"x","constructor":1}'));
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('follows a $ref to a schema named __proto__ (the schema, not Object.prototype)', () => {
    const doc = JSON.parse(
      '{"openapi":"3.0.3","components":{"schemas":{"__proto__":{"type":"object","properties":{"name":{"type":"string","example":"pet"},"again":{"$ref":"#/components/schemas/__proto__/properties/name"}}}}}}',
    ) as Record<string, unknown>;
    expect(sampleSchema({ $ref: '#/components/schemas/__proto__' }, doc, { skip: 'readOnly' })).toEqual({ name: 'pet', again: 'pet' });
    expect(sampleSchema({ type: 'array', items: { $ref: '#/components/schemas/__proto__/properties/name' } }, doc, { skip: 'readOnly' })).toEqual(['pet']);
  });

  it("passes the sampler's own errors on", () => {
    expect(() => sampleSchema({ $ref: '#/components/schemas/Missing' }, { openapi: '3.0.3', components: { schemas: {} } }, { skip: 'readOnly' })).toThrow(/Missing/);
  });
});

describe('sampleSchema and large examples', () => {
  it('samples a schema whose example array is too long to spread into one call', () => {
    const huge = Array.from({ length: 300_000 }, (_, i) => i);
    const doc = { openapi: '3.0.3', components: { schemas: { Wide: { type: 'object', properties: { list: { type: 'array', items: { type: 'integer' }, example: huge } } } } } };
    const value = sampleSchema({ $ref: '#/components/schemas/Wide' }, doc, { skip: 'readOnly' }) as { list?: unknown[] };
    // Over the value budget at every level: cut to level 1, where an array is [] (openapi-sampler's cut).
    expect(value).toEqual({ list: [] });
  });
});

/**
 * Graph's shapes: a base entity with a discriminator on `@odata.type` whose mapping names the
 * schemas that extend it with allOf, navigation properties that nest past the depth cut, and
 * complex types whose `@odata.type` is required.
 */
function odataDocument(mapping: 'explicit' | 'implicit'): Record<string, unknown> {
  const derived = (name: string, extra: Record<string, unknown>) => ({
    allOf: [{ $ref: '#/components/schemas/graph.entity' }, { type: 'object', properties: { '@odata.type': { type: 'string' }, ...extra } }],
  });
  return {
    openapi: '3.0.4',
    components: {
      schemas: {
        'graph.entity': {
          type: 'object',
          required: ['@odata.type'],
          properties: { id: { type: 'string' }, '@odata.type': { type: 'string' } },
          discriminator: {
            propertyName: '@odata.type',
            ...(mapping === 'explicit' ? { mapping: { '#graph.activity': '#/components/schemas/graph.activity', '#graph.historyItem': '#/components/schemas/graph.historyItem' } } : {}),
          },
        },
        'graph.activity': derived('graph.activity', {
          historyItems: { type: 'array', items: { $ref: '#/components/schemas/graph.historyItem' } },
          visualElements: { $ref: '#/components/schemas/graph.visualInfo' },
        }),
        'graph.historyItem': derived('graph.historyItem', {
          activity: { $ref: '#/components/schemas/graph.activity' },
          next: { type: 'array', items: { $ref: '#/components/schemas/graph.historyItem' } },
        }),
        'graph.visualInfo': {
          type: 'object',
          required: ['@odata.type', 'kind'],
          properties: { '@odata.type': { type: 'string' }, kind: { type: 'string', enum: ['tile', 'card'] }, attribution: { $ref: '#/components/schemas/graph.visualInfo' } },
        },
      },
    },
  };
}

/** Every value of `value`, with its pointer. */
function* walk(value: unknown, pointer = ''): Generator<[string, unknown]> {
  yield [pointer, value];
  if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* walk(v, `${pointer}/${k}`);
}

describe('sampleSchema mends what the sampler gets wrong', () => {
  it('a derived schema carries its mapping key in the discriminator property', () => {
    const value = sampleSchema({ $ref: '#/components/schemas/graph.activity' }, odataDocument('explicit'), { skip: 'writeOnly' }) as Record<string, unknown>;
    expect(value['@odata.type']).toBe('#graph.activity');
    expect((value.historyItems as Record<string, unknown>[])[0]?.['@odata.type']).toBe('#graph.historyItem');
  });

  it('without a mapping, the tag is the schema name (the implicit mapping)', () => {
    const value = sampleSchema({ $ref: '#/components/schemas/graph.activity' }, odataDocument('implicit'), { skip: 'writeOnly' }) as Record<string, unknown>;
    expect(value['@odata.type']).toBe('graph.activity');
    expect((value.historyItems as Record<string, unknown>[])[0]?.['@odata.type']).toBe('graph.historyItem');
  });

  it('beside oneOf, the tag names the alternative the sampler took (by mapping key, else by name)', () => {
    const doc = (mapping: Record<string, string> | undefined) => ({
      openapi: '3.0.3',
      components: {
        schemas: {
          Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }], discriminator: { propertyName: 'petType', ...(mapping ? { mapping } : {}) } },
          Cat: { type: 'object', required: ['petType'], properties: { petType: { type: 'string' }, purrs: { type: 'boolean' } } },
          Dog: { type: 'object', required: ['petType'], properties: { petType: { type: 'string' }, barks: { type: 'boolean' } } },
        },
      },
    });
    const schema = { $ref: '#/components/schemas/Pet' };
    expect(sampleSchema(schema, doc(undefined), { skip: 'writeOnly' })).toEqual({ petType: 'Cat', purrs: true });
    expect(sampleSchema(schema, doc({ cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' }), { skip: 'writeOnly' })).toEqual({ petType: 'cat', purrs: true });
  });

  it('a schema cut past the depth gives [] (not [null]), and cut objects keep their required properties', () => {
    for (const limits of [SAMPLE_LIMITS, { depth: 3, refs: 2_000, values: 2_500 }]) {
      // As the mock writes it: JSON, where a cut optional property (undefined) is left out.
      const value = JSON.parse(JSON.stringify(sampleSchema({ $ref: '#/components/schemas/graph.activity' }, odataDocument('explicit'), { skip: 'writeOnly' }, limits))) as unknown;
      const nulls = [...walk(value)].filter(([, v]) => v === null).map(([p]) => p);
      expect(nulls, JSON.stringify(value)).toEqual([]);
      expect(JSON.stringify(value)).toMatch(/"(historyItems|next)":\[\]/);
      // Every object sampled from a schema with required properties has them, cut or not.
      for (const [pointer, v] of walk(value)) {
        if (pointer.endsWith('/visualElements') || pointer.endsWith('/attribution')) expect(v, pointer).toMatchObject({ '@odata.type': 'string', kind: 'tile' });
        if (/\/(historyItems|next)\/\d+$/.test(pointer)) expect(v, pointer).toMatchObject({ '@odata.type': '#graph.historyItem' });
      }
    }
  });

  it('a cut array keeps its minItems, filled with shallow samples', () => {
    const doc = {
      openapi: '3.0.3',
      components: {
        schemas: {
          Node: { type: 'object', required: ['name'], properties: { name: { type: 'string', example: 'n' }, children: { type: 'array', minItems: 1, items: { allOf: [{ $ref: '#/components/schemas/Node' }] } } } },
        },
      },
    };
    const value = JSON.parse(JSON.stringify(sampleSchema({ $ref: '#/components/schemas/Node' }, doc, { skip: 'writeOnly' }, { depth: 3, refs: 2_000, values: 2_500 }))) as unknown;
    for (const [pointer, v] of walk(value)) {
      expect(v, pointer).not.toBeNull();
      if (pointer.endsWith('/children')) expect((v as unknown[]).length, pointer).toBeGreaterThanOrEqual(1);
      if (/\/children\/\d+$/.test(pointer)) expect(v, pointer).toMatchObject({ name: 'n' });
    }
  });

  it('fills a cut object with its required properties, but not one the sample leaves out (readOnly in a request), and keeps __proto__ an own name', () => {
    const doc = JSON.parse(
      JSON.stringify({
        openapi: '3.0.3',
        components: {
          schemas: {
            Node: {
              type: 'object',
              required: ['id', 'PROTO', 'name'],
              properties: { id: { type: 'integer', readOnly: true }, PROTO: { type: 'string', example: 'p' }, name: { type: 'string', format: 'date' }, child: { $ref: '#/components/schemas/Node' } },
            },
          },
        },
      }).replaceAll('PROTO', '__proto__'),
    ) as Record<string, unknown>;
    const limits = { depth: 2, refs: 2_000, values: 2_500 };
    const response = sampleSchema({ $ref: '#/components/schemas/Node' }, doc, { skip: 'writeOnly' }, limits) as Record<string, Record<string, unknown>>;
    const request = sampleSchema({ $ref: '#/components/schemas/Node' }, doc, { skip: 'readOnly' }, limits) as Record<string, Record<string, unknown>>;
    expect(JSON.parse(JSON.stringify(response.child))).toEqual(JSON.parse('{"id":0,"__proto__":"p","name":"2019-08-24"}'));
    expect(Object.hasOwn(response.child!, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(request.child))).toEqual(JSON.parse('{"__proto__":"p","name":"2019-08-24"}'));
  });

  it('leaves null where the schema allows it, and a sample that needs nothing as the sampler made it', async () => {
    const { sample } = await import('openapi-sampler');
    const doc = {
      openapi: '3.0.3',
      components: {
        schemas: {
          Pet: {
            type: 'object',
            required: ['name', 'kind'],
            properties: {
              name: { type: 'string' },
              kind: { type: 'string', example: 'cat' },
              owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'object', nullable: true }] },
              tags: { type: 'array', items: { type: 'string', nullable: true } },
              nothing: { nullable: true, type: 'string', default: null },
            },
            // 'cat' is a mapping key already: the tag stays as the sampler took it.
            discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Pet' } },
          },
          Owner: { type: 'object', properties: { id: { type: 'integer' } } },
        },
      },
    };
    const schema = { $ref: '#/components/schemas/Pet' };
    const value = sampleSchema(schema, doc, { skip: 'writeOnly' });
    expect(value).toEqual(sample(schema as never, { quiet: true, maxSampleDepth: 10, skipWriteOnly: true }, doc));
    expect(value).toMatchObject({ kind: 'cat', nothing: null });
  });
});
