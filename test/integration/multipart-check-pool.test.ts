/**
 * A multipart/form-data request in the mock host's check workers (dist/mock-check-worker.js,
 * built): a body over 64 KiB is not checked on the listener but in a worker, whose bundle carries
 * the same multipart reader (undici's), and gets the problems the listener gives a small one, for
 * a Swagger 2.0 form and an OpenAPI 3.x schema alike. dist/ must be built first.
 */
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { MockCheckPool } from '../../processes/mock-host/check-pool.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { readContract, type ContractRequest } from '../../processes/mock-host/engine/contract.js';
import { cachedDefinition } from '../../processes/mock-host/engine/test-support/mocks.js';
import { multipartBody, type Field } from '../../processes/mock-host/engine/test-support/multipart.js';

const workerFile = join(repoRoot(), 'dist', 'mock-check-worker.js');
const pools: MockCheckPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const swagger = {
  swagger: '2.0',
  info: { title: 'uploads', version: '1' },
  paths: {
    '/uploads': {
      post: {
        consumes: ['multipart/form-data'],
        parameters: [
          { name: 'user', in: 'formData', required: true, type: 'integer' },
          { name: 'photo', in: 'formData', required: true, type: 'file' },
        ],
        responses: { 201: { description: 'stored' } },
      },
    },
  },
};
const openapi = {
  openapi: '3.1.0',
  info: { title: 'uploads', version: '1' },
  paths: {
    '/uploads': {
      post: {
        requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', required: ['user', 'photo'], properties: { user: { type: 'integer' }, photo: { type: 'string', format: 'binary' } } } } } },
        responses: { '201': { description: 'stored' } },
      },
    },
  },
};

async function request(fields: Field[]): Promise<ContractRequest> {
  const { contentType, body } = await multipartBody(fields);
  return { method: 'POST', path: '/uploads', pathParams: {}, query: {}, headers: [], contentType, body: body.toString('utf8'), bodyBytes: body, bodySize: body.byteLength };
}

it.each([
  ['Swagger 2.0', swagger, 'The formData parameter user is required.'],
  ['OpenAPI 3.1', openapi, 'The form field user is required.'],
])('checks a large %s multipart body in a worker with the problems the listener gives a small one', async (_, document, missing) => {
  const pool = new MockCheckPool({ workerFile });
  pools.push(pool);
  const checker = pool.checker(await readContract(cachedDefinition({ 'api.json': document })));
  const op = { method: 'POST', path: '/uploads' };
  const large = { file: 'x'.repeat(100 * 1024), type: 'image/png', filename: 'big.png' };

  const small = checker.checkRequestNow!(op, await request([['user', 'me'], ['photo', { file: 'x' }]]));
  expect(small?.problems).toEqual([{ in: 'body', pointer: 'user', message: 'user: expected integer, found string' }]);
  const big = await request([['user', 'me'], ['photo', large]]);
  expect(checker.checkRequestNow!(op, big)).toBeUndefined();
  expect(await checker.checkRequest(op, big)).toEqual(small);

  expect(await checker.checkRequest(op, await request([['user', '7'], ['photo', large]]))).toEqual({ problems: [] });
  expect((await checker.checkRequest(op, await request([['photo', large]]))).problems).toEqual([{ in: 'body', pointer: 'user', message: missing }]);
  const cut = await request([['user', '7'], ['photo', large]]);
  const truncated = { ...cut, bodyBytes: cut.bodyBytes!.subarray(0, 90 * 1024), bodySize: 90 * 1024 };
  expect(await checker.checkRequest(op, truncated)).toEqual({ problems: [{ in: 'body', pointer: '', message: 'The multipart/form-data body could not be read: expected boundary after body.' }] });
}, 30_000);
