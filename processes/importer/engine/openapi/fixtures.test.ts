/**
 * Every real OpenAPI and Swagger document under test/fixtures/importers/openapi imports
 * without a crash, with as many requests as the document has operations (counted here
 * independently of the engine), unique ids, schema-valid output, and the same output twice.
 * The deliberately broken documents fail with "this format but broken" or "not this format".
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isWireError } from '../../../../protocol/errors.js';
import { ImportResult } from '../../../../protocol/model/import.js';
import { checkAll } from '../../../../protocol/validate-node.js';
import { importSource } from '../test-support.js';

const ROOT = 'test/fixtures/importers/openapi';

/** Documents that are not importable on purpose, with what must happen. */
const BROKEN: Record<string, { code: string; line?: number; path?: string }> = {
  'bruno-fixtures/openapi-broken.json': { code: 'import-malformed', line: 5 },
  'bruno-fixtures/openapi-malformed.yaml': { code: 'import-malformed', line: 14 },
  'bruno-fixtures/openapi-empty.yaml': { code: 'import-unrecognised' },
  'bruno-fixtures/openapi-invalid-extension.txt': { code: 'import-unrecognised' },
  'bruno-fixtures/openapi-invalid-version.yaml': { code: 'import-malformed', path: '/openapi' },
};

/** Entry documents: multi-file sets are imported through their entry only. */
function entries(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name === 'LICENSES' || name === 'expected') continue;
        walk(full);
      } else if (!/\.md$/.test(name)) {
        const rel = relative(ROOT, full);
        if (/petstore-separate\//.test(rel) && !/swagger\.(json|yaml)$/.test(rel)) continue;
        if (rel === 'swagger-1.2/listing/pet') continue;
        out.push(rel);
      }
    }
  };
  walk(ROOT);
  return out;
}

const METHODS_3 = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Obj = Record<string, unknown>;
const o = (x: unknown): Obj => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Obj) : {});
const a = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);

/** Operations and webhook/callback operations, counted straight from the document. */
function countOperations(rel: string): { operations: number; webhooks: number } {
  const doc = o(parse(readFileSync(join(ROOT, rel), 'utf8')));
  if (doc['swaggerVersion'] !== undefined) {
    const listing = a(doc['apis']).every((api) => o(api)['operations'] === undefined);
    const declarations = listing ? [o(parse(readFileSync(join(ROOT, 'swagger-1.2/listing/pet'), 'utf8')))] : [doc];
    const apis = declarations.flatMap((d) => a(d['apis']));
    return { operations: apis.reduce<number>((n, api) => n + a(o(api)['operations']).length, 0), webhooks: 0 };
  }
  const resolve = (node: unknown): Obj => {
    const ref = o(node)['$ref'];
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return o(node);
    return o(ref.slice(2).split('/').reduce<unknown>((at, k) => o(at)[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc));
  };
  if (doc['swagger'] !== undefined) {
    let operations = 0;
    for (const item of Object.values(o(doc['paths']))) operations += Object.keys(o(item)).filter((k) => METHODS_3.slice(0, 7).includes(k)).length;
    return { operations, webhooks: 0 };
  }
  const minor = Number(String(doc['openapi']).split('.')[1] ?? 0);
  const methods = minor >= 2 ? [...METHODS_3, 'query'] : METHODS_3;
  const opsOf = (raw: unknown): Obj[] => {
    const item = resolve(raw);
    const ops = Object.keys(item).filter((k) => methods.includes(k)).map((k) => o(item[k]));
    if (minor >= 2) ops.push(...Object.values(o(item['additionalOperations'])).map(o));
    return ops;
  };
  let operations = 0;
  let webhooks = 0;
  for (const [path, item] of Object.entries(o(doc['paths']))) {
    if (path.startsWith('x-')) continue;
    for (const op of opsOf(item)) {
      operations++;
      for (const callback of Object.values(o(op['callbacks']))) {
        for (const [expression, cbItem] of Object.entries(resolve(callback))) if (!expression.startsWith('x-')) webhooks += opsOf(cbItem).length;
      }
    }
  }
  if (minor >= 1) for (const item of Object.values(o(doc['webhooks']))) webhooks += opsOf(item).length;
  return { operations, webhooks };
}

describe('importing every OpenAPI fixture', () => {
  const all = entries();

  it('found the fixture documents', () => {
    expect(all.length).toBeGreaterThan(80);
  });

  for (const rel of all) {
    const broken = BROKEN[rel];
    if (broken) {
      it(`${rel} is refused with ${broken.code}`, async () => {
        const err = await importSource({ kind: 'file', path: join(ROOT, rel) }).then(
          () => null,
          (e: unknown) => e,
        );
        expect(isWireError(err)).toBe(true);
        const wire = err as { code: string; message: string; data?: { line?: number; path?: string } };
        expect(wire.code).toBe(broken.code);
        if (broken.line !== undefined) expect(wire.data?.line).toBe(broken.line);
        if (broken.path !== undefined) expect(wire.data?.path).toBe(broken.path);
        expect(wire.message).toContain(rel.split('/').pop());
      });
      continue;
    }
    it(`${rel} imports every operation`, async () => {
      const { result } = await importSource({ kind: 'file', path: join(ROOT, rel) });
      const expected = countOperations(rel);
      const [imported] = result.apis;
      expect(imported).toBeDefined();
      expect(imported?.requests.length).toBe(expected.operations);
      expect(result.report.requestCount).toBe(expected.operations);
      expect(result.webhooks?.requests.length ?? 0).toBe(expected.webhooks);
      expect(checkAll(ImportResult, result, 20)).toEqual([]);
      const ids = [imported?.api.id, ...(imported?.requests ?? []).map((r) => r.request.id), ...(result.webhooks?.requests ?? []).map((r) => r.request.id)];
      expect(new Set(ids).size).toBe(ids.length);
      for (const { request } of imported?.requests ?? []) {
        expect(request.operation).toBeDefined();
        expect(request.generated?.url).toBe(request.url);
      }
      const again = await importSource({ kind: 'file', path: join(ROOT, rel) });
      expect(again.result).toEqual(result);
    });
  }
});

describe('documents that are not OpenAPI, imported with the format chosen by hand', () => {
  it('an empty file is this format but broken', async () => {
    const err = await importSource({ kind: 'file', path: join(ROOT, 'bruno-fixtures/openapi-empty.yaml') }, {}, { offline: true }, 'openapi').catch((e: unknown) => e);
    expect((err as { code: string }).code).toBe('import-malformed');
    expect((err as { message: string }).message).toMatch(/empty/);
  });

  it('plain text is this format but broken, not a crash', async () => {
    const err = await importSource({ kind: 'file', path: join(ROOT, 'bruno-fixtures/openapi-invalid-extension.txt') }, {}, { offline: true }, 'openapi').catch((e: unknown) => e);
    expect((err as { code: string }).code).toBe('import-malformed');
  });

  it('a document without info imports with a warning and is named after the file', async () => {
    const { result } = await importSource({ kind: 'file', path: join(ROOT, 'bruno-fixtures/openapi-missing-info.yaml') });
    expect(result.apis[0]?.api.name).toBe('openapi-missing-info');
    expect(result.report.warnings.map((w) => w.message).join(' ')).toMatch(/no info section/);
  });
});
