/**
 * Stubs against the contract (SPEC Mock HTTP surface, rule 9, REST): every response whose status
 * the operation does not document, whose Content-Type is not declared for that status, or whose
 * JSON body does not match the schema. Responses of operations the contract no longer has are not
 * checked; each such operation gives one warning (shown when the mock starts).
 */
import type { Mock, MockFinding, MockOperation, MockResponse } from '../../../protocol/model/mock.js';
import { findContractOperation, isJsonMediaType, mediaTypeDeclared, responseForStatus, type Contract, type ContractChecker, type ContractOperation } from './contract.js';

export type BodyChecker = Pick<ContractChecker, 'checkResponseBody'>;

/**
 * How long the loop below holds its thread before it lets others run: Microsoft Graph v1.0's New
 * Mock (11,422 operations) takes some 25 s to check, and the checker process answering it must
 * answer its heartbeat (10 s) meanwhile.
 */
const SLICE_MS = 50;

export async function findStubProblems(mock: Mock, contract: Contract, checker: BodyChecker | undefined): Promise<MockFinding[]> {
  const findings: MockFinding[] = [];
  let sliceStart = Date.now();
  for (const op of mock.operations) {
    if (Date.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = Date.now();
    }
    const base = { mock: mock.id, operation: op.name, operationId: op.id, method: op.method, path: op.path };
    const contractOp = findContractOperation(contract, op);
    if (!contractOp) {
      findings.push({
        ...base,
        severity: 'warning',
        rule: 'operation-not-in-contract',
        message: `The contract no longer has ${op.method} ${op.path}; the responses of ${op.name} are not checked.`,
      });
      continue;
    }
    for (const response of op.responses) findings.push(...(await checkResponse(op, contractOp, response, checker)).map((f) => ({ ...base, ...f })));
  }
  return findings;
}

/** Only the operations the contract no longer has: the warnings a start gives. */
export function operationsNotInContract(mock: Mock, contract: Contract): MockOperation[] {
  return mock.operations.filter((op) => !findContractOperation(contract, op));
}

type ResponseFinding = Omit<MockFinding, 'mock' | 'operation' | 'operationId' | 'method' | 'path'>;

async function checkResponse(op: MockOperation, contractOp: ContractOperation, response: MockResponse, checker: BodyChecker | undefined): Promise<ResponseFinding[]> {
  const at = { response: response.name, responseId: response.id };
  const documented = responseForStatus(contractOp, response.status);
  if (!documented) {
    const keys = contractOp.responses.map((r) => r.key).join(', ') || 'none';
    return [{ ...at, severity: 'error', rule: 'undocumented-status', message: `Status ${response.status} is not documented for ${op.method} ${op.path} (documented: ${keys}).` }];
  }
  const contentType = response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  const hasBody = response.body.kind !== 'none' && response.body.text.length > 0;
  if (!hasBody && !contentType) return [];
  if (documented.mediaTypes.length === 0) {
    return hasBody
      ? [{ ...at, severity: 'error', rule: 'undeclared-content-type', message: `Response ${documented.key} of ${op.method} ${op.path} declares no body, but this response has one.` }]
      : [];
  }
  const declared = mediaTypeDeclared(documented.mediaTypes, contentType);
  if (!declared) {
    const what = contentType ? `Content-Type ${contentType.split(';')[0]} is not declared` : 'The response has no Content-Type; one declared';
    return [{ ...at, severity: 'error', rule: 'undeclared-content-type', message: `${what} for ${documented.key} (declared: ${documented.mediaTypes.join(', ')}).` }];
  }
  if (!hasBody || !isJsonMediaType(contentType)) return [];
  try {
    JSON.parse(response.body.text);
  } catch {
    return [{ ...at, severity: 'error', rule: 'body-not-json', message: `The body is sent as ${contentType.split(';')[0]} but is not valid JSON.` }];
  }
  if (!checker) return [];
  const outcome = await checker.checkResponseBody({ method: op.method, path: op.path }, { status: response.status, contentType, body: response.body.text });
  const findings: ResponseFinding[] = outcome.problems.map((p) => ({ ...at, severity: 'error', rule: 'body-schema', pointer: p.pointer, message: p.message }));
  if (outcome.gaveUp) findings.push({ ...at, severity: 'warning', rule: 'check-gave-up', message: `The body could not be fully checked: ${outcome.gaveUp}.` });
  return findings;
}
