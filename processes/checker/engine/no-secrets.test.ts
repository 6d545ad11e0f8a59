/**
 * Property test: over many random bodies full of secret-looking strings, checked against schemas
 * that fail them in every way (types, enums, patterns, formats, lengths, const, combinators,
 * unevaluated properties), no problem, reason or note ever contains a value from the body.
 */
import { expect, test } from 'vitest';
import { loadDocuments } from '../../../test/fixtures/checker/load.js';
import { checkExchange, validateValue } from './check.js';
import { PreparedDefinition } from './definition.js';

/** mulberry32: a small seeded generator, so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PREFIXES = ['sk_live_', 'ghp_', 'xoxb-', 'AKIA', 'Bearer eyJ', 'password=', 'AIza', 'secret-'];
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEYS = ['id', 'name', 'token', 'email', 'when', 'kind', 'items', 'meta', 'a', 'b', 'extra', 'n'];

function secret(r: () => number): string {
  let s = PREFIXES[Math.floor(r() * PREFIXES.length)]!;
  for (let i = 0; i < 12 + Math.floor(r() * 20); i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return s;
}

function randomValue(r: () => number, depth: number, strings: string[]): unknown {
  const pick = r();
  if (depth > 3 || pick < 0.35) {
    const s = secret(r);
    strings.push(s);
    return s;
  }
  if (pick < 0.45) return Math.floor(r() * 1e9) + 0.5;
  if (pick < 0.5) return r() < 0.5;
  if (pick < 0.55) return null;
  if (pick < 0.75) return Array.from({ length: 1 + Math.floor(r() * 4) }, () => randomValue(r, depth + 1, strings));
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < 1 + Math.floor(r() * 5); i++) obj[KEYS[Math.floor(r() * KEYS.length)]!] = randomValue(r, depth + 1, strings);
  return obj;
}

const strict = {
  type: 'object',
  required: ['id', 'kind'],
  properties: {
    id: { type: 'integer', format: 'int32' },
    name: { type: 'string', minLength: 40, pattern: '^[a-z]+$' },
    token: { const: 'fixed' },
    email: { type: 'string', format: 'email' },
    when: { type: 'string', format: 'date-time' },
    kind: { enum: ['a', 'b'] },
    items: { type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 2 }] }, uniqueItems: true },
    meta: { anyOf: [{ type: 'null' }, { type: 'object', propertyNames: { pattern: '^x' }, additionalProperties: { not: { type: 'string' } } }] },
    a: { type: 'string', format: 'uuid' },
    b: { if: { type: 'string' }, then: { format: 'ipv4' }, else: { type: 'array', contains: { const: 1 } } },
  },
  dependentRequired: { name: ['email'] },
  unevaluatedProperties: false,
};
const def = new PreparedDefinition(
  [{ uri: 'secrets.json', document: { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { Root: strict } } } }],
  'secrets',
);
const museum = new PreparedDefinition(loadDocuments('redocly-museum.yaml'), 'museum');

test('problems never quote the body', () => {
  let problems = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const r = rng(seed);
    const strings: string[] = [];
    const body = randomValue(r, 0, strings);
    const { verdict } = validateValue(def, { docUri: def.entryUri, pointer: '/components/schemas/Root' }, body, 'response');
    const museumVerdict = checkExchange(museum, {
      method: 'GET',
      url: 'https://x.test/special-events',
      status: seed % 2 ? 200 : 400,
      contentType: seed % 2 ? 'application/json' : 'application/problem+json',
      body: new TextEncoder().encode(JSON.stringify(body)),
    });
    for (const v of [verdict, museumVerdict]) {
      const text = JSON.stringify([v.problems.map((p) => p.message), v.reason, v.notes]);
      for (const s of strings) expect(text.includes(s), `seed ${seed} leaked a body value`).toBe(false);
      for (const p of v.problems) for (const s of strings) expect(p.pointer.includes(s), `seed ${seed} leaked into a pointer`).toBe(false);
      problems += v.problems.length;
    }
  }
  expect(problems).toBeGreaterThan(400);
});

test('a body that does not parse is not quoted either', () => {
  for (let seed = 1; seed <= 50; seed++) {
    const r = rng(seed);
    const s = secret(r);
    const broken = `{"token": "${s}", ${s}}`;
    const v = checkExchange(museum, { method: 'GET', url: '/museum-hours', status: 200, contentType: 'application/json', body: new TextEncoder().encode(broken) });
    expect(v.kind).toBe('problems');
    expect(JSON.stringify(v)).not.toContain(s.slice(4));
  }
});
