/**
 * The Query tab's queries, on a worker thread of their own (query-worker.ts): an XPath or JSONPath
 * expression is the user's code over a body that came from outside, and XPath 3.1 can loop for
 * ever (`(1 to 1e12)`) or build a huge value. Each query has QUERY_BUDGET_MS from when the worker
 * starts it and a heap of its own; past either the worker is stopped and replaced, and the query
 * fails with a message that says so. Contract checks keep their own pool, so a slow query never
 * holds a verdict up. The thread starts with the first query.
 */
import { ParleyError } from '../../protocol/errors.js';
import type { QueryJob, QueryResult } from '../../protocol/model/query.js';
import { BudgetedPool } from '../runtime/budgeted-pool.js';
import type { QueryOutcome } from './engine/run-query.js';
import type { AssertJob, AssertionResult } from '../../protocol/model/assertion.js';
import type { CaptureJob, CapturedValue } from '../../protocol/model/capture.js';

/** What the query thread runs: a Query tab query, a request's assertions, or its body captures. */
export type QueryTask = { kind: 'query'; job: QueryJob } | { kind: 'assert'; job: AssertJob } | { kind: 'capture'; job: CaptureJob };
export type QueryTaskOutcome = QueryOutcome | { ok: true; results: AssertionResult[] } | { ok: true; values: CapturedValue[] };

export const QUERY_BUDGET_MS = 3_000;

export interface QueryPoolOptions {
  /** The built worker; default `checker-query-worker.js` beside this module (dist/). */
  workerFile?: string | URL;
  budgetMs?: number;
  /** Heap of the worker thread, in MB. */
  heapMb?: number;
}

export class QueryPool {
  private pool: BudgetedPool<QueryTask, QueryTaskOutcome> | undefined;
  private readonly budgetMs: number;

  constructor(private readonly options: QueryPoolOptions = {}) {
    this.budgetMs = options.budgetMs ?? QUERY_BUDGET_MS;
  }

  async run(job: QueryJob, signal?: AbortSignal): Promise<QueryResult> {
    const value = await this.task({ kind: 'query', job }, signal);
    if (value.ok && 'result' in value) return value.result;
    if (!value.ok) throw new ParleyError(value.code, value.message);
    throw new ParleyError('query-failed', 'The query thread answered with something else.');
  }

  /** A request's assertions, with the query's budget: a runaway JSONPath or pattern is stopped. */
  async assert(job: AssertJob, signal?: AbortSignal): Promise<AssertionResult[]> {
    const value = await this.task({ kind: 'assert', job }, signal);
    if (value.ok && 'results' in value) return value.results;
    throw new ParleyError('query-failed', 'The query thread answered with something else.');
  }

  /** A request's body captures, with the query's budget: a runaway JSONPath or XPath is stopped. */
  async capture(job: CaptureJob, signal?: AbortSignal): Promise<CapturedValue[]> {
    const value = await this.task({ kind: 'capture', job }, signal);
    if (value.ok && 'values' in value) return value.values;
    throw new ParleyError('query-failed', 'The query thread answered with something else.');
  }

  private async task(task: QueryTask, signal?: AbortSignal): Promise<QueryTaskOutcome> {
    const outcome = await this.workers().run(task, signal);
    if (outcome.ok) return outcome.value;
    switch (outcome.reason) {
      case 'budget': {
        // Over XML the time includes building the body's tree (the first query over a body of some megabytes).
        const xml = task.kind === 'query' && task.job.source.kind === 'body' && task.job.source.syntax === 'xml';
        throw new ParleyError('query-budget', `The query ran for ${this.budgetMs / 1000} s${xml ? ', reading the XML body included,' : ''} without finishing and was stopped.`);
      }
      case 'queue-full':
        throw new ParleyError('query-busy', 'Too many queries are waiting: try again when the others have finished.');
      case 'cancelled':
        throw new ParleyError('cancelled', 'The query was cancelled.');
      case 'failed':
        throw new ParleyError('query-failed', `The query could not be run (${outcome.error ?? 'its worker stopped'}); a result too large to hold ends this way too.`);
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }

  private workers(): BudgetedPool<QueryTask, QueryTaskOutcome> {
    return (this.pool ??= new BudgetedPool<QueryTask, QueryTaskOutcome>({
      filename: this.options.workerFile ?? new URL('./checker-query-worker.js', import.meta.url),
      threads: 1,
      maxQueue: 4,
      budgetMs: this.budgetMs,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? 1024 },
    }));
  }
}
