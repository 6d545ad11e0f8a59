/**
 * gRPC in the supervisor (docs/grpc.md): a call resolved with the send's scope against its API's
 * definition, made by the sender, recorded as an exchange (unary) or a session of rows (streams),
 * as WebSocket's are; a client or bidirectional stream takes the composer's messages and
 * half-close while it runs.
 */
import type { GrpcRequest } from '../../../../protocol/model/grpc.js';
import type { AnyRequest } from '../../../../protocol/kinds/index.js';
import { ParleyError } from '../../../../protocol/errors.js';
import { grpcStatusCode } from '../../../../protocol/grpc/status.js';
import type { Supervisor } from '../../supervisor.js';
import { dispatchSend, sendScope, type PreparedSend, type ScopeOverrides, type SendDeps, type WireSend } from '../../send/send-service.js';
import { prepareAssertions, type PreparedAssertions } from '../../send/assertions.js';
import type { KindService } from '../kind.js';
import { loadApiDefinition } from './definitions.js';
import { composedMessage, resolveGrpc, type ResolvedCall } from './resolve.js';
import { runGrpcRequest } from './run.js';

export function asGrpc(request: AnyRequest): GrpcRequest {
  if (request.kind !== 'grpc') throw new ParleyError('internal', 'A gRPC send was given another kind of request.');
  return request;
}

export type PreparedCall = WireSend & { spec: PreparedSend['spec']; call: ResolvedCall };

/**
 * A gRPC request resolved with the send's scope. `open`: a client or bidirectional stream stays
 * open for the composer after its saved messages (the app); else it half-closes once they are sent (a run).
 */
export async function prepareGrpc(sup: Supervisor, deps: SendDeps, projectRoot: string, request: GrpcRequest, overrides: ScopeOverrides = {}, open = true): Promise<PreparedCall> {
  const { store, api, inherited, scopeRows, secrets, expander, resolve } = await sendScope(sup, deps, projectRoot, request, overrides);
  const definition = await loadApiDefinition(api, store.apiDir(api.id));
  const call = await resolveGrpc(request, api, resolve, inherited, definition, {
    open,
    ...(overrides.insecure ? { insecure: true } : {}),
    ...(overrides.timeoutMs !== undefined ? { deadlineMs: overrides.timeoutMs } : {}),
  });
  const assertions = statusByName(prepareAssertions(request.assertions, { ...scopeRows, secrets }));
  const masks = expander.secretValues;
  if (assertions) for (const [name, value] of secrets) if (!masks.has(name)) masks.set(name, value);
  const streams = call.kind === 'client-stream' || call.kind === 'bidi';
  return {
    store,
    request,
    spec: call.spec,
    call,
    secrets: masks,
    ...(assertions ? { assertions } : {}),
    ...(overrides.noHistory ? { history: false } : {}),
    ...(overrides.noLog ? { log: false } : {}),
    ...(streams && open
      ? {
          socketMessage: async (message) => {
            if (message.format === 'binary') throw new ParleyError('bad-input', 'Not sent: a gRPC message is JSON.');
            return composedMessage(message.text, call.input, { ...scopeRows, secrets }, resolve, masks);
          },
          halfClosable: true,
        }
      : {}),
  };
}

/** A status assertion may name the code (`status equals OK`): the name is read as its number, the label kept as written. */
function statusByName(prepared: PreparedAssertions | undefined): PreparedAssertions | undefined {
  if (!prepared) return undefined;
  return {
    items: prepared.items.map((item) => {
      if (item.expanded.source !== 'status' || item.expanded.op === 'matches') return item;
      const code = grpcStatusCode(item.expanded.value);
      return code === undefined ? item : { ...item, expanded: { ...item.expanded, value: String(code) } };
    }),
  };
}

export const grpcService: KindService = {
  id: 'grpc',
  run: (ctx) => runGrpcRequest(ctx),
  send: async (sup, deps, projectRoot, request, signal, onProgress, backlog) => {
    const prepared = await prepareGrpc(sup, deps, projectRoot, asGrpc(request));
    return dispatchSend(sup, deps, prepared, prepared.spec, signal, onProgress, backlog);
  },
};
