/**
 * Worker threads that run tasks on a budget that starts when a worker starts the task, not when it
 * was queued: a task waiting behind a runaway one keeps its whole budget. Past it the worker is
 * terminated (the only way to stop a `RegExp.test`, or any loop that never yields), the tasks it
 * had not started go to the other workers, and a new worker takes its place. The checker's
 * contract checks and the mock host's request checks run on it.
 *
 * Each worker runs its tasks one after another and keeps the id of the one it is running in a
 * shared Int32Array (`budgeted-worker.ts`); a sweep every few milliseconds notes when an id first
 * shows up and stops its worker when the same id is still there a budget later. By default a
 * worker is handed its next task only when it has answered the last (`postAhead` 1): a task handed
 * to a worker busy with a runaway one would keep its budget but wait for that one to be stopped.
 * Measured against piscina in bench/budgeted-pool.mjs (ARCHITECTURE.md, "Dependencies and
 * deviations").
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface BudgetedPoolOptions {
  /** The built worker module, which calls `serveBudgetedTasks`. */
  filename: string | URL;
  threads: number;
  /** Tasks allowed to wait for a worker; beyond, `queue-full` at once. */
  maxQueue: number;
  /** How long a task may run once a worker has started it, in ms. */
  budgetMs: number;
  /** How long before the budget the task is asked to stop by itself, keeping what it found. */
  softMarginMs?: number;
  /** Tasks handed to one worker before it has answered them (default 1: see above). */
  postAhead?: number;
  /** What `budgetedWorkerData()` returns in every worker. */
  workerData?: unknown;
  /** Node options for the worker threads (e.g. `--no-node-snapshot`). */
  execArgv?: string[];
  /** Heap limits of each worker: one past them dies alone (`failed`), not the process. */
  resourceLimits?: ResourceLimits;
}

export type BudgetedOutcome<R> =
  | { ok: true; value: R }
  /** `budget`: stopped past its budget; `failed`: the handler threw or its worker died (`error` says how). */
  | { ok: false; reason: 'budget' | 'queue-full' | 'cancelled' | 'failed'; error?: string };

/** What a worker gets, and sends back, for one task. */
export interface TaskMessage<T> {
  id: number;
  /** Milliseconds from the start after which the handler should stop by itself. */
  softBudgetMs: number;
  task: T;
}
export type ReplyMessage<R> = { id: number; ok: true; value: R } | { id: number; ok: false; error: string } | { ready: true };

export interface BudgetedWorkerData {
  /** Int32Array(1): the id of the task the worker is running, 0 between tasks. */
  running: SharedArrayBuffer;
  data: unknown;
}

interface Pending<T, R> {
  id: number;
  task: T;
  settle: (outcome: BudgetedOutcome<R>) => void;
  settled: boolean;
}

interface Slot<T, R> {
  worker: Worker;
  running: Int32Array;
  /** Posted to this worker and not answered yet, in the order it runs them. */
  posted: Pending<T, R>[];
  /** The running id the sweep last saw, and when it first saw it (performance.now()). */
  seenId: number;
  seenAt: number;
  ready: boolean;
  gone: boolean;
}

/** Workers that die before they are ready, in a row, before the pool stops starting new ones. */
const MAX_BOOT_FAILURES = 3;

export class BudgetedPool<T, R> {
  private readonly options: Required<Omit<BudgetedPoolOptions, 'workerData' | 'execArgv' | 'resourceLimits'>> & Pick<BudgetedPoolOptions, 'workerData' | 'execArgv' | 'resourceLimits'>;
  private readonly slots: Slot<T, R>[] = [];
  /** Tasks not yet posted to a worker, oldest first. */
  private queue: Pending<T, R>[] = [];
  private nextId = 1;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly sweepMs: number;
  private bootFailures = 0;
  private closed = false;
  /** Whether the workers are ref'd: some task waits for an answer. */
  private holding = false;

  constructor(options: BudgetedPoolOptions) {
    this.options = { softMarginMs: 0, postAhead: 1, ...options };
    this.sweepMs = Math.max(5, Math.min(25, Math.floor(options.budgetMs / 20)));
    for (let i = 0; i < options.threads; i++) this.spawn();
  }

  /** Runs one task; never rejects. */
  run(task: T, signal?: AbortSignal): Promise<BudgetedOutcome<R>> {
    if (this.closed) return Promise.resolve({ ok: false, reason: 'failed', error: 'the pool is closed' });
    if (signal?.aborted) return Promise.resolve({ ok: false, reason: 'cancelled' });
    if (this.waiting() >= this.options.maxQueue) return Promise.resolve({ ok: false, reason: 'queue-full' });
    return new Promise((resolve) => {
      const pending: Pending<T, R> = {
        id: this.nextId++,
        task,
        settled: false,
        settle: (outcome) => {
          if (pending.settled) return;
          pending.settled = true;
          signal?.removeEventListener('abort', cancel);
          resolve(outcome);
        },
      };
      // A cancelled task that a worker already has is answered now; its result, when it comes, is dropped.
      const cancel = () => {
        this.queue = this.queue.filter((p) => p !== pending);
        pending.settle({ ok: false, reason: 'cancelled' });
        this.watch();
      };
      signal?.addEventListener('abort', cancel, { once: true });
      this.queue.push(pending);
      if (this.slots.length < this.options.threads) {
        // Workers that would not start get another chance with a new task.
        if (this.bootFailures >= MAX_BOOT_FAILURES) this.bootFailures = 0;
        this.refill();
      }
      this.pump();
    });
  }

