import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledChecksSource } from './compiled-checks.js';
import { receivedSchemas } from './messages.js';
import { aotValidator, validateInterpreted, type CompiledCheck } from './validate-browser.js';

let dir: string;
let checks: Record<string, CompiledCheck>;

beforeAll(async () => {
  // The module exactly as the build writes it into the page's bundle.
  dir = await mkdtemp(join(tmpdir(), 'parley-checks-'));
  const file = join(dir, 'checks.mjs');
  await writeFile(file, compiledChecksSource());
  ({ checks } = (await import(pathToFileURL(file).href)) as { checks: Record<string, CompiledCheck> });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

/** Values that pass and values that fail: the schema's own default value, then each broken a few ways. */
function samples(schema: TSchema): unknown[] {
  const out: unknown[] = [null, 42, 'text', [], {}, [{}], { extra: [1, 'x'] }];
  try {
    const valid = Value.Create(schema);
    out.push(valid);
    if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
      for (const key of Object.keys(valid)) {
        out.push({ ...valid, [key]: undefined });
        out.push({ ...valid, [key]: 12345 });
        out.push({ ...valid, [key]: [{ kind: 'nonsense' }] });
      }
    }
  } catch {
    // Some unions have no default value; the fixed samples still apply.
  }
  return out;
}

describe('checks compiled at build time for the page', () => {
  it('exist for the payloads that can grow, among them the project tree', () => {
    expect(Object.keys(checks).length).toBeGreaterThan(20);
    expect(checks['project.open/res']).toBeTypeOf('function');
    expect(checks['event project.changed']).toBeTypeOf('function');
  });

  it('agree with TypeBox interpreting the schema, on valid and broken payloads of every message', () => {
    let compared = 0;
    for (const [name, schema] of receivedSchemas()) {
      const check = checks[name];
      if (!check) continue;
      for (const value of samples(schema)) {
        expect([name, check(value)]).toEqual([name, Value.Check(schema, value)]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('the page validator uses them and reports a mismatch as the interpreter words it', () => {
    const validate = aotValidator(checks);
    const [, tree] = receivedSchemas().find(([name]) => name === 'project.open/res')!;
    const good = { root: '/p', name: 'P', properties: [], problems: [], opened: 'o1', seq: 0, items: [{ kind: 'request', id: 'r1', parent: 'a1', name: 'R', method: 'GET', orphaned: false }] };
    expect(validate(tree, good)).toBeNull();
    const bad = { ...good, items: [{ kind: 'request', id: 'r1' }] };
    expect(validate(tree, bad)).toBe(validateInterpreted(tree, bad));
    expect(validate(tree, bad)).not.toBeNull();
    // A compiled check that disagrees would be used: the validator trusts what it was given.
    expect(aotValidator({ 'project.open/res': () => false })(tree, good)).not.toBeNull();
  });
});
