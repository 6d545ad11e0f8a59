/**
 * The checker's worker pool (piscina). Every check gets one budget for the whole wait: the
 * definition lookup, the queue and the worker's own work. Past it, the task is aborted (piscina
 * terminates and replaces a worker that was running it) and the verdict is `not-checked`.
 * The worker itself stops a little before the budget so that what it found so far comes back.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { CheckJob, DefinitionDocument, Verdict } from '../../protocol/model/verdict.js';
import { screenBody, type ExchangeInput } from './engine/check.js';
import { CHECK_LIMITS, reasoned } from './engine/verdicts.js';
import type { WorkerTask } from './worker.js';

export interface CheckerPoolOptions {
  /** The built worker module; default `checker-worker.js` beside this module (dist/). */
  workerFile?: string | URL;
  /** Worker threads; default 2 to 4 by the machine's cores. */
  threads?: number;
  /** Checks allowed to wait for a worker; beyond, `not-checked` "too many responses already waiting". */
  maxQueue?: number;
  /** The whole wait of one check, in ms. */
  budgetMs?: number;
  /** How long before the budget the worker stops by itself, keeping partial results. */
  softMarginMs?: number;
  /** Looks up a definition by fingerprint when a job carries no documents. Counts in the budget. */
  loadDefinition?: (fingerprint: string, signal: AbortSignal) => Promise<readonly DefinitionDocument[] | undefined>;
  /** Definitions kept ready to send to workers. */
  maxDefinitions?: number;
}

export class CheckerPool {
  private readonly piscina: Piscina<WorkerTask, Verdict>;
  private readonly maxQueue: number;
  private readonly budgetMs: number;
  private readonly softMarginMs: number;
  private readonly maxDefinitions: number;
  private readonly loadDefinition: CheckerPoolOptions['loadDefinition'];
  /** Definitions as shared JSON bytes, by fingerprint, newest use last. */
  private readonly definitions = new Map<string, SharedArrayBuffer>();
  private closed = false;

  constructor(options: CheckerPoolOptions = {}) {
    const workerFile = options.workerFile ?? new URL('./checker-worker.js', import.meta.url);
    const threads = options.threads ?? Math.min(4, Math.max(2, availableParallelism() - 1));
    this.maxQueue = options.maxQueue ?? 64;
    this.budgetMs = options.budgetMs ?? CHECK_LIMITS.budgetMs;
    this.softMarginMs = options.softMarginMs ?? 30;
    this.maxDefinitions = options.maxDefinitions ?? 16;
    this.loadDefinition = options.loadDefinition;
    this.piscina = new Piscina<WorkerTask, Verdict>({
      filename: workerFile instanceof URL ? workerFile.href : workerFile,
      minThreads: threads,
      maxThreads: threads,
      // Our own queue check comes first; this only backs it up.
      maxQueue: this.maxQueue + threads,
      idleTimeout: 60_000,
    });
  }

  /** Checks one response; never rejects: every outcome is a verdict. */
  async check(job: CheckJob, signal?: AbortSignal): Promise<Verdict> {
    const deadline = Date.now() + this.budgetMs;
    const budget = AbortSignal.timeout(this.budgetMs);
    const abort = signal ? AbortSignal.any([signal, budget]) : budget;
    const gaveUp = () => reasoned('not-checked', signal?.aborted ? 'cancelled' : budget.aborted ? 'budget' : 'checker-failure');
    if (this.closed) return reasoned('not-checked', 'checker-failure');
    if (signal?.aborted) return reasoned('not-checked', 'cancelled');
    if (!job.definition) return reasoned('none', 'no-definition');

    const { request, response } = job;
    const screened = screenBody(request.method, response.contentType, response.body, response.size);
    if (screened) return screened;

    let definition: SharedArrayBuffer | undefined;
    try {
      definition = await this.definitionBytes(job.definition.fingerprint, job.definition.documents, abort);
    } catch {
      return gaveUp();
    }
    if (abort.aborted) return gaveUp();
    if (!definition) return reasoned('none', 'no-definition');
    if (this.piscina.queueSize >= this.maxQueue) return reasoned('not-checked', 'queue-full');

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
    const task: WorkerTask = { fingerprint: job.definition.fingerprint, definition, input, deadline: deadline - this.softMarginMs };
    try {
      return await this.piscina.run(task, { signal: abort });
    } catch {
      return gaveUp();
    }
  }

  /** Threads running and checks waiting, for status and tests. */
  get stats(): { threads: number; queued: number } {
    return { threads: this.piscina.threads.length, queued: this.piscina.queueSize };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.piscina.destroy();
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
