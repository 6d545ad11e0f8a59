/**
 * Table-driven keyword conformance: every case in test/fixtures/checker/schema-cases/<dialect>.json
 * is wrapped in a minimal definition of its dialect and each test value is validated against it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PreparedDefinition } from './definition.js';
import { validateValue } from './check.js';
import type { Dialect, Direction } from './evaluation.js';

interface SchemaCase {
  description: string;
  schema: unknown;
  components?: Record<string, unknown>;
  direction?: Direction;
  tests: { description: string; data: unknown; valid: boolean; pointers?: string[] }[];
}

const dir = join(import.meta.dirname, '../../../test/fixtures/checker/schema-cases');

export function wrapSchema(dialect: Dialect, c: SchemaCase): PreparedDefinition {
  const schemas = { ...c.components, Root: c.schema };
  const document =
    dialect === 'swagger2'
      ? { swagger: '2.0', info: { title: 'case', version: '1' }, paths: {}, definitions: schemas }
      : { openapi: dialect === 'oas30' ? '3.0.3' : '3.1.0', info: { title: 'case', version: '1' }, paths: {}, components: { schemas } };
  return new PreparedDefinition([{ uri: 'https://cases.test/openapi.json', document }], c.description);
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const { dialect, cases } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { dialect: Dialect; cases: SchemaCase[] };
  describe(file, () => {
    for (const c of cases) {
      const root = { docUri: 'https://cases.test/openapi.json', pointer: dialect === 'swagger2' ? '/definitions/Root' : '/components/schemas/Root' };
      for (const t of c.tests) test(`${c.description}: ${t.description}`, () => {
        const def = wrapSchema(dialect, c);
        const { verdict } = validateValue(def, root, t.data, c.direction ?? 'response');
        expect(verdict.reason, JSON.stringify(verdict.notes)).toBeUndefined();
        expect(verdict.kind, JSON.stringify(verdict.problems)).toBe(t.valid ? 'pass' : 'problems');
        if (c.description.startsWith('annotation keywords')) expect(verdict.notes).toEqual([]);
        if (t.pointers) expect([...new Set(verdict.problems.map((p) => p.pointer))].sort()).toEqual([...t.pointers].sort());
      });
    }
  });
}
