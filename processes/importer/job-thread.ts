/**
 * Runs one import job on a worker thread of the importer process, so the process's own thread
 * stays free for the bus: heartbeats are answered and progress goes out while a converter holds
 * its thread for seconds. postman-collection normalises a whole collection in one synchronous
 * call; a 5,000-request one under load passed the 10 s heartbeat and the importer was killed
 * as hung. The thread gets the process's heap cap: running out of it ends the job with
 * `import-out-of-memory`, said by this process, which lives on to say it.
 */
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { ParleyError, type WireError } from '../../protocol/errors.js';
import type { ImportResultPart } from '../../protocol/model/import-parts.js';
import type { ImportProgress } from '../../protocol/model/import.js';
import type { DefinitionApplyJob, DefinitionUpdateJob, ImportJob } from '../../protocol/model/import.js';
import type { ReqOf } from '../../protocol/messages.js';
import { importOutOfMemoryError } from './engine/load/limits.js';

export type ThreadJob =
  | { kind: 'run'; job: ImportJob }
  | { kind: 'preview'; job: DefinitionUpdateJob }
  | { kind: 'apply'; job: DefinitionApplyJob }
  | { kind: 'newMock'; job: ReqOf<'importer.newMock'> };

/** What the thread posts: progress and an import's parts (its requests, as they are made) any number of times, then one outcome. */
export type ThreadMessage = { progress: ImportProgress } | { part: ImportResultPart } | { ok: true; value: unknown } | { ok: false; error: WireError };

export interface ThreadContext {
  signal: AbortSignal;
  chunk(progress: ImportProgress): void;
  /** An import's answer in parts, sent on ahead of it in the order they come. */
  part?(part: ImportResultPart): void;
}

const WORKER_FILE = new URL('./importer-worker.js', import.meta.url);

/** The thread started ahead of its job, if any, and whether it has ended since. */
let ahead: { worker: Worker; ended: boolean } | null = null;

/**
 * Starts the thread the next job will run on, before the job comes: a job child (started ahead of
 * its import by the dialog's auto-detect, or at the job) is then not waiting for a thread to start
 * and the engine to load when the job arrives (about 0.1 s and 60 ms, bench/README.md "HAR import").
 */
export function startThreadAhead(): void {
  if (ahead) return;
  const worker = new Worker(WORKER_FILE, { workerData: null, resourceLimits: { maxOldGenerationSizeMb: heapLimitMb() } });
  const waiting = { worker, ended: false };
  // An error while it waits ends it; the job then gets a thread of its own.
  worker.on('error', () => {});
  worker.once('exit', () => (waiting.ended = true));
  ahead = waiting;
}

/** The thread started ahead, given `job`; else a new one started with it. */
function threadFor(job: ThreadJob, heapMb: number): Worker {
  const waiting = ahead;
  ahead = null;
  if (waiting && !waiting.ended) {
    waiting.worker.postMessage(job);
    return waiting.worker;
  }
  return new Worker(WORKER_FILE, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
}

export function runInThread<R>(job: ThreadJob, ctx: ThreadContext): Promise<R> {
  if (ctx.signal.aborted) return Promise.reject(new ParleyError('cancelled', 'Cancelled.'));
  const heapMb = heapLimitMb();
  const worker = threadFor(job, heapMb);
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    // Cancel stops the thread where it is: a synchronous converter cannot be asked.
    const onAbort = () => settle(() => reject(new ParleyError('cancelled', 'Cancelled.')));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: ThreadMessage) => {
      if ('progress' in message) {
        if (!settled) ctx.chunk(message.progress);
      } else if ('part' in message) {
        if (!settled) ctx.part?.(message.part);
      } else if (message.ok) settle(() => resolve(message.value as R));
      else settle(() => reject(ParleyError.fromWire(message.error)));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') settle(() => reject(importOutOfMemoryError(heapMb)));
      else settle(() => reject(new ParleyError('internal', `${jobName(job)} stopped: ${err.message}`)));
    });
    worker.on('exit', (code) => settle(() => reject(new ParleyError('internal', `${jobName(job)}'s thread ended (exit code ${code}) without an answer.`))));
  });
}

/** What messages call the job. */
function jobName(job: ThreadJob): string {
  return job.kind === 'newMock' ? 'New Mock' : 'The import';
}

/** The heap cap the supervisor gave this process (`--max-old-space-size`), in MB. */
function heapLimitMb(): number {
  const flag = process.execArgv.map((arg) => /^--max-old-space-size=(\d+)$/.exec(arg)).find((m) => m !== null);
  return flag ? Number(flag[1]) : Math.floor(getHeapStatistics().heap_size_limit / (1024 * 1024));
}
