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
import type { SchemaOutcome } from './engine/graphql-schema.js';
import type { GraphqlSchemaSource } from '../../protocol/model/graphql.js';
import type { CaptureJob, CapturedValue } from '../../protocol/model/capture.js';

/** What the query thread runs: a Query tab query, a request's assertions, its body captures, or a GraphQL schema to build (on a thread of its own). */
export type QueryTask = { kind: 'query'; job: QueryJob } | { kind: 'assert'; job: AssertJob } | { kind: 'capture'; job: CaptureJob } | { kind: 'graphqlSchema'; source: GraphqlSchemaSource };
export type QueryTaskOutcome = QueryOutcome | { ok: true; results: AssertionResult[] } | { ok: true; values: CapturedValue[] } | SchemaOutcome;

export const QUERY_BUDGET_MS = 3_000;
/**
 * A GraphQL schema of thousands of types takes graphql-js seconds to build on a loaded machine: it
 * runs on a thread of its own with this budget, so neither waits behind the other.
 */
export const SCHEMA_BUDGET_MS = 30_000;

export interface QueryPoolOptions {
  /** The built worker; default `checker-query-worker.js` beside this module (dist/). */
  workerFile?: string | URL;
  budgetMs?: number;
  /** The budget of a GraphQL schema's build (SCHEMA_BUDGET_MS). */
  schemaBudgetMs?: number;
  /** Heap of the worker thread, in MB. */
  heapMb?: number;
}

export class QueryPool {
  private pool: BudgetedPool<QueryTask, QueryTaskOutcome> | undefined;
  private schemaPool: BudgetedPool<QueryTask, QueryTaskOutcome> | undefined;
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

  /** A GraphQL schema from an introspection answer or an SDL file, as SDL (engine/graphql-schema.ts), on the schema thread's budget. */
  async graphqlSchema(source: GraphqlSchemaSource, signal?: AbortSignal): Promise<{ sdl: string; types: number }> {
    const outcome = await (this.schemaPool ??= this.newPool(this.options.schemaBudgetMs ?? SCHEMA_BUDGET_MS)).run({ kind: 'graphqlSchema', source }, signal);
    if (!outcome.ok && outcome.reason === 'budget') {
      throw new ParleyError('graphql-schema-too-large', `Building the GraphQL schema took more than ${(this.options.schemaBudgetMs ?? SCHEMA_BUDGET_MS) / 1000} s and was stopped.`);
    }
    const value = outcome.ok ? outcome.value : this.failed(outcome, { kind: 'graphqlSchema', source });
    if (value.ok && 'sdl' in value) return { sdl: value.sdl, types: value.types };
    if (!value.ok) throw new ParleyError(value.code, value.message);
    throw new ParleyError('query-failed', 'The query thread answered with something else.');
  }

  private async task(task: QueryTask, signal?: AbortSignal): Promise<QueryTaskOutcome> {
    const outcome = await (this.pool ??= this.newPool(this.budgetMs)).run(task, signal);
    return outcome.ok ? outcome.value : this.failed(outcome, task);
  }

  private failed(outcome: Extract<Awaited<ReturnType<BudgetedPool<QueryTask, QueryTaskOutcome>['run']>>, { ok: false }>, task: QueryTask): never {
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
    await Promise.all([this.pool?.close(), this.schemaPool?.close()]);
    this.pool = undefined;
    this.schemaPool = undefined;
  }

  private newPool(budgetMs: number): BudgetedPool<QueryTask, QueryTaskOutcome> {
    return new BudgetedPool<QueryTask, QueryTaskOutcome>({
      filename: this.options.workerFile ?? new URL('./checker-query-worker.js', import.meta.url),
      threads: 1,
      maxQueue: 4,
      budgetMs,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? 1024 },
    });
  }
}
