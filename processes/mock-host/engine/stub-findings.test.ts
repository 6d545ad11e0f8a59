import { beforeAll, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { MockFinding, type MockResponse } from '../../../protocol/model/mock.js';
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
      // The text PNG sent as image/png: a client decoding the image gets three letters.
      ['photo', 'Default', 'body-media-type', 'error', ''],
      ['removed', '', 'operation-not-in-contract', 'warning', ''],
    ]);
    expect(findings.find((f) => f.response === 'Teapot')!.message).toContain('default');
    expect(findings.find((f) => f.response === 'Wrong body')!.message).not.toContain('one');
    expect(operationsNotInContract(mock, contract).map((o) => o.name)).toEqual(['removed']);
  });

  it('flags a body that is not what its media type says: the sample text under image/png, another file type, no bytes', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const photo = (name: string, body: MockResponse['body'], type = 'image/png') => response({ name, headers: [{ name: 'Content-Type', value: type }], body });
    const mock = mockOf([
      operation({
        name: 'photo',
        method: 'GET',
        path: '/pets/{petId}/photo.{format}',
        responses: [
          photo('Default', { kind: 'binary', text: png }),
          // What New Mock used to write for `type: string, format: binary`.
          photo('Sample text', { kind: 'text', text: 'string' }),
          photo('A PDF', { kind: 'binary', text: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') }),
          photo('Unknown bytes', { kind: 'binary', text: Buffer.from([1, 2, 3, 4]).toString('base64') }),
          photo('Empty', { kind: 'binary', text: '' }),
        ],
      }),
      operation({ name: 'myPets', method: 'GET', path: '/pets/mine', responses: [photo('Default', { kind: 'binary', text: png }, 'text/plain')] }),
    ]);
    const findings = await findStubProblems(mock, contract, contractChecker(contract));
    for (const f of findings) expect(Value.Check(MockFinding, f)).toBe(true);
    expect(findings.map((f) => [f.operation, f.response, f.rule, f.severity, f.message])).toEqual([
      ['photo', 'Sample text', 'body-media-type', 'error', expect.stringMatching(/^The body is the text "string", but image\/png is binary: a client expecting a PNG image gets these characters\./)],
      ['photo', 'A PDF', 'body-media-type', 'error', 'The body is not a PNG image: it is a PDF document.'],
      ['photo', 'Unknown bytes', 'body-media-type', 'error', 'The body is not a PNG image: it begins 01 02 03 04.'],
      ['photo', 'Empty', 'body-media-type', 'warning', expect.stringContaining('The body is empty, but image/png is a PNG image')],
      ['myPets', 'Default', 'body-media-type', 'error', 'The body is binary, but it is sent as text/plain, a text type.'],
    ]);
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
