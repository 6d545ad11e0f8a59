/**
 * The mock host's check worker thread (built to dist/mock-check-worker.js): runs the request
 * checks and slow match conditions its MockCheckPool posts (check-task.ts), each on its budget.
 */
import { serveBudgetedTasks } from '../runtime/budgeted-worker.js';
import { runMockCheck } from './check-task.js';

serveBudgetedTasks(runMockCheck);
