import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ContractCheckMode, MockLogEntry } from '../../../protocol/model/mock.js';
import { MockServer } from './mock-server.js';
import type { SampledContract, ContractChecker } from './contract.js';
import { contractChecker } from './contract-checker.js';
import { json, loadContractFixture, mockOf, operation, send } from './test-support/mocks.js';

let contract: SampledContract;
let checker: ContractChecker;
beforeAll(async () => {
  contract = await loadContractFixture('pets.openapi.yaml', ['pets.schemas.yaml']);
  checker = contractChecker(contract);
});

const running: MockServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

function petsMock(mode: ContractCheckMode) {
  return mockOf(
    [
      operation({ name: 'createPet', method: 'POST', path: '/pets', responses: [json('Default', { id: 1, name: 'Tom', kind: 'cat' }, { status: 201 })] }),
      operation({ name: 'getPet', method: 'GET', path: '/pets/{petId}', responses: [json('Default', { id: 1, name: 'Tom', kind: 'cat' })] }),
      operation({ name: 'listPets', method: 'GET', path: '/pets', responses: [json('Default', [])] }),
    ],
    { contractCheck: mode },
  );
}

async function start(mode: ContractCheckMode, withChecker: ContractChecker | undefined = checker) {
  const logs: MockLogEntry[] = [];
  const server = new MockServer({ mock: petsMock(mode), onLog: (e) => logs.push(e), ...(withChecker ? { checker: withChecker } : {}) });
  running.push(server);
  const { port } = await server.start();
  return { port, logs };
}

const badPet = JSON.stringify({ name: '', kind: 'horse' });
const goodPet = JSON.stringify({ name: 'Tom', kind: 'cat' });

describe('contract check modes', () => {
  it('refuse answers 400 with a JSON problem naming what broke, without quoting the body', async () => {
    const { port, logs } = await start('refuse');
    const answer = await send(port, { method: 'POST', path: '/pets', headers: { 'Content-Type': 'application/json' }, body: badPet });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    const problem = answer.json() as { code: string; operation: string; problems: Array<{ in: string; pointer: string; message: string }> };
    expect(problem).toMatchObject({ code: 'mock-contract-refused', operation: 'createPet' });
    expect(problem.problems.map((p) => [p.in, p.pointer])).toEqual(
      expect.arrayContaining([
        ['body', '/name'],
        ['body', '/kind'],
      ]),
    );
    expect(answer.text).not.toContain('horse');
    expect(logs[0]!.problems.length).toBe(problem.problems.length);

    const ok = await send(port, { method: 'POST', path: '/pets', headers: { 'Content-Type': 'application/json' }, body: goodPet });
    expect(ok.status).toBe(201);
  });

  it('refuse checks parameters too: a path parameter that is not an integer, a query value outside its enum', async () => {
    const { port } = await start('refuse');
    const byId = await send(port, { path: '/pets/abc' });
    expect(byId.status).toBe(400);
    expect((byId.json() as { problems: Array<{ in: string; pointer: string }> }).problems[0]).toMatchObject({ in: 'path', pointer: 'petId' });
    expect((await send(port, { path: '/pets/12' })).status).toBe(200);
    expect((await send(port, { path: '/pets?kind=horse' })).status).toBe(400);
    expect((await send(port, { path: '/pets?kind=dog&limit=5' })).status).toBe(200);
  });

  it('log dispatches anyway and lists the problems in the log entry', async () => {
    const { port, logs } = await start('log');
    const answer = await send(port, { method: 'POST', path: '/pets', headers: { 'Content-Type': 'application/json' }, body: badPet });
    expect(answer.status).toBe(201);
    expect(logs[0]!.problems.map((p) => p.pointer)).toEqual(expect.arrayContaining(['/name', '/kind']));
  });

  it('off only routes: nothing is checked', async () => {
    const { port, logs } = await start('off');
    expect((await send(port, { method: 'POST', path: '/pets', body: badPet })).status).toBe(201);
    expect(logs[0]!.problems).toEqual([]);
    expect(logs[0]!.notes).toEqual([]);
  });

  it('a check that gives up is neither pass nor failure: the request is answered and the log says why', async () => {
    const hanging: ContractChecker = { checkRequest: () => new Promise(() => undefined), checkResponseBody: async () => ({ problems: [] }) };
    const mock = petsMock('refuse');
    const logs: MockLogEntry[] = [];
    const server = new MockServer({ mock, checker: hanging, checkTimeoutMs: 50, onLog: (e) => logs.push(e) });
    running.push(server);
    const { port } = await server.start();
    expect((await send(port, { path: '/pets/1' })).status).toBe(200);
    expect(logs[0]!.notes.join(' ')).toMatch(/contract check gave up \(it took longer than 50 ms\)/);

    const failing: ContractChecker = { checkRequest: () => Promise.reject(new Error('worker died')), checkResponseBody: async () => ({ problems: [] }) };
    await server.reconfigure({ mock, checker: failing });
    expect((await send(port, { path: '/pets/1' })).status).toBe(200);
    expect(logs[1]!.notes.join(' ')).toMatch(/the checker failed: worker died/);
  });

  it('a check the checker cannot answer on the spot goes to its checkRequest', async () => {
    const asked: string[] = [];
    const twoWays: ContractChecker = {
      budgeted: true,
      checkRequestNow: (_op, request) => (asked.push(`now ${request.path}`), request.path === '/pets' ? { problems: [] } : undefined),
      checkRequest: async (_op, request) => (asked.push(`worker ${request.path}`), { problems: [], gaveUp: 'it took longer than 1000 ms and was stopped' }),
      checkResponseBody: async () => ({ problems: [] }),
    };
    const logs: MockLogEntry[] = [];
    const server = new MockServer({ mock: petsMock('log'), checker: twoWays, onLog: (e) => logs.push(e) });
    running.push(server);
    const { port } = await server.start();
    expect((await send(port, { path: '/pets' })).status).toBe(200);
    expect((await send(port, { path: '/pets/1' })).status).toBe(200);
    expect(asked).toEqual(['now /pets', 'now /pets/1', 'worker /pets/1']);
    expect(logs.map((l) => l.notes)).toEqual([[], ['The contract check gave up (it took longer than 1000 ms and was stopped); the request counts as not checked.']]);
  });

  it('a checker that holds its own budget (from when its worker starts the check) is not raced against one running from arrival', async () => {
    // It answers after the engine's own limit: a request queued behind a runaway check would.
    const queued: ContractChecker = {
      budgeted: true,
      checkRequest: () => new Promise((resolve) => setTimeout(() => resolve({ problems: [{ in: 'query', pointer: 'limit', message: 'limit: expected integer, found string' }] }), 150)),
      checkResponseBody: async () => ({ problems: [] }),
    };
    const logs: MockLogEntry[] = [];
    const server = new MockServer({ mock: petsMock('refuse'), checker: queued, checkTimeoutMs: 50, onLog: (e) => logs.push(e) });
    running.push(server);
    const { port } = await server.start();
    expect((await send(port, { path: '/pets?limit=x' })).status).toBe(400);
    expect(logs[0]).toMatchObject({ status: 400, notes: [], problems: [{ in: 'query', pointer: 'limit' }] });
  });
});
