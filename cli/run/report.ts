/**
 * What a `parley run` produces, as every reporter reads it: one outcome per request sent (or
 * refused) in each iteration, and the totals. Messages and URLs in it are already masked: secret
 * values are replaced by their `${secret:name}` reference and credentials by the mask, the way
 * History records a send.
 */
import type { AssertionResult } from '../../protocol/model/assertion.js';
import type { ContractProblem, VerdictKind } from '../../protocol/model/verdict.js';

export interface RequestOutcome {
  /** 1-based. */
  iteration: number;
  /** The data row of this iteration (`row 2 (user=ann, …)`), with --data. */
  row?: string;
  request: { id: string; name: string; path: string; method: string; url: string };
  /** Absent when nothing came back (refused before the network, or a network error). */
  response?: { status: number; statusText: string; timeMs: number; size: number };
  /** Why the request was not sent or got no response. */
  error?: { code: string; message: string };
  assertions: AssertionResult[];
  /** The contract verdict; absent when no chip applies (no imported definition, not JSON...). */
  contract?: { kind: Exclude<VerdictKind, 'none'>; label: string; problems: Pick<ContractProblem, 'pointer' | 'message'>[] };
  /** Whether the request counts as failed in this run (an error, a failed assertion, or contract problems under --fail-on-contract). */
  failed: boolean;
}

export interface RunSummary {
  project: string;
  environment?: string;
  iterations: number;
  requests: number;
  failed: number;
  /** Requests not sent or with no response. */
  errors: number;
  assertions: { total: number; failed: number };
  /** Requests whose contract verdict was `problems` or `unexpected-status`. */
  contractFailures: number;
  /** --bail stopped the run at the first failure. */
  bailed: boolean;
  /** Ctrl+C or SIGTERM stopped it. */
  interrupted: boolean;
  durationMs: number;
  startedAt: string;
}

export interface RunReport {
  summary: RunSummary;
  outcomes: RequestOutcome[];
}

/** What a reporter is told while the run goes on, then at its end. */
export interface RunListener {
  started?(info: { project: string; total: number; iterations: number }): void;
  outcome?(outcome: RequestOutcome, done: number, total: number): void;
  finished?(report: RunReport): void | Promise<void>;
}
