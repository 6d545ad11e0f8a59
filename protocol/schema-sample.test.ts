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
