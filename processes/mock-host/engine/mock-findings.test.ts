/**
 * Stub findings keep a contract by the key its documents come with (`definitionKey`: the API's id
 * and definition fingerprint), never by stringifying a definition of tens of MB on every call.
 */
import { describe, expect, it } from 'vitest';
import { mockFindings } from './mock-findings.js';
import { cachedDefinition, json, mockOf, operation } from './test-support/mocks.js';

const withPets = { openapi: cachedDefinition([['openapi.yaml', { openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: { '/pets': { get: { responses: { 200: { description: 'ok' } } } } } }]]) };
const withoutPets = { openapi: cachedDefinition([['openapi.yaml', { openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} }]]) };
const mock = mockOf([operation({ method: 'GET', path: '/pets', responses: [json('Default', [])] })]);
const gone = /The contract no longer has GET \/pets/;

describe('mockFindings', () => {
  it('reads a contract once per definitionKey, and again for another key', async () => {
    expect((await mockFindings(mock, withPets, 'api-1:aaa')).warnings).toEqual([]);
    // The same key names the same documents: what was read for it is used, these are not read.
    expect((await mockFindings(mock, withoutPets, 'api-1:aaa')).warnings).toEqual([]);
    expect((await mockFindings(mock, withoutPets, 'api-1:bbb')).warnings).toEqual([expect.stringMatching(gone)]);
  });

  it('without a key reads the documents given, every time', async () => {
    expect((await mockFindings(mock, withPets)).warnings).toEqual([]);
    expect((await mockFindings(mock, withoutPets)).warnings).toEqual([expect.stringMatching(gone)]);
  });
});
