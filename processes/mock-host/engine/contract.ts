/**
 * What the mock engine needs from a contract: which operations exist, which statuses and media
 * types each documents, and a checker for request and body validation. The checker is injected
 * (the project's checker engine in the app, a small ajv one in tests), so this module never
 * validates a schema itself.
 */
import { OPENAPI_32_METHODS } from '../../../protocol/openapi-methods.js';
import type { MockProblem } from '../../../protocol/model/mock.js';
import { bundleOpenApi, deref, type OpenApiDocument, type OpenApiDocuments } from './openapi-documents.js';

export interface OperationRef {
  method: string;
  /** The path as the document writes it, e.g. `/pets/{petId}`. */
  path: string;
}

export interface ContractRequest {
  method: string;
  /** The request path after the mock's Path was removed, without the query. */
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string[]>;
  headers: Array<[string, string]>;
  /** The Content-Type header, or empty. */
  contentType: string;
  /** The body decoded as UTF-8 (empty when there is none). */
  body: string;
  /**
   * The body as received, when the caller has it: a checker that reads bytes (as a send's contract
   * check does) takes these rather than encoding `body` again.
   */
  bodyBytes?: Uint8Array;
  /** The whole body's size when `bodyBytes` holds less (a body over the check's 1 MiB is not copied to a worker). */
  bodySize?: number;
}

export interface CheckOutcome {
  problems: MockProblem[];
  /** Why the check stopped early; its problems so far are kept, and it is neither pass nor failure. */
  gaveUp?: string;
}

export interface ContractChecker {
  /** Parameters and body of a request against the operation. */
  checkRequest(op: OperationRef, request: ContractRequest): Promise<CheckOutcome>;
  /**
   * True when `checkRequest` holds the check's budget itself, from when a worker starts the check
   * (a request queued behind a runaway check keeps its whole budget): the engine then sets no
   * timer of its own but a far backstop.
   */
  readonly budgeted?: boolean;
  /**
   * The same check answered on the spot, for a checker that does its work synchronously and holds
   * its own deadline (below the engine's): the engine then skips the promise and the timer race.
   * Undefined means it cannot be answered on this thread (too big or unbounded for it): the engine
   * asks `checkRequest`.
   */
  checkRequestNow?(op: OperationRef, request: ContractRequest): CheckOutcome | undefined;
  /** A response body against the schema the operation declares for that status and media type. */
  checkResponseBody(op: OperationRef, response: { status: number; contentType: string; body: string }): Promise<CheckOutcome>;
}

export interface ContractResponse {
  /** `200`, `4XX` or `default`. */
  key: string;
  mediaTypes: string[];
}

export interface ContractOperation extends OperationRef {
  operationId?: string;
  responses: ContractResponse[];
}

export interface Contract {
  document: OpenApiDocument;
  operations: ContractOperation[];
}

export const HTTP_METHODS = OPENAPI_32_METHODS;

/** Reads an API's cached documents into a contract (bundled, then indexed). */
export async function loadContract(documents: OpenApiDocuments): Promise<Contract> {
  return indexContract(await bundleOpenApi(documents));
}

/** Lists the operations of a bundled OpenAPI 3.x document. */
export function indexContract(document: OpenApiDocument): Contract {
  const operations: ContractOperation[] = [];
  const paths = (document.paths ?? {}) as Record<string, unknown>;
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(document, rawItem);
    if (!item) continue;
    // Document order, so a new mock lists operations the way the contract does.
    for (const method of Object.keys(item).filter((k): k is (typeof HTTP_METHODS)[number] => (HTTP_METHODS as readonly string[]).includes(k))) {
      const op = deref(document, item[method]);
      if (!op) continue;
      const responses: ContractResponse[] = [];
      for (const [key, raw] of Object.entries((op.responses ?? {}) as Record<string, unknown>)) {
        const response = deref(document, raw);
        responses.push({ key, mediaTypes: Object.keys((response?.content ?? {}) as object) });
      }
      const entry: ContractOperation = { method: method.toUpperCase(), path, responses };
      if (typeof op.operationId === 'string') entry.operationId = op.operationId;
      operations.push(entry);
    }
  }
  return { document, operations };
}

export function findContractOperation(contract: Contract, ref: OperationRef): ContractOperation | undefined {
  return contract.operations.find((op) => op.method === ref.method.toUpperCase() && op.path === ref.path);
}

/** The response entry for a status: exact first, then its range (4XX), then default. */
export function responseForStatus(op: ContractOperation, status: number): ContractResponse | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    op.responses.find((r) => r.key === exact) ??
    op.responses.find((r) => r.key.toUpperCase() === range) ??
    op.responses.find((r) => r.key === 'default')
  );
}

/** True when `contentType` (parameters ignored) is one of `declared`, wildcards like `application/*` included. */
export function mediaTypeDeclared(declared: string[], contentType: string): string | undefined {
  const actual = contentType.split(';')[0]!.trim().toLowerCase();
  const exact = declared.find((d) => d.split(';')[0]!.trim().toLowerCase() === actual);
  if (exact) return exact;
  return declared.find((d) => {
    const [type, sub] = d.split(';')[0]!.trim().toLowerCase().split('/');
    const [aType] = actual.split('/');
    return (type === '*' && sub === '*') || (sub === '*' && type === aType);
  });
}

export { isJsonMediaType } from '../../../protocol/media-type.js';
