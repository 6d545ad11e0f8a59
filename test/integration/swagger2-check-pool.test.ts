/**
 * A Swagger 2.0 contract in the mock host's check workers (dist/mock-check-worker.js, built): the
 * documents as written cross to a worker (never the converted bundle), and a body over 64 KiB,
 * checked there, gets the problems the listener's own check gives a small one; the pool's checker
 * gives the router the basePath the check strips. dist/ must be built first.
 */
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { MockCheckPool } from '../../processes/mock-host/check-pool.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { readContract, type ContractRequest } from '../../processes/mock-host/engine/contract.js';
import { cachedDefinition } from '../../processes/mock-host/engine/test-support/mocks.js';

const workerFile = join(repoRoot(), 'dist', 'mock-check-worker.js');
const pools: MockCheckPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const document = {
  swagger: '2.0',
  info: { title: 'notes', version: '1' },
  basePath: '/v2',
  definitions: { Note: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 300_000 }, pinned: { type: 'boolean', 'x-nullable': true } } } },
  paths: { '/notes': { post: { parameters: [{ name: 'note', in: 'body', required: true, schema: { $ref: '#/definitions/Note' } }], responses: { 201: { description: 'made' } } } } },
};

function request(body: unknown): ContractRequest {
  const text = JSON.stringify(body);
  const bytes = Buffer.from(text);
  return { method: 'POST', path: '/notes', pathParams: {}, query: {}, headers: [], contentType: 'application/json', body: text, bodyBytes: bytes, bodySize: bytes.byteLength };
}

it('checks a large Swagger 2.0 body in a worker with the problems the listener gives a small one', async () => {
  const pool = new MockCheckPool({ workerFile });
  pools.push(pool);
  const checker = pool.checker(await readContract(cachedDefinition({ 'swagger.json': document })));
  const op = { method: 'POST', path: '/notes' };
  const small = checker.checkRequestNow!(op, request({ pinned: 'yes' }));
  const big = request({ pinned: 'yes', extra: 'x'.repeat(100 * 1024) });
  expect(checker.checkRequestNow!(op, big)).toBeUndefined();
  const inWorker = await checker.checkRequest(op, big);
  expect(small?.problems.length).toBe(2);
  expect(inWorker).toEqual(small);
  expect(await checker.checkRequest(op, request({ text: 'x'.repeat(100 * 1024), pinned: null }))).toEqual({ problems: [] });
  expect(checker.routePrefixes!(op)).toEqual(['/v2', '']);
}, 30_000);
