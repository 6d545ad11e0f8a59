/**
 * Stubs against the contract for a SOAP mock (SPEC Mock HTTP surface rule 9): each response's
 * envelope structure, its Content-Type against the binding's SOAP version and its body against
 * the operation's output (XSD); a fault gets the structure checks only. Status: a reply 200, a
 * fault 500 (SOAP 1.2: 400 or 500), a one-way operation's empty acknowledgement 200 or 202.
 */
import type { Mock, MockFinding, MockResponse } from '../../../../protocol/model/mock.js';
import type { SoapContractCheck } from './soap-checker.js';
import type { SoapOperationContract } from './soap-contract.js';

type ResponseFinding = Omit<MockFinding, 'mock' | 'operation' | 'operationId' | 'method' | 'path'>;

export function findSoapStubProblems(mock: Mock, check: SoapContractCheck): MockFinding[] {
  const findings: MockFinding[] = [];
  for (const op of mock.operations) {
    const base = { mock: mock.id, operation: op.name, operationId: op.id, method: op.method, path: op.path };
    const contractOp = check.operation(op);
    if (!contractOp) {
      findings.push({ ...base, severity: 'warning', rule: 'operation-not-in-contract', message: soapOperationMissing(op.operationId ?? op.name, op.name, check.contract.binding) });
      continue;
    }
    for (const response of op.responses) findings.push(...checkSoapResponse(check, contractOp, response).map((f) => ({ ...base, ...f })));
  }
  return findings;
}

export function soapOperationMissing(operationId: string, name: string, binding: string): string {
  return `Binding ${binding} no longer has operation ${operationId}: the responses of ${name} are not checked.`;
}

function checkSoapResponse(check: SoapContractCheck, op: SoapOperationContract, response: MockResponse): ResponseFinding[] {
  const at = { response: response.name, responseId: response.id };
  const version = check.contract.version;
  const text = response.body.kind === 'none' ? '' : response.body.text;
  const contentType = response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';

  if (op.oneWay && text.trim() === '') {
    return response.status === 200 || response.status === 202
      ? []
      : [{ ...at, severity: 'error', rule: 'soap-status', message: `A one-way operation's empty acknowledgement is sent with 200 or 202, not ${response.status}.` }];
  }

  const findings: ResponseFinding[] = [];
  const outcome = check.checkMessage(op, { contentType, body: text }, 'output');
  for (const problem of outcome.problems) {
    const rule = problem.in === 'header' ? 'soap-content-type' : problem.pointer === '/Envelope' || problem.pointer === '' ? 'soap-envelope' : 'body-schema';
    findings.push({ ...at, severity: 'error', rule, pointer: problem.pointer, message: problem.message });
  }
  if (outcome.gaveUp) findings.push({ ...at, severity: 'warning', rule: 'check-gave-up', message: `The body could not be fully checked: ${outcome.gaveUp}.` });

  const statusProblem = outcome.fault ? faultStatusProblem(version, response.status) : op.oneWay ? oneWayReplyProblem() : response.status === 200 ? undefined : `A reply is sent with 200, not ${response.status}.`;
  if (statusProblem) findings.push({ ...at, severity: 'error', rule: 'soap-status', message: statusProblem });
  return findings;
}

function faultStatusProblem(version: '1.1' | '1.2', status: number): string | undefined {
  if (version === '1.1') return status === 500 ? undefined : `A SOAP 1.1 fault is sent with 500, not ${status}.`;
  return status === 500 || status === 400 ? undefined : `A SOAP 1.2 fault is sent with 400 or 500, not ${status}.`;
}

function oneWayReplyProblem(): string {
  return 'A one-way operation sends no reply: an empty acknowledgement (200 or 202) or a fault.';
}