  /** Worker threads alive, tasks handed to them and not answered yet, and tasks waiting for one to start them. */
  get stats(): { threads: number; busy: number; queued: number } {
    let busy = 0;
    for (const s of this.slots) busy += s.posted.length;
    return { threads: this.slots.filter((s) => !s.gone).length, busy, queued: this.waiting() };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    const slots = this.slots.splice(0);
    for (const p of [...this.queue, ...slots.flatMap((s) => s.posted)]) p.settle({ ok: false, reason: 'failed', error: 'the pool is closed' });
    this.queue = [];
    await Promise.all(slots.map((s) => ((s.gone = true), s.worker.terminate())));
  }

  private waiting(): number {
    let posted = 0;
    for (const s of this.slots) posted += Math.max(0, s.posted.length - 1);
    return this.queue.length + posted;
  }

  private spawn(): void {
    const running = new SharedArrayBuffer(4);
    const workerData: BudgetedWorkerData = { running, data: this.options.workerData };
    const worker = new Worker(this.options.filename, {
      workerData,
      ...(this.options.execArgv ? { execArgv: this.options.execArgv } : {}),
      ...(this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {}),
    });
    const slot: Slot<T, R> = { worker, running: new Int32Array(running), posted: [], seenId: 0, seenAt: 0, ready: false, gone: false };
    worker.on('message', (message: ReplyMessage<R>) => this.onReply(slot, message));
    worker.on('error', (err) => this.onDeath(slot, err instanceof Error ? err.message : String(err)));
    worker.on('exit', (code) => this.onDeath(slot, `the worker exited with code ${code}`));
    // An idle pool does not keep the process alive; one with tasks to answer does (see watch).
    if (!this.holding) worker.unref();
    this.slots.push(slot);
  }

  private onReply(slot: Slot<T, R>, message: ReplyMessage<R>): void {
    if ('ready' in message) {
      slot.ready = true;
      this.bootFailures = 0;
      this.pump();
      return;
    }
    const index = slot.posted.findIndex((p) => p.id === message.id);
    if (index < 0) return;
    const [pending] = slot.posted.splice(index, 1);
    pending!.settle(message.ok ? { ok: true, value: message.value } : { ok: false, reason: 'failed', error: message.error });
    this.pump();
  }

  /** A worker that died (or was stopped): its running task fails, the rest run elsewhere. */
  private onDeath(slot: Slot<T, R>, why: string, reason: 'budget' | 'failed' = 'failed'): void {
    if (slot.gone) return;
    slot.gone = true;
    this.slots.splice(this.slots.indexOf(slot), 1);
    const runningId = Atomics.load(slot.running, 0);
    // The worker runs its tasks in order: those before the running one are done (their answers
    // may still be on the way, and a second answer is dropped), the running one is the casualty,
    // and those after it never started. Only the casualty fails; the rest are run again.
    const rest: Pending<T, R>[] = [];
    for (const p of slot.posted) {
      if (p.id === runningId) p.settle({ ok: false, reason, ...(reason === 'failed' ? { error: why } : {}) });
      else if (!p.settled) rest.push(p);
    }
    slot.posted = [];
    this.queue = [...rest, ...this.queue];
    if (!slot.ready) this.bootFailures++;
    if (this.closed) return;
    if (this.bootFailures >= MAX_BOOT_FAILURES) {
      // The worker file does not load: fail what waits rather than start workers for ever.
      for (const p of this.queue) p.settle({ ok: false, reason: 'failed', error: why });
      this.queue = [];
      this.watch();
      return;
    }
    this.refill();
    this.pump();
  }

  private refill(): void {
    while (!this.closed && this.slots.length < this.options.threads) this.spawn();
  }

  /**
   * Hands waiting tasks to the least busy workers that are ready, up to `postAhead` each. A worker
   * still starting (a replacement, say) gets none: a task handed to it would wait for its start
   * even if another worker came free first.
   */
  private pump(): void {
    this.queue = this.queue.filter((p) => !p.settled);
    while (this.queue.length > 0) {
      let best: Slot<T, R> | undefined;
      for (const s of this.slots) if (s.ready && !s.gone && (!best || s.posted.length < best.posted.length)) best = s;
      if (!best || best.posted.length >= this.options.postAhead) break;
      const pending = this.queue.shift()!;
      best.posted.push(pending);
      const message: TaskMessage<T> = { id: pending.id, softBudgetMs: this.options.budgetMs - this.options.softMarginMs, task: pending.task };
      best.worker.postMessage(message);
    }
    this.watch();
  }

  /** Sweeps while a worker has tasks; keeps the process alive while any task waits for an answer. */
  private watch(): void {
    const busy = this.slots.some((s) => s.posted.length > 0);
    const pending = busy || this.queue.length > 0;
    if (pending !== this.holding) {
      this.holding = pending;
      for (const s of this.slots) {
        if (pending) s.worker.ref();
        else s.worker.unref();
      }
    }
    if (busy && !this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), this.sweepMs);
      this.sweeper.unref();
    } else if (!busy && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** Stops every worker whose task has run a whole budget since the sweep first saw it. */
  private sweep(): void {
    const now = performance.now();
    for (const slot of [...this.slots]) {
      const id = Atomics.load(slot.running, 0);
      if (id === 0) {
        slot.seenId = 0;
      } else if (id !== slot.seenId) {
        slot.seenId = id;
        slot.seenAt = now;
      } else if (now - slot.seenAt >= this.options.budgetMs) {
        void slot.worker.terminate();
        this.onDeath(slot, 'over budget', 'budget');
      }
    }
    this.watch();
  }
}
