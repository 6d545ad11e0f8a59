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

export const QUERY_BUDGET_MS = 3_000;

export interface QueryPoolOptions {
  /** The built worker; default `checker-query-worker.js` beside this module (dist/). */
  workerFile?: string | URL;
  budgetMs?: number;
  /** Heap of the worker thread, in MB. */
  heapMb?: number;
}

export class QueryPool {
  private pool: BudgetedPool<QueryJob, QueryOutcome> | undefined;
  private readonly budgetMs: number;

  constructor(private readonly options: QueryPoolOptions = {}) {
    this.budgetMs = options.budgetMs ?? QUERY_BUDGET_MS;
  }

  async run(job: QueryJob, signal?: AbortSignal): Promise<QueryResult> {
    const outcome = await this.workers().run(job, signal);
    if (outcome.ok) {
      if (outcome.value.ok) return outcome.value.result;
      throw new ParleyError(outcome.value.code, outcome.value.message);
    }
    switch (outcome.reason) {
      case 'budget':
        throw new ParleyError('query-budget', `The query ran for ${this.budgetMs / 1000} s without finishing and was stopped.`);
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

  private workers(): BudgetedPool<QueryJob, QueryOutcome> {
    return (this.pool ??= new BudgetedPool<QueryJob, QueryOutcome>({
      filename: this.options.workerFile ?? new URL('./checker-query-worker.js', import.meta.url),
      threads: 1,
      maxQueue: 4,
      budgetMs: this.budgetMs,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? 1024 },
    }));
  }
}
