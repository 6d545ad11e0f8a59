/**
 * The run itself: each selected request of each iteration, one after another, through the app's
 * own send path (`prepareSend`: the same expansion, secrets and refusals; `dispatchSend`: the
 * sender process, the jar, the contract verdict, the assertions), with the run's environment,
 * the iteration's data row over the project's properties, and its timeout and TLS choice.
 */
import type { Row } from '../../protocol/model/common.js';
import type { Request } from '../../protocol/model/request.js';
import { chipLabel, chipTone } from '../../protocol/verdict-label.js';
import type { OrderedRequest } from '../../protocol/project/tree-order.js';
import type { Supervisor } from '../../processes/supervisor/supervisor.js';
import type { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { dispatchSend, prepareSend, type ScopeOverrides } from '../../processes/supervisor/send/send-service.js';
import { maskUrl } from '../../protocol/credentials/index.js';
import { rowLabel, type DataRow } from './data-file.js';
import { requestPath } from './select.js';
import type { RequestOutcome, RunListener, RunReport } from './report.js';

export interface RunPlan {
  requests: OrderedRequest[];
  /** The environment's variables and name; undefined: the workspace's active one. */
  environment?: { name: string; variables: Row[] };
  iterations: number;
  data?: DataRow[];
  timeoutMs?: number;
  delayMs: number;
  bail: boolean;
  insecure: boolean;
  failOnContract: boolean;
  secret: (name: string) => string | undefined;
}

export async function runRequests(sup: Supervisor, store: ProjectStore, plan: RunPlan, listener: RunListener, signal: AbortSignal): Promise<RunReport> {
  const started = Date.now();
  const outcomes: RequestOutcome[] = [];
  const total = plan.requests.length * plan.iterations;
  let bailed = false;
  listener.started?.({ project: store.name, total, iterations: plan.iterations });
  run: for (let iteration = 1; iteration <= plan.iterations; iteration++) {
    const row = plan.data && plan.data.length > 0 ? plan.data[(iteration - 1) % plan.data.length] : undefined;
    for (const item of plan.requests) {
      if (signal.aborted) break run;
      if (outcomes.length > 0 && plan.delayMs > 0) await delay(plan.delayMs, signal);
      if (signal.aborted) break run;
      const outcome = await runOne(sup, store, item, plan, iteration, row, signal);
      if (signal.aborted && outcome.error?.code === 'cancelled') break run;
      outcomes.push(outcome);
      listener.outcome?.(outcome, outcomes.length, total);
      if (outcome.failed && plan.bail) {
        bailed = true;
        break run;
      }
    }
  }
  const report: RunReport = {
    summary: {
      project: store.name,
      ...(plan.environment ? { environment: plan.environment.name } : {}),
      iterations: plan.iterations,
      requests: outcomes.length,
      failed: outcomes.filter((o) => o.failed).length,
      errors: outcomes.filter((o) => o.error).length,
      assertions: { total: outcomes.reduce((n, o) => n + o.assertions.length, 0), failed: outcomes.reduce((n, o) => n + o.assertions.filter((a) => !a.passed).length, 0) },
      contractFailures: outcomes.filter((o) => o.contract && (o.contract.kind === 'problems' || o.contract.kind === 'unexpected-status')).length,
      bailed,
      interrupted: signal.aborted,
      durationMs: Date.now() - started,
      startedAt: new Date(started).toISOString(),
    },
    outcomes,
  };
  await listener.finished?.(report);
  return report;
}

async function runOne(sup: Supervisor, store: ProjectStore, item: OrderedRequest, plan: RunPlan, iteration: number, row: DataRow | undefined, signal: AbortSignal): Promise<RequestOutcome> {
  let request: Request;
  const base = { iteration, ...(row ? { row: rowLabel(row) } : {}) };
  try {
    request = store.getRequest(item.id);
  } catch (err) {
    return { ...base, request: { id: item.id, name: item.name, path: requestPath(item), method: '', url: '' }, error: errorOf(err), assertions: [], failed: true };
  }
  const described = { id: request.id, name: request.name, path: requestPath(item), method: request.method.toUpperCase(), url: maskUrl(request.url).text };
  const overrides: ScopeOverrides = {
    ...(plan.environment ? { environment: plan.environment.variables } : {}),
    ...(row ? { properties: row.properties } : {}),
    secret: plan.secret,
    ...(plan.timeoutMs !== undefined ? { timeoutMs: plan.timeoutMs } : {}),
    insecure: plan.insecure,
    noHistory: true,
  };
  try {
    const prepared = await prepareSend(sup, sup.sendDeps, store.root, request, overrides);
    const exchange = await dispatchSend(sup, sup.sendDeps, prepared, prepared.spec, signal);
    const verdict = exchange.verdict && exchange.verdict.kind !== 'none' ? exchange.verdict : undefined;
    const contract = verdict ? { kind: verdict.kind as Exclude<typeof verdict.kind, 'none'>, label: chipLabel(verdict) ?? verdict.kind, problems: verdict.problems.map((p) => ({ pointer: p.pointer, message: p.message })) } : undefined;
    const assertions = exchange.assertions ?? [];
    const contractFailed = verdict !== undefined && chipTone(verdict) === 'err';
    const { response } = exchange;
    return {
      ...base,
      request: { ...described, url: exchange.request.url },
      response: { status: response.status, statusText: response.statusText, timeMs: Math.round(response.timing.total * 10) / 10, size: response.body.size },
      assertions,
      ...(contract ? { contract } : {}),
      failed: assertions.some((a) => !a.passed) || (plan.failOnContract && contractFailed),
    };
  } catch (err) {
    return { ...base, request: described, error: errorOf(err), assertions: [], failed: true };
  }
}

function errorOf(err: unknown): { code: string; message: string } {
  const e = err as { code?: unknown; message?: unknown };
  return { code: typeof e.code === 'string' ? e.code : 'internal', message: typeof e.message === 'string' ? e.message : String(err) };
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
