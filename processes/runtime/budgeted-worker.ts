/**
 * The worker side of a BudgetedPool: runs the tasks the pool posts, one after another, with the
 * id of the running one in the shared slot the pool sweeps (its budget runs from when it shows
 * up there), and hands each handler its own deadline to stop by itself before the pool stops it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { BudgetedWorkerData, ReplyMessage, TaskMessage } from './budgeted-pool.js';

/** `deadline` is a Date.now() time: the task's start here plus its soft budget. */
export function serveBudgetedTasks<T, R>(handler: (task: T, deadline: number) => R): void {
  const port = parentPort;
  if (!port) throw new Error('serveBudgetedTasks runs in a worker thread of a BudgetedPool');
  const running = new Int32Array((workerData as BudgetedWorkerData).running);
  port.on('message', (message: TaskMessage<T>) => {
    Atomics.store(running, 0, message.id);
    let reply: ReplyMessage<R>;
    try {
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
