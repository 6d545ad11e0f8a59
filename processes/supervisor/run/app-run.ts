/**
 * One run of the app's runner, as a reporter of `parley run`'s engine beside the JSON and JUnit
 * reporters: it keeps the totals, the newest rows and the ids of the requests that failed, and
 * tells the pages as the run goes. Pages are told in batches, at most one `run.progress` event
 * every EVENT_MS with at most RUN_ROWS_PER_EVENT rows (a fast run's older rows between two
 * events are counted, not sent): however fast or long the run, what goes to a page and what is
 * kept here stay bounded. Every outcome is in the reports, which the reporters write to disk.
 */
import type { EventName, EventOf } from '../../../protocol/messages.js';
import { RUN_ROW_CAPTURES, RUN_ROW_FAILURES, RUN_ROWS_KEPT, RUN_ROWS_PER_EVENT, type RunRow, type RunState, type RunSummary } from '../../../protocol/model/run.js';
import { RunTally, type RequestOutcome, type RunProgress, type RunReporter } from './report.js';

/** How often a running run's new rows go to the pages. */
export const EVENT_MS = 100;

export interface AppRunSetup {
  id: string;
  project: string;
  /** The project's name, as reports name it. */
  projectName: string;
  scope: string;
  /** The requests chosen, in the order they run. */
  requests: string[];
  iterations?: number;
  delayMs: number;
  data?: string;
  environment?: string;
  /** Where its reports are written as it goes (report.json, report.xml). */
  dir: string;
}

type Broadcast = <E extends EventName>(type: E, payload: EventOf<E>) => void;

export class AppRun implements RunReporter {
  readonly controller = new AbortController();
  readonly startedAt = new Date().toISOString();
  running = true;
  summary: RunSummary | undefined;
  /** Why its reports cannot be exported (the run failed before they were written), if so. */
  reportsMissing: string | undefined;
  private readonly tally = new RunTally();
  private progress: RunProgress = { done: 0 };
  private readonly kept: RunRow[] = [];
  private pending: RunRow[] = [];
  private skipped = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly failed = new Set<string>();
  private count = 0;

  constructor(
    readonly setup: AppRunSetup,
    private readonly broadcast: Broadcast,
  ) {}

  get id(): string {
    return this.setup.id;
  }

  outcome(outcome: RequestOutcome, progress: RunProgress): void {
    this.tally.add(outcome);
    this.progress = progress;
    if (outcome.failed) this.failed.add(outcome.request.id);
    const row = rowOf(outcome, ++this.count);
    this.kept.push(row);
    if (this.kept.length > RUN_ROWS_KEPT) this.kept.shift();
    this.pending.push(row);
    if (this.pending.length > RUN_ROWS_PER_EVENT) {
      this.pending.shift();
      this.skipped++;
    }
    this.timer ??= setTimeout(() => this.flush(), EVENT_MS);
  }

  /** The engine's last word: the reporters before this one have finished their files. */
  finished(summary: RunSummary): void {
    this.end(summary);
  }

  /** The run stopped without its totals (a report could not be written, or a bug): said as its summary's error. */
  failedWith(err: unknown): void {
    const e = err as { code?: unknown; message?: unknown };
    const error = { code: typeof e.code === 'string' ? e.code : 'internal', message: typeof e.message === 'string' ? e.message : String(err) };
    this.reportsMissing = `The run failed before its reports were written: ${error.message}`;
    this.end({
      project: this.setup.projectName,
      ...(this.setup.environment !== undefined ? { environment: this.setup.environment } : {}),
      iterations: this.setup.iterations ?? 0,
      requests: this.tally.requests,
      failed: this.tally.failed,
      errors: this.tally.errors,
      assertions: { ...this.tally.assertions },
      ...(this.tally.captures.total > 0 ? { captures: { ...this.tally.captures } } : {}),
      contractFailures: this.tally.contractFailures,
      bailed: false,
      interrupted: this.controller.signal.aborted,
      durationMs: Date.now() - Date.parse(this.startedAt),
      startedAt: this.startedAt,
      error,
    });
  }

  state(): RunState {
    const s = this.setup;
    return {
      run: s.id,
      project: s.project,
      scope: s.scope,
      requests: s.requests,
      ...(s.iterations !== undefined ? { iterations: s.iterations } : {}),
      delayMs: s.delayMs,
      ...(s.data !== undefined ? { data: s.data } : {}),
      ...(s.environment !== undefined ? { environment: s.environment } : {}),
      startedAt: this.startedAt,
      running: this.running,
      progress: { ...this.progress },
      totals: this.totals(),
      rows: [...this.kept],
      ...(this.summary ? { summary: this.summary } : {}),
      failedRequests: this.failedRequests(),
    };
  }

  private end(summary: RunSummary): void {
    if (!this.running) return;
    this.flush();
    this.running = false;
    this.summary = summary;
    this.broadcast('run.finished', { run: this.id, project: this.setup.project, summary, failedRequests: this.failedRequests() });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0 && this.skipped === 0) return;
    const rows = this.pending;
    const skipped = this.skipped;
    this.pending = [];
    this.skipped = 0;
    this.broadcast('run.progress', { run: this.id, project: this.setup.project, rows, skipped, progress: { ...this.progress }, totals: this.totals() });
  }

  private totals() {
    const t = this.tally;
    return { requests: t.requests, failed: t.failed, errors: t.errors, assertions: { ...t.assertions }, ...(t.captures.total > 0 ? { captures: { ...t.captures } } : {}), contractFailures: t.contractFailures };
  }

  private failedRequests(): string[] {
    return this.setup.requests.filter((id) => this.failed.has(id));
  }
}

/** An outcome as the runner's table shows it: its counts, and its first failures (the reports have all). */
export function rowOf(o: RequestOutcome, n: number): RunRow {
  const failures = o.assertions.filter((a) => !a.passed);
  return {
    n,
    iteration: o.iteration,
    ...(o.row !== undefined ? { row: o.row } : {}),
    request: { ...o.request, folders: [...o.request.folders] },
    ...(o.response ? { response: { ...o.response } } : {}),
    ...(o.error ? { error: { ...o.error } } : {}),
    assertions: {
      total: o.assertions.length,
      failed: failures.length,
      failures: failures.slice(0, RUN_ROW_FAILURES).map((a) => ({ label: a.label, message: a.message })),
    },
    ...(o.contract
      ? {
          contract: {
            kind: o.contract.kind,
            label: o.contract.label,
            problems: o.contract.problems.slice(0, RUN_ROW_FAILURES).map((p) => ({ pointer: p.pointer, message: p.message })),
            more: Math.max(0, o.contract.problems.length - RUN_ROW_FAILURES),
          },
        }
      : {}),
    ...(o.captures ? { captures: o.captures.slice(0, RUN_ROW_CAPTURES).map((c) => ({ ...c })) } : {}),
    failed: o.failed,
  };
}
