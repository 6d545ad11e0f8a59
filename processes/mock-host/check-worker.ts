/**
 * The mock host's check worker thread (built to dist/mock-check-worker.js): runs the request
 * checks and slow match conditions its MockCheckPool posts (check-task.ts), each on its budget.
 */
import { budgetedWorkerData, serveBudgetedTasks } from '../runtime/budgeted-worker.js';
import { prepareMockCheck, runMockCheck, useSoapChecks } from './check-task.js';

// A SOAP mock's workers load the SOAP checks (libxml2) before saying they are ready.
if ((budgetedWorkerData() as { soap?: boolean } | undefined)?.soap) useSoapChecks(await import('./engine/soap/soap-checker.js'));
serveBudgetedTasks(runMockCheck, prepareMockCheck);
