/**
 * The mock host's request checks, never holding its listener: a check is tried on the listener's
 * thread only while it is quick and bounded there (a body up to 64 KiB, patterns on the linear
 * engine, formats on short strings, a 20 ms leash: nearly every request, in microseconds);
 * anything else runs in a BudgetedPool of worker threads (check-worker.ts), as do match
 * conditions whose regular expression only V8's backtracking engine can run. There a check has
 * 1000 ms from when a worker starts it; past that its worker is stopped and replaced, the request
 * is answered as not checked with the reason in the log, and the listener has kept answering
 * other requests all along.
 */
import { BudgetedPool, type BudgetedOutcome } from '../runtime/budgeted-pool.js';
import { CHECK_LIMITS } from '../checker/engine/verdicts.js';
import type { MockCheckResult, MockCheckTask, SharedContract, WireRequest } from './check-task.js';
import type { CheckOutcome, Contract, ContractChecker, ContractRequest, OperationRef } from './engine/contract.js';
import type { RegexRunner } from './engine/match-conditions.js';
import { contractChecker, type EngineContractChecker } from './engine/contract-checker.js';
import type { SoapContractCheck } from './engine/soap/soap-checker.js';
import type { SoapContract } from './engine/soap/soap-contract.js';

export interface MockCheckPoolOptions {
  /** The built worker; default `mock-check-worker.js` beside this module (dist/). */
  workerFile?: string | URL;
  threads?: number;
  /** How long one check may run once a worker has started it. */
  budgetMs?: number;
  /** Checks allowed to wait for a worker; beyond, the request is answered as not checked. */
  maxQueue?: number;
}

const encoder = new TextEncoder();

export class MockCheckPool {
  private pool: BudgetedPool<MockCheckTask, MockCheckResult> | undefined;
  private readonly contracts = new WeakMap<Contract, SharedContract>();
  private readonly inline = new WeakMap<Contract, EngineContractChecker>();
  private readonly soapChecks = new WeakMap<SoapContract, SoapContractCheck>();
  private soapWorkers = false;
  private contractCount = 0;
  private readonly budgetMs: number;

  constructor(private readonly options: MockCheckPoolOptions = {}) {
    this.budgetMs = options.budgetMs ?? CHECK_LIMITS.budgetMs;
  }

  /** Starts the worker threads now rather than with the first check. */
  warm(): void {
    this.workers();
  }

  /** A ContractChecker that checks on the spot what is quick and bounded, and in the pool the rest. */
  checker(contract: Contract): ContractChecker {
    const shared = this.shared(contract);
    const inline = this.inlineChecker(contract);
    return {
      budgeted: true,
      routePrefixes: (op) => inline.routePrefixes(op),
      checkRequestNow: (op, request) => inline.checkRequestInline(op, request),
      checkRequest: async (op, request) => this.outcome(await this.workers().run({ kind: 'request', contract: shared, op: refOf(op), request: wire(request) })),
      checkResponseBody: async (op, response) => this.outcome(await this.workers().run({ kind: 'response', contract: shared, op: refOf(op), response })),
    };
  }

  /**
   * A SOAP mock's checker: bodies up to 64 KiB checked on the spot (libxml2, linear and bounded),
   * larger ones in the workers on the budget.
   */
  async soapChecker(contract: SoapContract): Promise<ContractChecker> {
    // libxml2 is loaded only here, for a SOAP mock; its workers load it too (check-worker.ts).
    const { SoapContractCheck } = await import('./engine/soap/soap-checker.js');
    if (!this.soapWorkers) {
      this.soapWorkers = true;
      const started = this.pool;
      this.pool = undefined;
      await started?.close();
    }
    // Kept per contract: an edit of the mock restarts it with the same contract, and its schemas stay compiled.
    let check = this.soapChecks.get(contract);
    if (!check) {
      this.soapChecks.set(contract, (check = new SoapContractCheck(contract)));
      // Compiled now, as the mock starts, rather than in the first request's time (about 200 ms).
      check.schemas();
    }
    let shared: SharedContract | undefined;
    return check.contractChecker(async (ref, request) => {
      shared ??= this.share(JSON.stringify({ ...contract, documents: [...contract.documents], sources: [...contract.sources] }));
      const operation = ref.operationId ?? ref.name ?? '';
      return this.outcome(await this.workers().run({ kind: 'soap-request', contract: shared, operation, request: wire(request) }));
    });
  }

  /** Runs a match condition's pattern on the backtracking engine, within the budget. */
  readonly testRegex: RegexRunner = async (source, value) => {
    const outcome = await this.workers().run({ kind: 'regex', source, value });
    if (outcome.ok && 'matched' in outcome.value) return { matched: outcome.value.matched };
    return { gaveUp: this.whyNot(outcome) };
  };

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }

  private workers(): BudgetedPool<MockCheckTask, MockCheckResult> {
    return (this.pool ??= new BudgetedPool<MockCheckTask, MockCheckResult>({
      filename: this.options.workerFile ?? new URL('./mock-check-worker.js', import.meta.url),
      // Two, so that while one check runs away another still serves.
      threads: this.options.threads ?? 2,
      maxQueue: this.options.maxQueue ?? 256,
      budgetMs: this.budgetMs,
      softMarginMs: 30,
      workerData: { soap: this.soapWorkers },
    }));
  }

  private inlineChecker(contract: Contract): EngineContractChecker {
    let checker = this.inline.get(contract);
    if (!checker) this.inline.set(contract, (checker = contractChecker(contract)));
    return checker;
  }

  private shared(contract: Contract): SharedContract {
    let shared = this.contracts.get(contract);
    if (!shared) this.contracts.set(contract, (shared = this.share(JSON.stringify(contract.definition))));
    return shared;
  }

  private share(text: string): SharedContract {
    const json = encoder.encode(text);
    const buffer = new SharedArrayBuffer(json.byteLength);
    new Uint8Array(buffer).set(json);
    return { key: `contract-${++this.contractCount}`, json: buffer };
  }

  private outcome(outcome: BudgetedOutcome<MockCheckResult>): CheckOutcome {
    if (outcome.ok && 'problems' in outcome.value) return outcome.value;
    return { problems: [], gaveUp: this.whyNot(outcome) };
  }

  private whyNot(outcome: BudgetedOutcome<MockCheckResult>): string {
    if (outcome.ok) return 'the check worker gave an answer of the wrong kind';
    switch (outcome.reason) {
      case 'budget':
        return `it took longer than ${this.budgetMs} ms and was stopped`;
      case 'queue-full':
        return 'too many requests were already waiting for a check';
      case 'cancelled':
        return 'it was cancelled';
      case 'failed':
        return `the check failed: ${outcome.error ?? 'its worker stopped'}`;
    }
  }
}

/** Only what the check reads: the engine passes its whole operation as the reference. */
function refOf(op: OperationRef): OperationRef {
  return { method: op.method, path: op.path };
}

function wire(request: ContractRequest): WireRequest {
  const bytes = request.bodyBytes ?? encoder.encode(request.body);
  const size = request.bodySize ?? bytes.byteLength;
  return {
    method: request.method,
    path: request.path,
    pathParams: { ...request.pathParams },
    query: { ...request.query },
    headers: request.headers,
    contentType: request.contentType,
    // A body the check would not read (over 1 MiB) is not copied to the worker; its size says why.
    body: size > CHECK_LIMITS.maxBodyBytes ? new Uint8Array(0) : bytes,
    bodySize: size,
  };
}
