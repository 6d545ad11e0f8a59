import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Mock, MockLogEntry } from '../../../protocol/model/mock.js';
import { loadMockFolder } from '../../../protocol/project/mock-files.js';
import { MockServer } from './mock-server.js';
import { findStubProblems } from './stub-findings.js';
import { contractChecker } from './contract-checker.js';
import { fixtures, loadContractFixture, send } from './test-support/mocks.js';
import type { SampledContract } from './contract.js';

// The hand-written pets folder, loaded from disk the way the app loads it, then served.
let mock: Mock;
let contract: SampledContract;
let server: MockServer;
let port: number;
const logs: MockLogEntry[] = [];
beforeAll(async () => {
  const loaded = await loadMockFolder(join(fixtures, 'folders', 'pets'));
  expect(loaded.problems).toEqual([]);
  mock = loaded.mock!;
  contract = await loadContractFixture('pets.openapi.yaml', ['pets.schemas.yaml']);
  server = new MockServer({ mock, checker: contractChecker(contract), onLog: (e) => logs.push(e) });
  ({ port } = await server.start());
});
afterAll(async () => {
  await server.stop();
});

describe('the pets mock folder, served', () => {
  it('answers every operation the way its files say', async () => {
    expect((await send(port, { path: '/api/pets?kind=cat' })).json()).toEqual([{ id: 1, name: 'Tom', kind: 'cat' }]);
    expect((await send(port, { path: '/api/pets?kind=dog' })).json()).toEqual([{ id: 2, name: 'Rex', kind: 'dog' }]);
    expect((await send(port, { path: '/api/pets' })).json()).toEqual([]);

    const pet = await send(port, { path: '/api/pets/5', headers: { 'X-Trace': 'trace-1' } });
    expect(pet.json()).toEqual({ id: 7, name: 'Pet 5', kind: 'cat' });
    expect(pet.headers['x-trace']).toBe('trace-1');
    expect((await send(port, { path: '/api/pets/5' })).status).toBe(404);

    expect((await send(port, { path: '/api/pets/mine' })).text).toBe('all mine');
    const empty = await send(port, { path: '/api/pets/mine?empty=1' });
    expect([empty.status, empty.text]).toEqual([200, '']);
    expect(logs.at(-1)!.notes).toEqual(['log: empty? true']);

    const create = () => send(port, { method: 'POST', path: '/api/pets', headers: { 'Content-Type': 'application/json' }, body: '{"name":"Felix","kind":"cat"}' });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(409);
    expect(logs.at(-1)!.problems).toEqual([]);
  });

  it('has no stub the contract does not allow (its 409 is covered by 4XX)', async () => {
    expect(await findStubProblems(mock, contract, contractChecker(contract))).toEqual([]);
  });
});
