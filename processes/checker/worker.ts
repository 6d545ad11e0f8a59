/**
 * The checker's worker thread (built to dist/checker-worker.js): runs the checks its
 * BudgetedPool posts (check-task.ts), each on its budget.
 */
import { serveBudgetedTasks } from '../runtime/budgeted-worker.js';
import { prepareCheck, runCheck } from './check-task.js';

serveBudgetedTasks(runCheck, prepareCheck);
