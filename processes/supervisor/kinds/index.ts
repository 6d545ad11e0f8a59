/**
 * The request kinds in the supervisor, in protocol/kinds/' order: how a request of each kind is
 * sent (`request.send`), each kind's own module doing the work.
 */
import type { Exchange } from '../../../protocol/model/history.js';
import type { SendProgress } from '../../../protocol/model/exchange.js';
import { kindOf, type AnyRequest } from '../../../protocol/kinds/index.js';
import type { Supervisor } from '../supervisor.js';
import type { SendDeps } from '../send/send-service.js';
import { httpService } from './http.js';
import { websocketService } from './websocket/index.js';
import { grpcService } from './grpc/index.js';
import type { KindService } from './kind.js';

const SERVICES: readonly KindService[] = [httpService, websocketService, grpcService];
const byId = new Map(SERVICES.map((service) => [service.id, service]));

/** The supervisor's part of `request`'s kind. */
export function kindService(request: AnyRequest): KindService {
  return byId.get(kindOf(request).id)!;
}

/** Sends `request` by its kind: an HTTP exchange, a WebSocket session; the answer is its Exchange. */
export function sendByKind(
  sup: Supervisor,
  deps: SendDeps,
  projectRoot: string,
  request: AnyRequest,
  signal?: AbortSignal,
  onProgress?: (progress: SendProgress) => void,
  backlog?: () => number,
): Promise<Exchange> {
  return byId.get(kindOf(request).id)!.send(sup, deps, projectRoot, request, signal, onProgress, backlog);
}
