/**
 * A piscina pool whose every task has a budget that starts when a worker starts it, not when it
 * was queued: a check waiting behind a runaway one keeps its whole budget. The worker says when it
 * starts (`budgetedTask` posts the task's id), and from then the task has `budgetMs`; past it the
 * task is aborted and piscina terminates that worker (the only way to stop a `RegExp.test` or any
 * other loop that never yields) and starts another. The checker's contract checks and the mock
 * host's request checks run on it.
 */
import { Piscina } from 'piscina';
import { STARTED, type BudgetedEnvelope } from './budgeted-task.js';

export interface BudgetedPoolOptions {
  /** The built worker module; its default export must be wrapped in `budgetedTask`. */
  filename: string;
  threads: number;
  /** Tasks allowed to wait for a worker; beyond, `queue-full` at once. */
  maxQueue: number;
  /** How long a task may run once a worker has started it, in ms. */
  budgetMs: number;
  /** How long before the budget the worker is asked to stop by itself, keeping what it found. */
  softMarginMs?: number;
  /** Data every worker gets at start (`workerData`). */
  workerData?: unknown;
}

export type BudgetedOutcome<R> =
  | { ok: true; value: R }
  /** `budget`: killed past its budget; `failed`: the worker died or threw (`error` says how). */
  | { ok: false; reason: 'budget' | 'queue-full' | 'cancelled' | 'failed'; error?: unknown };

export class BudgetedPool<T, R> {
  private readonly piscina: Piscina<BudgetedEnvelope<T>, R>;
  private readonly options: BudgetedPoolOptions;
  private nextId = 1;
  /** Tasks handed to piscina and not yet started by a worker: what to do when one starts. */
  private readonly waiting = new Map<number, () => void>();

  constructor(options: BudgetedPoolOptions) {
    this.options = options;
    this.piscina = new Piscina<BudgetedEnvelope<T>, R>({
      filename: options.filename,
      minThreads: options.threads,
      maxThreads: options.threads,
      // Our own check comes first; this only backs it up.
      maxQueue: options.maxQueue + options.threads,
      idleTimeout: 60_000,
      ...(options.workerData === undefined ? {} : { workerData: options.workerData }),
    });
    this.piscina.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && STARTED in message) {
        const id = (message as Record<typeof STARTED, unknown>)[STARTED];
        if (typeof id === 'number') this.waiting.get(id)?.();
      }
    });
  }

  /** Runs one task; never rejects. */
  async run(task: T, signal?: AbortSignal): Promise<BudgetedOutcome<R>> {
    if (signal?.aborted) return { ok: false, reason: 'cancelled' };
    if (this.piscina.queueSize >= this.options.maxQueue) return { ok: false, reason: 'queue-full' };
    const id = this.nextId++;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let overBudget = false;
    const cancel = () => controller.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    this.waiting.set(id, () => {
      this.waiting.delete(id);
      timer = setTimeout(() => {
        overBudget = true;
        controller.abort();
      }, this.options.budgetMs);
    });
    const envelope: BudgetedEnvelope<T> = { id, softBudgetMs: this.options.budgetMs - (this.options.softMarginMs ?? 0), task };
    try {
      return { ok: true, value: await this.piscina.run(envelope, { signal: controller.signal }) };
    } catch (error) {
      if (overBudget) return { ok: false, reason: 'budget' };
      if (signal?.aborted) return { ok: false, reason: 'cancelled' };
      return { ok: false, reason: 'failed', error };
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Threads running and tasks waiting for one. */
  get stats(): { threads: number; queued: number } {
    return { threads: this.piscina.threads.length, queued: this.piscina.queueSize };
  }

  close(): Promise<void> {
    return this.piscina.destroy();
  }
}
