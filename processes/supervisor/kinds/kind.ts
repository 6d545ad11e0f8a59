/** The supervisor's part of a request kind (ARCHITECTURE.md, "Request kinds"). */
import type { Exchange } from '../../../protocol/model/history.js';
import type { SendProgress } from '../../../protocol/model/exchange.js';
import type { AnyRequest } from '../../../protocol/kinds/index.js';
import type { Supervisor } from '../supervisor.js';
import type { SendDeps } from '../send/send-service.js';

export interface KindService {
  id: string;
  /** Resolves the request with the send's scope, puts it on the wire through the sender, records it; `onProgress` gets a stream's head and rows. */
  send(sup: Supervisor, deps: SendDeps, projectRoot: string, request: AnyRequest, signal?: AbortSignal, onProgress?: (progress: SendProgress) => void, backlog?: () => number): Promise<Exchange>;
}
