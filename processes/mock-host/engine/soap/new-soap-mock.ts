/**
 * New Mock of a SOAP interface, or of one binding of a WSDL that has several: one operation per
 * operation of the binding, each with one response named Default whose body is a sample of the
 * operation's output (the WSDL engine's sampleEnvelope). A one-way operation's Default is the
 * empty acknowledgement, 202 with no body. Operations share the mock's one endpoint (POST at its
 * Path); the SOAP router tells them apart.
 */
import { sampleEnvelope, type WsdlBinding, type WsdlDefinition } from '../../../../protocol/wsdl/index.js';
import { DEFAULT_RESPONSE, type Mock, type MockOperation, type MockResponse } from '../../../../protocol/model/mock.js';
import { operationName } from '../new-mock.js';
import { fileNameKey } from '../../../../protocol/project/file-names.js';
import { contentTypeFor } from './soap-version.js';
import type { MockDocuments } from '../../../../protocol/model/verdict.js';
import { readCachedWsdlDocuments } from '../../../../protocol/wsdl/cached-wsdl.js';
import { pickBinding, wsdlDocuments } from './soap-contract-from-wsdl.js';

export interface NewSoapMockOptions {
  name: string;
  api: string;
  newId: () => string;
  /** The binding to mock; the WSDL's first SOAP binding when absent. */
  binding?: string;
}

/** New Mock straight from an API's cached WSDL documents (an OpenAPI definition is refused: New Mock takes those). */
export async function newSoapMockFromDocuments(documents: MockDocuments, options: NewSoapMockOptions): Promise<Mock> {
  const { definition } = await readCachedWsdlDocuments(wsdlDocuments(documents));
  return newSoapMock(definition, pickBinding(definition, options.binding), options);
}

export function newSoapMock(definition: WsdlDefinition, binding: WsdlBinding, options: NewSoapMockOptions): Mock {
  const taken = new Set<string>();
  const operations = binding.operations.map((op): MockOperation => {
    let name = operationName({ method: 'POST', path: '/', operationId: op.name });
    for (let n = 2; taken.has(fileNameKey(name)); n++) name = `${operationName({ method: 'POST', path: '/', operationId: op.name })}-${n}`;
    taken.add(fileNameKey(name));
    return {
      id: options.newId(),
      name,
      method: 'POST',
      path: '/',
      operationId: op.name,
      dispatch: 'in-order',
      defaultResponse: DEFAULT_RESPONSE,
      responses: [defaultResponse(definition, binding, op.name, op.oneWay, options.newId())],
    };
  });
  return {
    version: 1,
    id: options.newId(),
    name: options.name,
    kind: 'soap',
    binding: binding.name,
    api: options.api,
    port: 0,
    path: '/',
    contractCheck: 'log',
    operations,
  };
}

function defaultResponse(definition: WsdlDefinition, binding: WsdlBinding, operation: string, oneWay: boolean, id: string): MockResponse {
  const base = { id, name: DEFAULT_RESPONSE, delayMs: 0, values: {}, match: [] };
  if (oneWay) return { ...base, status: 202, headers: [], body: { kind: 'none', text: '' } };
  return {
    ...base,
    status: 200,
    headers: [{ name: 'Content-Type', value: contentTypeFor(binding.soapVersion) }],
    body: { kind: 'xml', text: sampleEnvelope(definition, binding, operation, 'output') },
  };
}
