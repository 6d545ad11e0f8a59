/**
 * The checker's worker pool (a BudgetedPool of worker threads). Every check gets its budget when a
 * worker starts it: a check queued behind a runaway one keeps its whole budget, so one bad body in
 * a batch costs one `not-checked`, not every check behind it. Past the budget the task is aborted
 * (its worker is terminated and another takes its place) and the verdict is `not-checked`. The worker
 * itself stops a little before the budget so that what it found so far comes back. The wait for a
 * worker is bounded by the queue's length (`queue-full` past it) and by the caller, who holds the
 * whole wait to its own limit (the app's send: SPEC's 1000 ms including the definition lookup).
 */
import { availableParallelism } from 'node:os';
import type { CheckJob, DefinitionDocument, DefinitionRef, Verdict } from '../../protocol/model/verdict.js';
import { BudgetedPool } from '../runtime/budgeted-pool.js';
import { screenBody, type ExchangeInput } from './engine/check.js';
import { CHECK_LIMITS, reasoned } from './engine/verdicts.js';
import type { WorkerTask } from './check-task.js';

export interface CheckerPoolOptions {
  /** The built worker module; default `checker-worker.js` beside this module (dist/). */
  workerFile?: string | URL;
  /** Worker threads; default 2 to 4 by the machine's cores. */
  threads?: number;
  /** Checks allowed to wait for a worker; beyond, `not-checked` "too many responses already waiting". */
  maxQueue?: number;
  /** How long one check may run once a worker has started it, in ms; the definition lookup gets as long again. */
  budgetMs?: number;
  /** How long before the budget the worker stops by itself, keeping partial results. */
  softMarginMs?: number;
  /** Looks up a definition by fingerprint when a job carries no documents. Counts in the budget. */
  loadDefinition?: (fingerprint: string, signal: AbortSignal) => Promise<readonly DefinitionDocument[] | undefined>;
  /** Definitions kept ready to send to workers. */
  maxDefinitions?: number;
}

export class CheckerPool {
  private readonly pool: BudgetedPool<WorkerTask, Verdict>;
  private readonly budgetMs: number;
  private readonly maxDefinitions: number;
  private readonly loadDefinition: CheckerPoolOptions['loadDefinition'];
  /** Definitions as shared JSON bytes, by fingerprint, newest use last. */
  private readonly definitions = new Map<string, SharedArrayBuffer>();
  private closed = false;

  constructor(options: CheckerPoolOptions = {}) {
    const workerFile = options.workerFile ?? new URL('./checker-worker.js', import.meta.url);
    this.budgetMs = options.budgetMs ?? CHECK_LIMITS.budgetMs;
    this.maxDefinitions = options.maxDefinitions ?? 16;
    this.loadDefinition = options.loadDefinition;
    this.pool = new BudgetedPool<WorkerTask, Verdict>({
      filename: workerFile,
      threads: options.threads ?? Math.min(4, Math.max(2, availableParallelism() - 1)),
      maxQueue: options.maxQueue ?? 64,
      budgetMs: this.budgetMs,
      softMarginMs: options.softMarginMs ?? 30,
    });
  }

  /** Checks one response; never rejects: every outcome is a verdict. */
  async check(job: CheckJob, signal?: AbortSignal): Promise<Verdict> {
    if (this.closed) return reasoned('not-checked', 'checker-failure');
    if (signal?.aborted) return reasoned('not-checked', 'cancelled');
    if (!job.definition) return reasoned('none', 'no-definition');

    const { request, response } = job;
    const screened = screenBody(request.method, response.contentType, response.body, response.size);
    if (screened) return screened;

    // A lookup that does not answer must not hold the check for ever: it gets a budget of its own.
    const lookupBudget = AbortSignal.timeout(this.budgetMs);
    const lookup = signal ? AbortSignal.any([signal, lookupBudget]) : lookupBudget;
    let definition: SharedArrayBuffer | undefined;
    try {
      definition = await this.definitionBytes(job.definition.fingerprint, job.definition.documents, lookup);
    } catch {
      return reasoned('not-checked', signal?.aborted ? 'cancelled' : lookupBudget.aborted ? 'budget' : 'checker-failure');
    }
    if (signal?.aborted) return reasoned('not-checked', 'cancelled');
    if (!definition) return reasoned('none', 'no-definition');

    const size = response.size ?? response.body.length;
    const input: ExchangeInput = {
      method: request.method,
      url: request.url,
      operation: request.operation,
      status: response.status,
      contentType: response.contentType,
      // A body over the limit is skipped without parsing: no need to send it. A view into a
      // larger buffer (a decoded bus frame) is cut to itself, or the whole buffer would be copied.
      body: size > CHECK_LIMITS.maxBodyBytes ? new Uint8Array(0) : ownBytes(response.body),
      size,
    };
    const outcome = await this.pool.run({ fingerprint: job.definition.fingerprint, definition, input }, signal);
    if (outcome.ok) return outcome.value;
    return reasoned('not-checked', outcome.reason === 'failed' ? 'checker-failure' : outcome.reason);
  }

  /** Threads running and checks waiting, for status and tests. */
  get stats(): { threads: number; busy: number; queued: number } {
    return this.pool.stats;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.close();
  }

  /**
   * The documents of a definition this pool holds (or is given, or can look up), parsed afresh:
   * for work on the checker's own thread such as a body schema. Undefined when it has none.
   */
  async definitionDocuments(ref: DefinitionRef, signal: AbortSignal): Promise<DefinitionDocument[] | undefined> {
    const shared = await this.definitionBytes(ref.fingerprint, ref.documents, signal);
    // TextDecoder will not read shared memory: a copy first.
    return shared ? (JSON.parse(new TextDecoder().decode(new Uint8Array(shared).slice())) as DefinitionDocument[]) : undefined;
  }

  private async definitionBytes(
    fingerprint: string,
    documents: readonly DefinitionDocument[] | undefined,
    signal: AbortSignal,
  ): Promise<SharedArrayBuffer | undefined> {
    const known = this.definitions.get(fingerprint);
    if (known) {
      this.definitions.delete(fingerprint);
      this.definitions.set(fingerprint, known);
      return known;
    }
    const docs = documents ?? (this.loadDefinition ? await raceAbort(this.loadDefinition(fingerprint, signal), signal) : undefined);
    if (!docs || docs.length === 0) return undefined;
    const json = new TextEncoder().encode(JSON.stringify(docs));
    const shared = new SharedArrayBuffer(json.byteLength);
    new Uint8Array(shared).set(json);
    this.definitions.set(fingerprint, shared);
    if (this.definitions.size > this.maxDefinitions) this.definitions.delete(this.definitions.keys().next().value!);
    return shared;
  }
}

function ownBytes(body: Uint8Array): Uint8Array {
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
}

/** Settles with the promise, or rejects as soon as the signal aborts (a slow lookup must not outlive the budget). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
