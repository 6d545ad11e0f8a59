/**
 * The worker side of a BudgetedPool: a task handler wrapped so that the pool learns when this
 * worker starts the task (its budget runs from then), and the handler learns when to stop by
 * itself. Imported by worker modules only; kept apart from the pool so a worker bundle does not
 * carry piscina's main-thread side.
 */
import { parentPort } from 'node:worker_threads';

/** The key of the message a worker posts when it starts a task. */
export const STARTED = 'parley.budgetedTaskStarted';

export interface BudgetedEnvelope<T> {
  id: number;
  /** Milliseconds from the start after which the handler should stop by itself with what it has. */
  softBudgetMs: number;
  task: T;
}

/** `deadline` is a Date.now() time: the start here plus the soft budget. */
export function budgetedTask<T, R>(handler: (task: T, deadline: number) => R): (envelope: BudgetedEnvelope<T>) => R {
  return (envelope) => {
    const started = Date.now();
    parentPort?.postMessage({ [STARTED]: envelope.id });
    return handler(envelope.task, started + envelope.softBudgetMs);
  };
}
