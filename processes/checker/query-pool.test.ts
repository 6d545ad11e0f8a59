/**
 * The Query tab's worker thread, built as scripts/build.mjs builds it: a query answers with its
 * items; one that never ends is stopped at its budget, and one that eats its heap dies alone;
 * either way the next query is answered by a fresh worker.
 */
import { build } from 'esbuild';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { repoRoot } from '../supervisor/paths.js';
import { QueryPool } from './query-pool.js';

// Beside the repository's node_modules: the engines are found from the worker file's own place.
const dir = join(repoRoot(), 'test-results', `query-worker-${process.pid}`);
let pool: QueryPool;

beforeAll(async () => {
  await mkdir(dir, { recursive: true });
  const workerFile = join(dir, 'checker-query-worker.mjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'query-worker.ts')],
    outfile: workerFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
  });
  pool = new QueryPool({ workerFile, budgetMs: 1_500, heapMb: 64 });
});
afterAll(async () => {
  await pool?.close();
  await rm(dir, { recursive: true, force: true });
});

const json = new TextEncoder().encode(JSON.stringify({ a: [1, 2, 3] }));

test('answers a query with its items', async () => {
  await expect(pool.run({ language: 'xpath', expression: '?a?*[. > 1]', source: { kind: 'body', bytes: json } })).resolves.toMatchObject({ count: 2, shown: 2 });
});

test('reports an expression error as the query\'s own error', async () => {
  await expect(pool.run({ language: 'jsonpath', expression: '$.a[?(@ >)]', source: { kind: 'body', bytes: json } })).rejects.toMatchObject({ code: 'query-invalid' });
});

// A filter over a lazy range runs on in constant memory (a sum over it fills a 64 MB heap in about a second).
test('stops a query that never ends at its budget, then answers the next one', async () => {
  const started = Date.now();
  await expect(pool.run({ language: 'xpath', expression: 'count((1 to 1000000000000)[. lt 0])', source: { kind: 'body', bytes: json } })).rejects.toMatchObject({
    code: 'query-budget',
    message: 'The query ran for 1.5 s without finishing and was stopped.',
  });
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
  await expect(pool.run({ language: 'jsonpath', expression: '$.a.length', source: { kind: 'body', bytes: json } })).resolves.toMatchObject({ count: 1 });
});

test('a query that fills its heap fails alone, and the next one is answered', async () => {
  await expect(pool.run({ language: 'xpath', expression: 'string-join((1 to 50000000) ! "xxxxxxxxxxxxxxxxxxxx")', source: { kind: 'body', bytes: json } })).rejects.toMatchObject({
    code: expect.stringMatching(/^query-(failed|budget)$/),
  });
  await expect(pool.run({ language: 'xpath', expression: 'array:size(?a)', source: { kind: 'body', bytes: json } })).resolves.toMatchObject({ format: 'json', json: '[\n  3\n]' });
});

const xml = new TextEncoder().encode('<r xmlns:m="urn:m"><m:a n="1"/><m:a n="2"/></r>');

test('over an XML body: answers with the items as XML, and stops a query that never ends at its budget, saying reading the body counts', async () => {
  await expect(pool.run({ language: 'xpath', expression: '//m:a/@n', source: { kind: 'body', bytes: xml, syntax: 'xml' } })).resolves.toEqual({
    format: 'xml',
    count: 2,
    shown: 2,
    items: [
      { kind: 'node', text: 'n="1"' },
      { kind: 'node', text: 'n="2"' },
    ],
  });
  await expect(pool.run({ language: 'xpath', expression: 'let $n := count(//m:a) return count((1 to 1000000000000)[. lt -$n])', source: { kind: 'body', bytes: xml, syntax: 'xml' } })).rejects.toMatchObject({
    code: 'query-budget',
    message: 'The query ran for 1.5 s, reading the XML body included, without finishing and was stopped.',
  });
  await expect(pool.run({ language: 'xpath', expression: 'count(//m:a)', source: { kind: 'body', bytes: xml, syntax: 'xml' } })).resolves.toMatchObject({ items: [{ kind: 'value', text: '2' }] });
});
