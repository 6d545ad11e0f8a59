/** The supervisor's part of a request kind (ARCHITECTURE.md, "Request kinds"). */
import type { Exchange } from '../../../protocol/model/history.js';
import type { SendProgress } from '../../../protocol/model/exchange.js';
import type { AnyRequest } from '../../../protocol/kinds/index.js';
import type { Supervisor } from '../supervisor.js';
import type { ScopeOverrides, SendDeps } from '../send/send-service.js';
import type { ProjectStore } from '../store/project-store.js';
import type { RequestOutcome } from '../run/report.js';

/** What `parley run` gives a kind to run one of its requests (runner.ts). */
export interface KindRunContext {
  sup: Supervisor;
  store: ProjectStore;
  request: AnyRequest;
  overrides: ScopeOverrides;
  /** The outcome's iteration and row, and the request as the report names it. */
  base: Pick<RequestOutcome, 'iteration' | 'row'>;
  described: RequestOutcome['request'];
  /** Resolves when the run lets this request go on the wire. */
  gate: Promise<void>;
  /** Resolves once the values the request before captured are set (before this one is resolved). */
  ready: Promise<void>;
  signal: AbortSignal;
  /** Call once the request is off the wire: the next may go while this one's checks run. */
  onWire: () => void;
}

export interface KindService {
  id: string;
  /** How `parley run` runs a request of this kind; absent: as HTTP (runner.ts). */
  run?(ctx: KindRunContext): Promise<RequestOutcome>;
  /** Resolves the request with the send's scope, puts it on the wire through the sender, records it; `onProgress` gets a stream's head and rows. */
  send(sup: Supervisor, deps: SendDeps, projectRoot: string, request: AnyRequest, signal?: AbortSignal, onProgress?: (progress: SendProgress) => void, backlog?: () => number): Promise<Exchange>;
}
