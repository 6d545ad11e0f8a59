/**
 * Stubs against the contract (SPEC Mock HTTP surface, rule 9, REST): every response whose status
 * the operation does not document, whose Content-Type is not declared for that status, whose body
 * is not what its media type says (text for image/png, a PDF for image/png, nothing for a PNG), or
 * whose JSON body does not match the schema. Responses of operations the contract no longer has are not
 * checked; each such operation gives one warning (shown when the mock starts).
 */
import type { Mock, MockFinding, MockOperation, MockResponse } from '../../../protocol/model/mock.js';
import { base64Bytes, bytesFitMediaType, isBinaryMediaType, mediaTypeName, recogniseBytes } from '../../../protocol/binary-media.js';
import { essence } from '../../../protocol/media-type.js';
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
  const mismatch = mediaTypeMismatch(response, contentType);
  if (mismatch) return [{ ...at, rule: 'body-media-type', ...mismatch }];
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

/**
 * Whether the body is what its Content-Type says, as far as bytes tell: text under a binary media
 * type (the schema sample `string` sent as image/png), a binary body under a text type, or bytes
 * that do not begin as such a file does (none at all: a warning, the file is still to be given).
 */
function mediaTypeMismatch(response: MockResponse, contentType: string): Pick<MockFinding, 'severity' | 'message'> | undefined {
  if (!contentType) return undefined;
  const type = essence(contentType);
  const { kind, text } = response.body;
  const binaryType = isBinaryMediaType(type);
  const file = mediaTypeName(type) ?? 'its bytes';
  if (kind === 'binary' && !binaryType) return { severity: 'error', message: `The body is binary, but it is sent as ${type}, a text type.` };
  if (binaryType && kind !== 'binary' && kind !== 'none' && text.length > 0) {
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    return { severity: 'error', message: `The body is the text ${JSON.stringify(shown)}, but ${type} is binary: a client expecting ${file} gets these characters. Make the body Binary and give it a file of that type.` };
  }
  if (!binaryType) return undefined;
  const bytes = kind === 'binary' ? base64Bytes(text) : new Uint8Array(0);
  if (bytesFitMediaType(bytes, type) !== false) return undefined;
  if (bytes.length === 0) return { severity: 'warning', message: `The body is empty, but ${type} is ${file}: give the response a file of that type (Body: Binary, Replace from file…).` };
  const seen = recogniseBytes(bytes);
  const start = Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return { severity: 'error', message: `The body is not ${file}: ${seen ? `it is ${seen}` : `it begins ${start}`}.` };
}
