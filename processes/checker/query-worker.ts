/**
 * The checker's query worker thread (built to dist/checker-query-worker.js): runs the Query tab's
 * queries, request assertions and body captures its QueryPool posts (engine/run-query.ts,
 * engine/assertions.ts, engine/captures.ts), each on its budget.
 */
import { serveBudgetedTasks } from '../runtime/budgeted-worker.js';
import { evaluateJsonPath, evaluateXPath } from './engine/body-query.js';
import { runQuery } from './engine/run-query.js';
import { evaluateAssertions } from './engine/assertions.js';
import { schemaFromIntrospection, schemaFromSdl } from './engine/graphql-schema.js';
import { evaluateBodyCaptures } from './engine/captures.js';
import type { QueryTask, QueryTaskOutcome } from './query-pool.js';

// fontoxpath builds its function tables and parser on first use (a second or more on a loaded
// machine): done here, before the worker says it is ready, so no query's budget pays for it.
evaluateXPath('array:size([1]) + count(map { "a": 1 }?a)', { a: [1] });
evaluateJsonPath('$.a[0]', { a: [1] });

// A runaway JSONPath filter or backtracking pattern is stopped by the pool's budget, so both may run here.
serveBudgetedTasks((task: QueryTask): QueryTaskOutcome => {
  switch (task.kind) {
    case 'query':
      return runQuery(task.job);
    case 'assert':
      return { ok: true, results: evaluateAssertions(task.job.assertions, task.job, { backtracking: true }) };
    case 'capture':
      return { ok: true, values: evaluateBodyCaptures(task.job) };
    case 'graphqlSchema':
      return task.source.kind === 'introspection' ? schemaFromIntrospection(task.source.bytes) : schemaFromSdl(task.source.text);
  }
});
