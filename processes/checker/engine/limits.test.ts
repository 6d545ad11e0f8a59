/** The check's limits (SPEC.md, Limits): depth, steps, time, problem count; partial results kept. */
import { expect, test } from 'vitest';
import { validateValue } from './check.js';
import { PreparedDefinition } from './definition.js';

function define(schemas: Record<string, unknown>) {
  const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas } };
  return new PreparedDefinition([{ uri: 'https://limits.test/api.json', document }], 'limits');
}
const root = (name = 'Root') => ({ docUri: 'https://limits.test/api.json', pointer: `/components/schemas/${name}` });

const nested = define({
  Root: { type: 'object', properties: { n: { type: 'integer' }, child: { $ref: '#/components/schemas/Root' } } },
});

function chain(depth: number, top: Record<string, unknown> = {}): unknown {
  let value: Record<string, unknown> = { n: 1 };
  for (let i = 1; i < depth; i++) value = { child: value };
  // depth - 1 wrappers put `n` at depth levels down.
  return { ...top, ...value };
}

test('a value 256 levels below the root is checked; one level more is too deep', () => {
  // chain(n) puts its innermost `n` n levels down.
  expect(validateValue(nested, root(), chain(256), 'response').verdict.kind).toBe('pass');
  const { verdict } = validateValue(nested, root(), chain(257), 'response');
  expect(verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'too-deep' }, partial: true });
});

test('problems found before the depth stop are kept', () => {
  const { verdict } = validateValue(nested, root(), chain(300, { n: 'one' }), 'response');
  expect(verdict).toMatchObject({ kind: 'not-checked', partial: true, reason: { code: 'too-deep' } });
  expect(verdict.problems).toEqual([{ pointer: '/n', keyword: 'type', message: 'expected integer, found string' }]);
});

/** anyOf nested 24 deep with two failing branches at every level: 2^24 steps if nothing stopped it. */
function explosive(levels: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = { L0: { type: 'string' } };
  for (let i = 1; i <= levels; i++) {
    const below = { $ref: `#/components/schemas/L${i - 1}` };
    schemas[`L${i}`] = { anyOf: [below, { allOf: [below] }] };
  }
  return schemas;
}

test('a schema that explodes in steps stops at 200,000 steps, keeping earlier problems', () => {
  const def = define({ ...explosive(24), Root: { type: 'object', properties: { a: { type: 'string' }, b: { $ref: '#/components/schemas/L24' } } } });
  const { verdict } = validateValue(def, root(), { a: 1, b: 2 }, 'response');
  expect(verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'too-many-steps' }, partial: true });
  expect(verdict.steps).toBe(200_001);
  expect(verdict.problems).toEqual([{ pointer: '/a', keyword: 'type', message: 'expected string, found number' }]);
});

test('validation stops by itself at its deadline, keeping what it found', () => {
  const def = define({ Root: { type: 'array', items: { type: 'integer' } } });
  let clock = 0;
  const body = ['x', ...Array.from({ length: 10_000 }, (_, i) => i)];
  const { verdict } = validateValue(def, root(), body, 'response', { now: () => (clock += 1), deadline: 20 });
  expect(verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'budget' }, partial: true });
  expect(verdict.problems).toEqual([{ pointer: '/0', keyword: 'type', message: 'expected integer, found string' }]);
});

test('at most 50 problems are listed', () => {
  const def = define({ Root: { type: 'array', items: { type: 'integer' } } });
  const { verdict } = validateValue(def, root(), Array.from({ length: 120 }, () => 'x'), 'response');
  expect(verdict).toMatchObject({ kind: 'problems', moreProblems: true, partial: false });
  expect(verdict.problems).toHaveLength(50);
  expect(verdict.problems[49]!.pointer).toBe('/49');
});

test('a schema nested deeper than the call stack ends as too deep, not as a crash', () => {
  let schema: unknown = { type: 'integer' };
  for (let i = 0; i < 20_000; i++) schema = { allOf: [schema] };
  const def = define({ Root: schema });
  expect(validateValue(def, root(), 1, 'response').verdict).toMatchObject({ kind: 'not-checked', reason: { code: 'too-deep' } });
});

/** Graph's shape: a base entity whose discriminator names the schemas that extend it with allOf. */
const inherited = define({
  Entity: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } }, discriminator: { propertyName: 'kind', mapping: { Node: '#/components/schemas/Node', Leaf: '#/components/schemas/Leaf' } } },
  Node: { allOf: [{ $ref: '#/components/schemas/Entity' }, { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' }, size: { type: 'integer' } } }] },
  Leaf: { allOf: [{ $ref: '#/components/schemas/Entity' }, { type: 'object', properties: { size: { type: 'integer' } } }] },
  Root: { type: 'object', properties: { top: { $ref: '#/components/schemas/Node' }, any: { $ref: '#/components/schemas/Entity' } } },
});

function tagged(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { kind: 'Node', size: 1 };
  for (let i = 1; i < levels; i++) value = { kind: 'Node', size: i, child: value };
  return value;
}

test('a tag naming the schema the body is already checked against is not followed again: steps grow with the depth, not doubling', () => {
  // Followed again at every level, 30 levels were 2^30 checks of the innermost one.
  const { verdict } = validateValue(inherited, root(), { top: tagged(30) }, 'response');
  expect(verdict.kind).toBe('pass');
  expect(verdict.steps).toBeLessThan(2_000);
});

test('a body typed as the base is still checked against the schema its tag names, and one typed as that schema once', () => {
  const { verdict } = validateValue(inherited, root(), { any: { kind: 'Leaf', size: 'big' }, top: { kind: 'Node', child: { kind: 'Node', size: 'small' } } }, 'response');
  expect(verdict.problems).toEqual([
    { pointer: '/any/size', keyword: 'type', message: 'expected integer, found string' },
    { pointer: '/top/child/size', keyword: 'type', message: 'expected integer, found string' },
  ]);
});
