/**
 * The checker's query worker thread (built to dist/checker-query-worker.js): runs the Query tab's
 * queries and request assertions its QueryPool posts (engine/run-query.ts, engine/assertions.ts), each on its budget.
 */
import { serveBudgetedTasks } from '../runtime/budgeted-worker.js';
import { runQuery } from './engine/run-query.js';
import { evaluateAssertions } from './engine/assertions.js';
import type { QueryTask, QueryTaskOutcome } from './query-pool.js';

// A runaway JSONPath filter or backtracking pattern is stopped by the pool's budget, so both may run here.
serveBudgetedTasks((task: QueryTask): QueryTaskOutcome =>
  task.kind === 'query' ? runQuery(task.job) : { ok: true, results: evaluateAssertions(task.job.assertions, { ...task.job, body: task.job.body }, { backtracking: true }) },
);
