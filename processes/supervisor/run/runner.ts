/**
 * A run through the app's own send path: each request through `prepareSend` (the same
 * expansion, secrets and refusals) and `putOnWire` (the sender process, the jar, the contract
 * verdict, the assertions), with the run's environment, the iteration's data row over the
 * project's properties, and its timeout and TLS choice; not recorded in History or the HTTP Log.
 * The loop itself is engine.ts: `runRequests` answers its stream of events.
 */
import { rm } from 'node:fs/promises';
import type { Row } from '../../../protocol/model/common.js';
import type { Request } from '../../../protocol/model/request.js';
import { asHttp, type AnyRequest } from '../../../protocol/kinds/index.js';
import { kindService } from '../kinds/index.js';
import { chipLabel, chipTone } from '../../../protocol/verdict-label.js';
import type { OrderedRequest } from '../../../protocol/project/tree-order.js';
import { maskUrl } from '../../../protocol/credentials/index.js';
import type { Supervisor } from '../supervisor.js';
import type { ProjectStore } from '../store/project-store.js';
import { prepareSend, putOnWire, type ScopeOverrides } from '../send/send-service.js';
import { CapturedValues } from '../send/captured-values.js';
import type { CaptureSink } from '../send/captures.js';
import { rowLabel, type DataSource } from './data-file.js';
import { runEngine, type InFlight, type RequestTurn } from './engine.js';
import { responseSummary, type RequestOutcome, type RunEvent } from './report.js';

export interface RunPlan {
  requests: OrderedRequest[];
  /** The environment's variables and name; undefined: the workspace's active one when each request is sent; null: none. */
  environment?: { name: string; variables: Row[] } | null;
  /** Undefined with a data file: one iteration per row. */
  iterations?: number;
  data?: DataSource;
  timeoutMs?: number;
  delayMs: number;
  bail: boolean;
  insecure: boolean;
  failOnContract: boolean;
  secret: (name: string) => string | undefined;
  /**
   * Where the run's captures read and set values (docs/captures.md); default (`parley run`): the
   * run's own, in memory, empty at its start. `environment` captures are kept in these values too
   * (a run changes no workspace). The app's runs pass the project's session values.
   */
  captures?: CaptureSink;
}

/** "API/folder/name": how reports name a request. */
export function requestPath(r: OrderedRequest): string {
  return [r.apiName, ...r.folders, r.name].join('/');
}

/** Where a request sits, as an outcome names it: the path, and its parts for reports that must not split names on `/`. */
function placeOf(r: OrderedRequest): Pick<RequestOutcome['request'], 'path' | 'api' | 'folders'> {
  return { path: requestPath(r), api: r.apiName, folders: r.folders };
}

export function runRequests(sup: Supervisor, store: ProjectStore, given: RunPlan, signal: AbortSignal): AsyncGenerator<RunEvent, void, undefined> {
  const plan = { ...given, captures: given.captures ?? { values: new CapturedValues() } };
  return runEngine(
    {
      project: store.name,
      ...(plan.environment ? { environment: plan.environment.name } : {}),
      requests: plan.requests,
      ...(plan.iterations !== undefined ? { iterations: plan.iterations } : {}),
      ...(plan.data ? { data: plan.data } : {}),
      delayMs: plan.delayMs,
      bail: plan.bail,
    },
    (turn) => startRequest({ sup, store, plan, ...turn }),
    signal,
  );
}

type CapturingPlan = RunPlan & { captures: CaptureSink };

/** One request of the run to send: its turn (engine.ts), with the run's plan, project and supervisor. */
interface RunSend extends RequestTurn {
  sup: Supervisor;
  store: ProjectStore;
  plan: CapturingPlan;
}

function startRequest(send: RunSend): InFlight {
  let onWire!: () => void;
  let onCaptured!: () => void;
  const wire = new Promise<void>((resolve) => (onWire = resolve));
  const captured = new Promise<void>((resolve) => (onCaptured = resolve));
  const outcome = sendOne(send, onWire, onCaptured).finally(() => {
    onWire();
    onCaptured();
  });
  return { wire, captured, outcome };
}

