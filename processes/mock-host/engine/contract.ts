/**
 * What the mock engine needs from a contract: which operations exist, which statuses and media
 * types each documents, and a checker for request and body validation. The checker is injected
 * (the checker engine's PreparedDefinition through contract-checker.ts in the app and in the
 * engine's tests), so this module never validates a schema itself.
 *
 * The contract is read from the API's cached documents as written, Swagger 2.0 as 2.0, by the
 * same PreparedDefinition a send's contract check reads them with, so a mock's findings name the
 * user's own file and pointer. Only openapi-sampler (New Mock's default bodies) needs one
 * OpenAPI 3.x document with every `$ref` inside it: that bundle is `document`.
 */
import { OPENAPI_32_METHODS, SWAGGER_METHODS } from '../../../protocol/openapi-methods.js';
import { ParleyError } from '../../../protocol/errors.js';
import { cachedDocumentUri } from '../../../protocol/cached-definition-uri.js';
import type { MockProblem } from '../../../protocol/model/mock.js';
import type { Definition, MockDocuments } from '../../../protocol/model/verdict.js';
import { escapeSegment, isObject } from '../../../protocol/json-pointer.js';
import { PreparedDefinition } from '../../checker/engine/definition.js';
import { listOperations } from '../../checker/engine/select-operation.js';
import type { Loc } from '../../checker/engine/keywords/site.js';
import { bundleOpenApi, checkRefs, type OpenApiDocument } from './definition-bundle.js';

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
  /**
   * The path prefixes the contract check strips before this operation's path (Swagger 2.0
   * `basePath`, a 3.x server URL's path), longest first: the mock routes by the same rule.
   */
  routePrefixes?(op: OperationRef): readonly string[] | undefined;
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
  /**
   * Path prefixes a request may carry before the path (Swagger 2.0 `basePath`, the path of a 3.x
   * server URL), longest first, "" last: the ones the contract check strips (select-operation.ts).
   */
  prefixes?: string[];
}

/** A contract: a definition and its operation index, as the checks and the routing read them. */
export interface Contract {
  /** The documents as written, entry first, with the uris the check reads them by. */
  definition: Definition;
  operations: ContractOperation[];
}

/** A contract New Mock samples from: with its definition bundled for openapi-sampler. */
export interface SampledContract extends Contract {
  /** The documents bundled into one OpenAPI 3.x document (Swagger 2.0 converted): for openapi-sampler only. */
  bundle: OpenApiDocument;
}

export const HTTP_METHODS = OPENAPI_32_METHODS;

/** Where a contract given as one document (a test's, a bundle) is placed; relative `$ref`s have no other document to name. */
export const CONTRACT_URI = cachedDocumentUri('contract.json');

/**
 * Reads an API's cached documents for checks and routing (a mock host, stub findings): indexed as
 * written, nothing bundled or converted; a reference the shared rule refuses refuses the contract.
 */
export async function readContract(definition: Definition): Promise<Contract> {
  checkRefs(definition);
  return { definition, operations: listContractOperations(prepare(definition)) };
}

/** The contract New Mock samples from: read as for the checks, and bundled for openapi-sampler. */
export async function loadSampledContract(definition: Definition): Promise<SampledContract> {
  return { ...(await readContract(definition)), bundle: await bundleOpenApi(definition) };
}

/** A contract of one self-contained OpenAPI document (3.x or 2.0), checked and sampled as it is. */
export function indexContract(document: OpenApiDocument): SampledContract {
  const definition = [{ uri: CONTRACT_URI, document }];
  return { definition, operations: listContractOperations(prepare(definition)), bundle: document };
}

/** A REST mock's definition among what a mock is served from; a WSDL's documents refuse the contract. */
export function openApiDefinition(documents: MockDocuments): Definition {
  if ('openapi' in documents) return documents.openapi;
  throw new ParleyError('contract-unsupported', 'The definition is a WSDL: a REST mock is served from an OpenAPI 3.x or 2.0 definition.');
}

/** The checker engine's reading of the documents; not OpenAPI 3.x or 2.0 refuses the contract. */
export function prepare(definition: Definition): PreparedDefinition {
  try {
    return new PreparedDefinition(definition, 'mock-contract');
  } catch (err) {
    if (err instanceof ParleyError && err.code === 'unsupported-definition') {
      throw new ParleyError('contract-unsupported', 'The cached definition is not an OpenAPI 3.x or 2.0 document.');
    }
    throw err;
  }
}

