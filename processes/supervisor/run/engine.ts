/**
 * The run loop, apart from how a request is sent: each selected request of each iteration in
 * order, as an async stream of events (`RunEvent`) that reporters consume as they go. Nothing is
 * kept but the totals and the requests in flight, so memory stays flat however long the run;
 * the stream is pulled, so a slow reporter slows the run instead of piling outcomes up.
 *
 * Requests reach the server one after another, each only once the one before it has its
 * response. What is done around the wire overlaps, though (when neither --bail nor --delay asks
 * to wait for the whole outcome): request N+1 is expanded and resolved while request N is on the
 * wire, and goes out as soon as N's response is in, while N's contract check, assertions and
 * report run. Captures (docs/captures.md) are the exception: request N+1 reads the values N
 * captures, so it is resolved only once N's captures are set (`ready`); a request without
 * captures holds nothing up.
 */
import type { OrderedRequest } from '../../../protocol/project/tree-order.js';
import { ParleyError } from '../../../protocol/errors.js';
import type { DataRow, DataSource } from './data-file.js';
import { RunTally, type RequestOutcome, type RunEvent, type RunSummary } from './report.js';

export interface EnginePlan {
  project: string;
  environment?: string;
  requests: OrderedRequest[];
  /** Undefined with a data file: one iteration per row. With one, rows are taken in turn. */
  iterations?: number;
  data?: DataSource;
  delayMs: number;
  bail: boolean;
}

/**
 * A request started: `wire` settles (never rejects) once its response is in or it failed;
 * `captured` once its captures have set their variables (absent: it has none); `outcome` never
 * rejects.
 */
export interface InFlight {
  wire: Promise<void>;
  captured?: Promise<void>;
  outcome: Promise<RequestOutcome>;
}

/** One request's turn in the run: which request, in which iteration with which data row, and what it waits for. */
export interface RequestTurn {
  item: OrderedRequest;
  iteration: number;
  row: DataRow | undefined;
  /** Settles once the request may go on the wire: the previous request's response is in, and any --delay is over. */
  gate: Promise<void>;
  /** Settles once the request may be expanded and resolved: the previous request's captures are set. */
  ready: Promise<void>;
  signal: AbortSignal;
}

/** Starts one request of one iteration (`turn`): resolved once `ready` settles, on the wire only after `gate` does. */
export type StartRequest = (turn: RequestTurn) => InFlight;

export async function* runEngine(plan: EnginePlan, start: StartRequest, signal: AbortSignal): AsyncGenerator<RunEvent, void, undefined> {
  const startedAt = Date.now();
  const tally = new RunTally();
  const perIteration = plan.requests.length;
  const total = plan.iterations !== undefined ? perIteration * plan.iterations : undefined;
  const lookAhead = !plan.bail && plan.delayMs === 0;
  let iterations = 0;
  let bailed = false;
  let error: RunSummary['error'];
  yield {
    type: 'started',
    start: {
      project: plan.project,
      ...(plan.environment !== undefined ? { environment: plan.environment } : {}),
      requestsPerIteration: perIteration,
      ...(plan.iterations !== undefined ? { iterations: plan.iterations } : {}),
      ...(plan.data ? { data: plan.data.file } : {}),
      startedAt: new Date(startedAt).toISOString(),
    },
  };

  /** The request on the wire, or whose outcome is still being completed. */
  let previous: InFlight | undefined;
  /** Its outcome as an event; false: the run stops here (a cancelled send, or --bail). */
  const settle = async (inFlight: InFlight): Promise<RunEvent | false> => {
    const outcome = await inFlight.outcome;
    // A send cut short by Ctrl+C is not an outcome of the run.
    if (signal.aborted && outcome.error?.code === 'cancelled') return false;
    tally.add(outcome);
    if (outcome.failed && plan.bail) bailed = true;
    const fraction = total !== undefined ? tally.requests / total : plan.data?.fraction();
    return { type: 'outcome', outcome, progress: { done: tally.requests, ...(total !== undefined ? { total } : {}), ...(fraction !== undefined ? { fraction } : {}) } };
  };

  try {
    run: for await (const { iteration, row } of iterationsOf(plan)) {
      iterations = iteration;
      for (const item of plan.requests) {
        if (signal.aborted) break run;
        let gate = previous?.wire ?? Promise.resolve();
        const ready = previous?.captured ?? Promise.resolve();
        if (previous && !lookAhead) {
          // --bail decides on the whole outcome, --delay waits after it: nothing overlaps.
          const event = await settle(previous);
          previous = undefined;
          if (event === false) break run;
          yield event;
          if (bailed || signal.aborted) break run;
          if (plan.delayMs > 0) gate = delay(plan.delayMs, signal);
        }
        const current = start({ item, iteration, row, gate, ready, signal });
        if (previous) {
          // The previous outcome is completed and reported while this request is on the wire.
          const event = await settle(previous);
          previous = current;
          if (event === false) break run;
          yield event;
        } else previous = current;
      }
    }
  } catch (err) {
    // The data file stopped reading: what ran before it is reported, and the run ends here.
    const e = err as { code?: unknown; message?: unknown };
    error = { code: typeof e.code === 'string' ? e.code : 'internal', message: typeof e.message === 'string' ? e.message : String(err) };
  }
  if (previous) {
    const event = await settle(previous);
    if (event !== false) yield event;
  }
  yield {
    type: 'finished',
    summary: {
      project: plan.project,
      ...(plan.environment !== undefined ? { environment: plan.environment } : {}),
      iterations: plan.iterations ?? iterations,
      requests: tally.requests,
      failed: tally.failed,
      errors: tally.errors,
      assertions: tally.assertions,
      ...(tally.captures.total > 0 ? { captures: tally.captures } : {}),
      contractFailures: tally.contractFailures,
      bailed,
      interrupted: signal.aborted,
      durationMs: Date.now() - startedAt,
      startedAt: new Date(startedAt).toISOString(),
      ...(error ? { error } : {}),
    },
  };
}

/** Each iteration with its data row: the given count, or one per row; rows are taken in turn (the file read again from its start) when the count is larger. */
async function* iterationsOf(plan: EnginePlan): AsyncGenerator<{ iteration: number; row?: DataRow }> {
  const { data, iterations } = plan;
  if (!data) {
    for (let iteration = 1; iteration <= (iterations ?? 1); iteration++) yield { iteration };
    return;
  }
  let iteration = 0;
  for (let pass = 1; ; pass++) {
    if (pass > 1 && !data.rereadable) {
      throw new ParleyError('bad-input', `${data.label} is not a regular file and cannot be read again for iteration ${iteration + 1}: give --iterations at most its number of rows (${iteration}), or a regular file.`);
    }
    let rows = 0;
    for await (const row of data.rows()) {
      rows++;
      iteration++;
      yield { iteration, row };
      if (iterations !== undefined && iteration >= iterations) return;
    }
    if (rows === 0) throw new ParleyError('bad-input', `${data.label} has no rows.`);
    if (iterations === undefined) return;
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
