import { beforeAll, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { MockFinding } from '../../../protocol/model/mock.js';
import type { SampledContract } from './contract.js';
import { findStubProblems, operationsNotInContract } from './stub-findings.js';
import { contractChecker } from './contract-checker.js';
import { json, loadContractFixture, mockOf, operation, response } from './test-support/mocks.js';

let contract: SampledContract;
beforeAll(async () => {
  contract = await loadContractFixture('pets.openapi.yaml', ['pets.schemas.yaml']);
});

describe('stubs against the contract', () => {
  it('lists each response the contract does not allow, and only those', async () => {
    const problemJson = [{ name: 'Content-Type', value: 'application/problem+json' }];
    const mock = mockOf([
      operation({
        name: 'getPet',
        method: 'GET',
        path: '/pets/{petId}',
        responses: [
          json('Default', { id: 1, name: 'Tom', kind: 'cat' }),
          json('Wrong body', { id: 'one', name: 'Tom', kind: 'cat' }),
          json('Not JSON', '{ id: 1', {}),
          json('Not found', { title: 'x' }, { status: 404, headers: problemJson }),
          json('Teapot', {}, { status: 418, headers: problemJson }),
          response({ name: 'Odd type', status: 200, headers: [{ name: 'Content-Type', value: 'text/csv' }], body: { kind: 'text', text: 'a,b' } }),
          response({ name: 'No type', status: 200, body: { kind: 'text', text: 'hello' } }),
          response({ name: 'Server error, default', status: 503 }),
        ],
      }),
      operation({
        name: 'createPet',
        method: 'POST',
        path: '/pets',
        responses: [json('Default', { id: 3, name: 'Felix', kind: 'cat' }, { status: 201 }), json('Refused', { title: 'no' }, { status: 422, headers: problemJson })],
      }),
      operation({ name: 'deletePet', method: 'DELETE', path: '/pets/{petId}', responses: [response({ name: 'Default', status: 204 }), response({ name: 'Gone with body', status: 204, body: { kind: 'text', text: 'bye' } })] }),
      operation({ name: 'photo', method: 'GET', path: '/pets/{petId}/photo.{format}', responses: [response({ name: 'Default', headers: [{ name: 'Content-Type', value: 'image/png' }], body: { kind: 'text', text: 'PNG' } })] }),
      operation({ name: 'removed', method: 'GET', path: '/owners', responses: [json('Default', { any: 'thing' }, { status: 999 as number })] }),
    ]);
    const findings = await findStubProblems(mock, contract, contractChecker(contract));
    for (const f of findings) expect(Value.Check(MockFinding, f)).toBe(true);
    expect(findings.map((f) => [f.operation, f.response ?? '', f.rule, f.severity, f.pointer ?? ''])).toEqual([
      ['getPet', 'Wrong body', 'body-schema', 'error', '/id'],
      ['getPet', 'Not JSON', 'body-not-json', 'error', ''],
      ['getPet', 'Teapot', 'undeclared-content-type', 'error', ''],
      ['getPet', 'Odd type', 'undeclared-content-type', 'error', ''],
      ['getPet', 'No type', 'undeclared-content-type', 'error', ''],
      ['deletePet', 'Gone with body', 'undeclared-content-type', 'error', ''],
      ['removed', '', 'operation-not-in-contract', 'warning', ''],
    ]);
    expect(findings.find((f) => f.response === 'Teapot')!.message).toContain('default');
    expect(findings.find((f) => f.response === 'Wrong body')!.message).not.toContain('one');
    expect(operationsNotInContract(mock, contract).map((o) => o.name)).toEqual(['removed']);
  });

  it('reports a status no response key covers', async () => {
    const mock = mockOf([operation({ name: 'listPets', method: 'GET', path: '/pets', responses: [json('Default', []), json('Created?', [], { status: 201 })] })]);
    const findings = await findStubProblems(mock, contract, contractChecker(contract));
    expect(findings).toEqual([
      expect.objectContaining({ response: 'Created?', rule: 'undocumented-status', message: 'Status 201 is not documented for GET /pets (documented: 200).' }),
    ]);
  });

  it('checks statuses and media types even without a body checker', async () => {
    const mock = mockOf([operation({ name: 'getPet', method: 'GET', path: '/pets/{petId}', responses: [json('Wrong body', { id: 'one' })] })]);
    expect(await findStubProblems(mock, contract, undefined)).toEqual([]);
  });
});