/**
 * The operations of a prepared definition, in document order (a new mock lists them the way the
 * contract does), each with the statuses and media types it documents and the path prefixes the
 * check strips. Swagger 2.0: a response with a schema declares the operation's `produces` (else
 * the document's, else any type, as swagger2openapi reads it); one without declares no body.
 */
export function listContractOperations(def: PreparedDefinition): ContractOperation[] {
  const operations: ContractOperation[] = [];
  const swagger = def.dialect === 'swagger2';
  const prefixes = new Map(listOperations(def).map((op) => [`${op.method.toLowerCase()} ${op.path}`, op.prefixes]));
  const paths = def.entry.paths;
  if (!isObject(paths)) return operations;
  const methods: readonly string[] = swagger ? SWAGGER_METHODS : OPENAPI_32_METHODS;
  for (const path of Object.keys(paths)) {
    const item = followed(def, { docUri: def.entryUri, pointer: `/paths/${escapeSegment(path)}` });
    if (!item) continue;
    const found: [string, Loc][] = Object.keys(item.value)
      .filter((k) => methods.includes(k))
      .map((k) => [k, child(item.loc, k)]);
    // OpenAPI 3.2: methods without a fixed field live under additionalOperations.
    if (!swagger && isObject(item.value.additionalOperations)) {
      for (const m of Object.keys(item.value.additionalOperations)) found.push([m, child(item.loc, 'additionalOperations', m)]);
    }
    for (const [method, loc] of found) {
      const op = followed(def, loc);
      if (!op) continue;
      const produces = swagger ? mediaList(op.value.produces) ?? mediaList(def.entry.produces) ?? ['*/*'] : [];
      const responses: ContractResponse[] = [];
      const listed = followed(def, child(op.loc, 'responses'));
      for (const key of Object.keys(listed?.value ?? {})) {
        const response = followed(def, child(listed!.loc, key));
        const mediaTypes = swagger ? (response?.value.schema === undefined ? [] : produces) : Object.keys(isObject(response?.value.content) ? response.value.content : {});
        responses.push({ key, mediaTypes });
      }
      const entry: ContractOperation = { method: method.toUpperCase(), path, responses };
      const stripped = prefixes.get(`${method.toLowerCase()} ${path}`);
      if (stripped) entry.prefixes = stripped;
      if (typeof op.value.operationId === 'string') entry.operationId = op.value.operationId;
      operations.push(entry);
    }
  }
  return operations;
}

/** A list of media types as written (`produces`, `consumes`), or undefined when there is none. */
export function mediaList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/** A location below `loc`, each segment escaped. */
export function child(loc: Loc, ...segments: string[]): Loc {
  return { docUri: loc.docUri, pointer: loc.pointer + segments.map((s) => `/${escapeSegment(s)}`).join('') };
}

/** The object a location holds, Reference Objects followed; undefined when it is not one. */
export function followed(def: PreparedDefinition, loc: Loc): { loc: Loc; value: Record<string, unknown> } | undefined {
  const found = def.follow(loc);
  return typeof found === 'string' || !isObject(found.value) ? undefined : { loc: found.loc, value: found.value };
}

export function findContractOperation(contract: Pick<Contract, 'operations'>, ref: OperationRef): ContractOperation | undefined {
  return operationIndex(contract.operations).get(`${ref.method.toUpperCase()} ${ref.path}`);
}

/**
 * Operations by `METHOD path`, the first of each kept as `find` would: built once per operations
 * list. Looking each of a mock's operations up by scanning was quadratic: 7 s for Microsoft
 * Graph beta's 22,000 at a mock's start, with the host's heartbeat unanswered meanwhile.
 */
const operationIndexes = new WeakMap<readonly ContractOperation[], Map<string, ContractOperation>>();
function operationIndex(operations: readonly ContractOperation[]): Map<string, ContractOperation> {
  let index = operationIndexes.get(operations);
  if (!index) {
    index = new Map();
    for (const op of operations) {
      const key = `${op.method} ${op.path}`;
      if (!index.has(key)) index.set(key, op);
    }
    operationIndexes.set(operations, index);
  }
  return index;
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
