/**
 * What the mock host's check worker does for one task: a request against the contract, a stub's
 * body against it, or a match condition's regular expression that only V8's backtracking engine
 * can run. Each runs on the worker's thread, which the pool stops past the budget, so the listener
 * on the main thread never waits on it.
 */
import type { Definition } from '../../protocol/model/verdict.js';
import type { CheckOutcome, ContractRequest, OperationRef } from './engine/contract.js';
import { compileEcmaPattern } from '../checker/engine/regex.js';
import { contractChecker, type EngineContractChecker } from './engine/contract-checker.js';
import type { SoapContractCheck } from './engine/soap/soap-checker.js';
import type { SoapContract } from './engine/soap/soap-contract.js';

/** The contract's documents as written (its `definition`) as JSON in shared memory: it crosses to the worker once, without a copy. */
export interface SharedContract {
  key: string;
  json: SharedArrayBuffer;
}

/** A request as it crosses to the worker: the body's bytes, up to what a check reads. */
export interface WireRequest {
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string[]>;
  headers: Array<[string, string]>;
  contentType: string;
  body: Uint8Array;
  bodySize: number;
}

export type MockCheckTask =
  | { kind: 'request'; contract: SharedContract; op: OperationRef; request: WireRequest }
  | { kind: 'response'; contract: SharedContract; op: OperationRef; response: { status: number; contentType: string; body: string } }
  | { kind: 'regex'; source: string; value: string }
  /** A SOAP request too large for the listener's thread: envelope, then XSD validation (libxml2). */
  | { kind: 'soap-request'; contract: SharedContract; operation: string; request: WireRequest };

export type MockCheckResult = CheckOutcome | { matched: boolean };

/** Prepared contracts by key; a mock host has one, an edit may bring a second. */
const MAX_CONTRACTS = 4;
const checkers = new Map<string, EngineContractChecker>();
const decoder = new TextDecoder();

function checkerFor(contract: SharedContract): EngineContractChecker {
  let checker = checkers.get(contract.key);
  if (!checker) {
    const definition = JSON.parse(decoder.decode(new Uint8Array(contract.json))) as Definition;
    checker = contractChecker({ definition }, { backtracking: true });
    checkers.set(contract.key, checker);
    if (checkers.size > MAX_CONTRACTS) checkers.delete(checkers.keys().next().value!);
  }
  return checker;
}

const soapChecks = new Map<string, SoapContractCheck>();
/** Loaded only in the workers of a SOAP mock's pool (check-worker.ts): libxml2 costs a REST mock's workers nothing. */
let SoapCheck: typeof SoapContractCheck | undefined;

export function useSoapChecks(module: { SoapContractCheck: typeof SoapContractCheck }): void {
  SoapCheck = module.SoapContractCheck;
}

/** A SOAP contract crosses as JSON with its documents as [path, text] pairs. */
function soapCheckFor(shared: SharedContract): SoapContractCheck {
  let check = soapChecks.get(shared.key);
  if (!check) {
    if (!SoapCheck) throw new Error('this check worker was not started for SOAP checks');
    const plain = JSON.parse(decoder.decode(new Uint8Array(shared.json))) as Omit<SoapContract, 'documents' | 'sources'> & { documents: Array<[string, string]>; sources: Array<[string, string]> };
    check = new SoapCheck({ ...plain, documents: new Map(plain.documents), sources: new Map(plain.sources) });
    soapChecks.set(shared.key, check);
    if (soapChecks.size > MAX_CONTRACTS) soapChecks.delete(soapChecks.keys().next().value!);
  }
  return check;
}

/**
 * Off the budget, before a task starts (`serveBudgetedTasks`' `prepare`): a SOAP contract's
 * schemas compiled in this worker (about 200 ms, more on a loaded machine; linear in the
 * documents), so a request's 1000 ms are its own check's, and a worker that replaces a stopped one
 * does not spend the next request's budget compiling.
 */
export function prepareMockCheck(task: MockCheckTask): void {
  if (task.kind === 'soap-request') soapCheckFor(task.contract).schemas();
}

/** Patterns compiled once per worker; past the cap the memo starts again. */
const patterns = new Map<string, ReturnType<typeof compileEcmaPattern>>();

export function runMockCheck(task: MockCheckTask, deadline: number): MockCheckResult {
  switch (task.kind) {
    case 'request': {
      const wire = task.request;
      const request: ContractRequest = {
        ...wire,
        // Rebuilt without a prototype: the check looks names up in them that the contract gives.
        pathParams: Object.assign(Object.create(null) as Record<string, string>, wire.pathParams),
        query: Object.assign(Object.create(null) as Record<string, string[]>, wire.query),
        body: decoder.decode(wire.body),
        bodyBytes: wire.body,
        bodySize: wire.bodySize,
      };
      return checkerFor(task.contract).checkRequestUntil(task.op, request, deadline);
    }
    case 'response':
      return checkerFor(task.contract).checkResponseBodyUntil(task.op, task.response, deadline);
    case 'soap-request':
      // libxml2 cannot be stopped from inside; the pool stops this worker past the budget.
      return soapCheckFor(task.contract).checkRequest({ method: 'POST', path: '/', operationId: task.operation }, { contentType: task.request.contentType, body: task.request.body });
    case 'regex': {
      let compiled = patterns.get(task.source);
      if (!compiled) {
        if (patterns.size > 1000) patterns.clear();
        patterns.set(task.source, (compiled = compileEcmaPattern(task.source)));
      }
      if (!compiled.ok) throw new Error(`the regular expression does not compile: ${compiled.message}`);
      return { matched: compiled.pattern.test(task.value) };
    }
  }
}
