/**
 * The checker's query worker thread (built to dist/checker-query-worker.js): runs the Query tab's
 * queries its QueryPool posts (engine/run-query.ts), each on its budget.
 */
import { serveBudgetedTasks } from '../runtime/budgeted-worker.js';
import { runQuery } from './engine/run-query.js';

serveBudgetedTasks(runQuery);
