/**
 * The worker side of a BudgetedPool: runs the tasks the pool posts, one after another, with the
 * id of the running one in the shared slot the pool sweeps (its budget runs from when it shows
 * up there), and hands each handler its own deadline to stop by itself before the pool stops it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { BudgetedWorkerData, ReplyMessage, TaskMessage } from './budgeted-pool.js';

/**
 * `deadline` is a Date.now() time: the task's start here plus its soft budget. `prepare` runs
 * first, off the budget: work that belongs to the worker rather than to one task (the checker's
 * parse of a definition it has not met), so that a task stopped at its budget does not take it
 * down with it and leave the next task to start over. It must be bounded by its input's size.
 */
export function serveBudgetedTasks<T, R>(handler: (task: T, deadline: number) => R, prepare?: (task: T) => void): void {
  const port = parentPort;
  if (!port) throw new Error('serveBudgetedTasks runs in a worker thread of a BudgetedPool');
  const running = new Int32Array((workerData as BudgetedWorkerData).running);
  port.on('message', (message: TaskMessage<T>) => {
    let reply: ReplyMessage<R>;
    try {
      prepare?.(message.task);
      Atomics.store(running, 0, message.id);
      reply = { id: message.id, ok: true, value: handler(message.task, Date.now() + message.softBudgetMs) };
    } catch (err) {
      reply = { id: message.id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    Atomics.store(running, 0, 0);
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies ReplyMessage<R>);
}

/** The `workerData` the pool was given, in a worker it started. */
export function budgetedWorkerData(): unknown {
  return (workerData as BudgetedWorkerData).data;
}
