/** WebSocket in the supervisor (docs/websocket.md): a session resolved, opened by the sender, recorded as a stream; its messages sent as it runs. */
import type { WebSocketRequest } from '../../../../protocol/model/websocket.js';
import type { AnyRequest } from '../../../../protocol/kinds/index.js';
import { ParleyError } from '../../../../protocol/errors.js';
import type { Supervisor } from '../../supervisor.js';
import { dispatchSend, sendScope, withOverrides, type PreparedSend, type ScopeOverrides, type SendDeps, type WireSend } from '../../send/send-service.js';
import { prepareAssertions } from '../../send/assertions.js';
import type { KindService } from '../kind.js';
import { resolveSocket, socketMessage } from './resolve.js';
import { runSocketRequest } from './run.js';

export function asWebSocket(request: AnyRequest): WebSocketRequest {
  if (request.kind !== 'websocket') throw new ParleyError('internal', 'A WebSocket send was given another kind of request.');
  return request;
}

/** A WebSocket request resolved with the send's scope, its messages expanded with that scope as they go. */
export async function prepareSocket(sup: Supervisor, deps: SendDeps, projectRoot: string, request: WebSocketRequest, overrides: ScopeOverrides = {}): Promise<WireSend & { spec: PreparedSend['spec'] }> {
  const { store, api, inherited, scopeRows, secrets, expander, resolve } = await sendScope(sup, deps, projectRoot, request, overrides);
  const spec = withOverrides(await resolveSocket(request, api, resolve, inherited), request.settings.sendCookies, overrides);
  const assertions = prepareAssertions(request.assertions, { ...scopeRows, secrets });
  const masks = expander.secretValues;
  if (assertions) for (const [name, value] of secrets) if (!masks.has(name)) masks.set(name, value);
  return {
    store,
    request,
    spec,
    secrets: masks,
    ...(assertions ? { assertions } : {}),
    ...(overrides.noHistory ? { history: false } : {}),
    ...(overrides.noLog ? { log: false } : {}),
    socketMessage: (message) => socketMessage(message, { ...scopeRows, secrets }, resolve, masks),
  };
}

export const websocketService: KindService = {
  id: 'websocket',
  run: (ctx) => runSocketRequest(ctx),
  send: async (sup, deps, projectRoot, request, signal, onProgress, backlog) => {
    const prepared = await prepareSocket(sup, deps, projectRoot, asWebSocket(request));
    return dispatchSend(sup, deps, prepared, prepared.spec, signal, onProgress, backlog);
  },
};