/** Sends one request of the run; `onWire` once its response is in, `onCaptured` once its captures are set (or it has none). */
async function sendOne({ sup, store, plan, item, iteration, row, gate, ready, signal }: RunSend, onWire: () => void, onCaptured: () => void): Promise<RequestOutcome> {
  let stored: AnyRequest;
  const base = { iteration, ...(row ? { row: rowLabel(row) } : {}) };
  try {
    stored = store.getRequest(item.id);
  } catch (err) {
    return { ...base, request: { id: item.id, name: item.name, ...placeOf(item), method: '', url: '' }, error: errorOf(err), assertions: [], failed: true };
  }
  // Nothing to capture: the request after this one need not wait for its response to be resolved.
  if (!(stored.kind === undefined || stored.kind === 'http') || !stored.captures?.some((c) => c.enabled)) onCaptured();
  const overrides: ScopeOverrides = {
    ...(plan.environment !== undefined ? { environment: plan.environment?.variables ?? null } : {}),
    ...(row ? { properties: row.properties } : {}),
    secret: plan.secret,
    ...(plan.timeoutMs !== undefined ? { timeoutMs: plan.timeoutMs } : {}),
    insecure: plan.insecure,
    noHistory: true,
    noLog: true,
    captures: plan.captures,
  };
  // A kind that runs its own way (a WebSocket session) does; HTTP runs here.
  const service = kindService(stored);
  if (service.run) return service.run({ sup, store, request: stored, overrides, base, described: { id: stored.id, name: stored.name, ...placeOf(item), method: '', url: '' }, gate, ready, signal, onWire });
  const request: Request = asHttp(stored, 'parley run');
  const described = { id: request.id, name: request.name, ...placeOf(item), method: request.method.toUpperCase(), url: maskUrl(request.url).text };
  try {
    // The values the request before captured are set before this one is resolved.
    await ready;
    const prepared = await prepareSend(sup, sup.sendDeps, store.root, request, overrides);
    await gate;
    if (signal.aborted) return { ...base, request: described, error: { code: 'cancelled', message: 'Not sent: the run was stopped.' }, assertions: [], failed: true };
    const answered = await putOnWire(sup, sup.sendDeps, prepared, prepared.spec, signal);
    // The response is in: the next request may go while this one's checks run.
    onWire();
    await answered.captured();
    onCaptured();
    const exchange = await answered.complete();
    // A body over the inline limit was spooled to a file by the sender; nothing reads it after
    // the checks, and a long run of large responses would fill the disk with them.
    if (exchange.response.body.spooledTo !== undefined) await rm(exchange.response.body.spooledTo, { force: true }).catch(() => undefined);
    const verdict = exchange.verdict && exchange.verdict.kind !== 'none' ? exchange.verdict : undefined;
    const contract = verdict ? { kind: verdict.kind as Exclude<typeof verdict.kind, 'none'>, label: chipLabel(verdict) ?? verdict.kind, problems: verdict.problems.map((p) => ({ pointer: p.pointer, message: p.message })) } : undefined;
    const assertions = exchange.assertions ?? [];
    const captures = exchange.captures;
    const contractFailed = verdict !== undefined && chipTone(verdict) === 'err';
    const { response } = exchange;
    return {
      ...base,
      request: { ...described, url: exchange.request.url },
      response: responseSummary(response),
      assertions,
      ...(captures ? { captures } : {}),
      ...(contract ? { contract } : {}),
      failed: assertions.some((a) => !a.passed) || (captures?.some((c) => !c.ok) ?? false) || (plan.failOnContract && contractFailed),
    };
  } catch (err) {
    return { ...base, request: described, error: errorOf(err), assertions: [], failed: true };
  }
}

function errorOf(err: unknown): { code: string; message: string } {
  const e = err as { code?: unknown; message?: unknown };
  return { code: typeof e.code === 'string' ? e.code : 'internal', message: typeof e.message === 'string' ? e.message : String(err) };
}
