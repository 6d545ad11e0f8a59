/**
 * What a run produces, as every reporter reads it: one outcome per request sent (or refused) in
 * each iteration, as it finishes, and the totals at the end. Messages and URLs in it are already
 * masked: secret values are replaced by their `${secret:name}` reference and credentials by the
 * mask, the way History records a send. Nothing here holds the outcomes: a run of a million
 * requests streams through its reporters (`RunEvent`), and only the totals are kept.
 */
import type { AssertionResult } from '../../../protocol/model/assertion.js';
import type { CaptureResult } from '../../../protocol/model/capture.js';
import type { ContractProblem, VerdictKind } from '../../../protocol/model/verdict.js';

/** What a run's row keeps of a response: its status, its time to a tenth of a millisecond, its size. */
export function responseSummary(response: { status: number; statusText: string; timing: { total: number }; body: { size: number } }): NonNullable<RequestOutcome['response']> {
  return { status: response.status, statusText: response.statusText, timeMs: Math.round(response.timing.total * 10) / 10, size: response.body.size };
}

export interface RequestOutcome {
  /** 1-based. */
  iteration: number;
  /** The data row of this iteration (`row 2 (user=ann, …)`), with --data. */
  row?: string;
  /** `path` is `API/folder/name` as the console shows it; `api` and `folders` are its parts (a name may hold `/`). */
  request: { id: string; name: string; path: string; api: string; folders: string[]; method: string; url: string };
  /** Absent when nothing came back (refused before the network, or a network error). */
  response?: { status: number; statusText: string; timeMs: number; size: number };
  /** Why the request was not sent or got no response. */
  error?: { code: string; message: string };
  assertions: AssertionResult[];
  /** What the request's captures set (credential values masked), or why not; absent when it has none or was not answered. */
  captures?: CaptureResult[];
  /** The contract verdict; absent when no chip applies (no imported definition, not JSON...). */
  contract?: { kind: Exclude<VerdictKind, 'none'>; label: string; problems: Pick<ContractProblem, 'pointer' | 'message'>[] };
  /** Whether the request counts as failed in this run (an error, a failed assertion or capture, or contract problems under --fail-on-contract). */
  failed: boolean;
}

export interface RunSummary {
  project: string;
  environment?: string;
  /** The iterations asked for; with a data file and no count, the rows read (all of them unless the run stopped early). */
  iterations: number;
  requests: number;
  failed: number;
  /** Requests not sent or with no response. */
  errors: number;
  assertions: { total: number; failed: number };
  /** Captures run and those that set nothing; absent when no request had any. */
  captures?: { total: number; failed: number };
  /** Requests whose contract verdict was `problems` or `unexpected-status`. */
  contractFailures: number;
  /** --bail stopped the run at the first failure. */
  bailed: boolean;
  /** Ctrl+C or SIGTERM stopped it. */
  interrupted: boolean;
  durationMs: number;
  startedAt: string;
  /** What stopped the run before its end: a data row that could not be read (the rows before it ran). */
  error?: { code: string; message: string };
}

/** The JSON report's shape (`--reporter json`): the summary, then every outcome in order. */
export interface RunReport {
  summary: RunSummary;
  outcomes: RequestOutcome[];
}

/** What is known when a run starts. */
export interface RunStart {
  project: string;
  environment?: string;
  requestsPerIteration: number;
  /** Undefined when a data file gives one iteration per row: the count is known at its end. */
  iterations?: number;
  /** The data file, when there is one. */
  data?: string;
  startedAt: string;
}

/** How far a run is, after an outcome. */
export interface RunProgress {
  /** Outcomes so far, this one included. */
  done: number;
  /** The requests the run will make, when known (not with one iteration per data row). */
  total?: number;
  /** 0..1 of the way through: done / total, or how far the data file has been read. */
  fraction?: number;
}

/** A run as it goes: its start, each outcome in order, then its totals. */
export type RunEvent =
  | { type: 'started'; start: RunStart }
  | { type: 'outcome'; outcome: RequestOutcome; progress: RunProgress }
  | { type: 'finished'; summary: RunSummary };

/**
 * A reporter, told of each event as the run goes. A returned promise holds the run until it
 * settles (a file reporter's writes): a slow reporter slows the run rather than piling up.
 */
export interface RunReporter {
  started?(start: RunStart): void | Promise<void>;
  outcome?(outcome: RequestOutcome, progress: RunProgress): void | Promise<void>;
  finished?(summary: RunSummary): void | Promise<void>;
  /** The run ended without `finished` (an exception): let go of what it holds (temp files). */
  abandon?(): Promise<void>;
}

/** Feeds a run's events to its reporters, in order, and answers its totals. */
export async function report(events: AsyncIterable<RunEvent>, reporters: RunReporter[]): Promise<RunSummary> {
  let finished = false;
  try {
    for await (const event of events) {
      for (const r of reporters) {
        if (event.type === 'started') await r.started?.(event.start);
        else if (event.type === 'outcome') await r.outcome?.(event.outcome, event.progress);
        else await r.finished?.(event.summary);
      }
      if (event.type === 'finished') {
        finished = true;
        return event.summary;
      }
    }
    throw new Error('the run ended without its totals');
  } finally {
    if (!finished) await Promise.all(reporters.map((r) => r.abandon?.().catch(() => undefined)));
  }
}

/** Running totals of a run's outcomes: what the summary counts, without keeping the outcomes. */
export class RunTally {
  requests = 0;
  failed = 0;
  errors = 0;
  assertions = { total: 0, failed: 0 };
  captures = { total: 0, failed: 0 };
  contractFailures = 0;

  add(o: RequestOutcome): void {
    this.requests++;
    if (o.failed) this.failed++;
    if (o.error) this.errors++;
    this.assertions.total += o.assertions.length;
    for (const a of o.assertions) if (!a.passed) this.assertions.failed++;
    for (const c of o.captures ?? []) {
      this.captures.total++;
      if (!c.ok) this.captures.failed++;
    }
    if (o.contract && (o.contract.kind === 'problems' || o.contract.kind === 'unexpected-status')) this.contractFailures++;
  }
}
