/** The bus checks what a mock is handed: a definition or WSDL texts, nothing else (issue 12). */
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { methods } from '../messages.js';
import type { Mock } from './mock.js';

const mock: Mock = { version: 1, id: 'm1', name: 'Pets', kind: 'rest', api: 'a1', port: 0, path: '/', contractCheck: 'log', operations: [] };
const openapi = { openapi: [{ uri: 'file:///api/definition/openapi.yaml', document: { openapi: '3.0.3' } }, { uri: 'file:///api/definition/pet.yaml', document: {} }] };
const wsdl = { wsdl: [{ path: 'definition/calc.wsdl', text: '<definitions/>', source: 'https://example.com/calc?wsdl' }, { path: 'definition/types.xsd', text: '<schema/>' }] };

const payloads = {
  'mockHost.start': (documents: unknown) => ({ mock, documents, definitionKey: 'a1:sha256', listenAllInterfaces: false }),
  'mockHost.reconfigure': (documents: unknown) => ({ mock, documents, definitionKey: 'a1:sha256', listenAllInterfaces: false }),
  'checker.mockFindings': (documents: unknown) => ({ mock, documents, definitionKey: 'a1:sha256' }),
  'importer.newMock': (documents: unknown) => ({ documents, name: 'Pets', api: 'a1' }),
} as const;

describe.each(Object.keys(payloads) as (keyof typeof payloads)[])('%s', (type) => {
  const check = (documents: unknown) => Value.Check(methods[type].req, payloads[type](documents));

  it('takes an OpenAPI definition or a WSDL\'s texts', () => {
    expect(check(openapi)).toBe(true);
    expect(check(wsdl)).toBe(true);
  });

  it.each([
    ['the old shape: documents by name with an entry key', { entry: 'definition/openapi.yaml', documents: { 'definition/openapi.yaml': {} } }],
    ['a definition document without its uri', { openapi: [{ document: {} }] }],
    ['a definition as an object by name', { openapi: { 'definition/openapi.yaml': {} } }],
    ['a WSDL document that is not text', { wsdl: [{ path: 'definition/calc.wsdl', text: { definitions: {} } }] }],
    ['a WSDL document without its path', { wsdl: [{ text: '<definitions/>' }] }],
  ])('refuses %s', (_, documents) => {
    expect(check(documents)).toBe(false);
  });
});
