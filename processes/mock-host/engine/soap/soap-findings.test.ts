import { describe, expect, it } from 'vitest';
import type { Mock, MockResponse } from '../../../../protocol/model/mock.js';
import { SoapContractCheck } from './soap-checker.js';
import { findSoapStubProblems } from './soap-findings.js';
import { envelope11, envelope12, testServiceContract } from '../test-support/soap-fixtures.js';
import type { SoapContract } from './soap-contract.js';

let ids = 0;
function response(status: number, body: string, contentType = 'text/xml; charset=utf-8'): MockResponse {
  return { id: `r${++ids}`, name: `R${ids}`, status, delayMs: 0, headers: contentType ? [{ name: 'Content-Type', value: contentType }] : [], body: { kind: body ? 'xml' : 'none', text: body }, values: {}, match: [] };
}

function mockWith(operationId: string, responses: MockResponse[]): Mock {
  return {
    version: 1,
    id: 'm',
    name: 'm',
    kind: 'soap',
    binding: 'TestServiceSoap',
    api: 'a',
    port: 0,
    path: '/',
    contractCheck: 'log',
    operations: [{ id: 'o', name: operationId, method: 'POST', path: '/', operationId, dispatch: 'in-order', defaultResponse: 'Default', responses }],
  };
}

const rules = (contract: SoapContract, mock: Mock) => findSoapStubProblems(mock, new SoapContractCheck(contract)).map((f) => [f.response, f.rule, f.message]);
const PING_OK = envelope11('<v1:PingResponse><v1:PingResult>true</v1:PingResult></v1:PingResponse>');
const FAULT_11 = envelope11('<soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>down</faultstring></soapenv:Fault>');

describe('SOAP stubs against the contract', () => {
  it('a valid reply with 200 is clean; a fault with 500 gets the structure checks only', () => {
    expect(rules(testServiceContract(), mockWith('Ping', [response(200, PING_OK), response(500, FAULT_11)]))).toEqual([]);
  });

  it('finds a wrong status, Content-Type, output element and XSD problem', () => {
    const contract = testServiceContract();
    const found = rules(
      contract,
      mockWith('Ping', [
        response(201, PING_OK),
        response(200, PING_OK, 'application/json'),
        response(200, envelope11('<v1:GetPageResponse/>')),
        response(200, envelope11('<v1:PingResponse><v1:PingResult>maybe</v1:PingResult></v1:PingResponse>')),
        response(200, FAULT_11),
        response(500, envelope11('<soapenv:Fault><faultstring>x</faultstring></soapenv:Fault>')),
      ]),
    );
    expect(found.map(([r, rule]) => `${r} ${rule}`)).toEqual([`R${ids - 5} soap-status`, `R${ids - 4} soap-content-type`, `R${ids - 3} body-schema`, `R${ids - 2} body-schema`, `R${ids - 1} soap-status`, `R${ids} soap-envelope`]);
    expect(found[0]![2]).toBe('A reply is sent with 200, not 201.');
    expect(found[3]![2]).toMatch(/PingResult.*not a valid value.*boolean/);
    expect(found[4]![2]).toBe('A SOAP 1.1 fault is sent with 500, not 200.');
  });

  it('SOAP 1.2 faults may go with 400; one-way acknowledgements are empty with 200 or 202', () => {
    const contract: SoapContract = { ...testServiceContract(), version: '1.2', operations: [...testServiceContract().operations, { name: 'Notify', action: 'urn:n', style: 'document', inputElement: '{urn:x}Notify', oneWay: true }] };
    const fault12 = envelope12('<env:Fault><env:Code><env:Value>env:Sender</env:Value></env:Code><env:Reason><env:Text xml:lang="en">no</env:Text></env:Reason></env:Fault>');
    expect(rules(contract, mockWith('Ping', [response(400, fault12, 'application/soap+xml')]))).toEqual([]);
    expect(rules(contract, mockWith('Notify', [response(202, '', ''), response(200, '', '')]))).toEqual([]);
    expect(rules(contract, mockWith('Notify', [response(204, '', '')])).map(([, rule, message]) => [rule, message])).toEqual([['soap-status', "A one-way operation's empty acknowledgement is sent with 200 or 202, not 204."]]);
  });

  it('warns of an operation the binding no longer has', () => {
    expect(rules(testServiceContract(), mockWith('Gone', [response(200, PING_OK)])).map(([, rule]) => rule)).toEqual(['operation-not-in-contract']);
  });
});
