/**
 * `parley run` of a gRPC request (docs/grpc.md, docs/run.md). A unary call is sent and its
 * assertions checked as an HTTP request's are: `status` is the gRPC status (by name, `status
 * equals OK`, or number), JSONPath reads the response message as JSON, and the report names the
 * status (`0 OK`, `4 DEADLINE_EXCEEDED`). A streaming call sends its saved messages, half-closes,
 * and collects what the server sends until the call ends; since a server stream may never end,
 * a run refuses one without a deadline (the request's, or `--timeout`). Its JSONPath reads the
 * messages received as one JSON array.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import { eventsDocument } from '../../../checker/engine/run-query.js';
import { checkAssertions } from '../../send/assertions.js';
import { putOnWire } from '../../send/send-service.js';
import { responseSummary, type RequestOutcome } from '../../run/report.js';
import type { KindRunContext } from '../kind.js';
import { asGrpc, prepareGrpc } from './index.js';

export async function runGrpcRequest(ctx: KindRunContext): Promise<RequestOutcome> {
  const { sup, store, overrides, base, gate, ready, signal, onWire } = ctx;
  const request = asGrpc(ctx.request);
  const described = { ...ctx.described, method: 'gRPC', url: `${request.service}/${request.method}` };
  try {
    await ready;
    const prepared = await prepareGrpc(sup, sup.sendDeps, store.root, request, overrides, false);
    const streaming = prepared.call.kind !== 'unary';
    if (streaming && prepared.spec.grpc!.deadlineMs === 0) {
      throw new ParleyError('bad-input', `Not run: a ${prepared.call.kind} call may never end, so a run needs a deadline for it. Set the request's Deadline, or give parley run --timeout.`);
    }
    await gate;
    if (signal.aborted) return { ...base, request: described, error: { code: 'cancelled', message: 'Not sent: the run was stopped.' }, assertions: [], failed: true };
    const { assertions: _later, ...wire } = prepared;
    const answered = await putOnWire(sup, sup.sendDeps, streaming ? wire : prepared, prepared.spec, signal);
    onWire();
    const exchange = await answered.complete();
    const { response } = exchange;
    const outcome = {
      ...base,
      request: { ...described, url: exchange.request.url },
      response: responseSummary(response),
    };
    let assertions = exchange.assertions ?? [];
    if (streaming && prepared.assertions) {
      const received = (eventsDocument(response.stream?.rows ?? []) as { direction?: string }[]).filter((m) => m.direction === 'received');
      const { stream: _rows, streamHistory: _history, ...withoutStream } = response;
      const asserted = { ...withoutStream, body: { bytes: new TextEncoder().encode(JSON.stringify(received)), size: 0, wireSize: 0 } };
      assertions = await checkAssertions(sup.checker, prepared.assertions, asserted, prepared.secrets, [], signal);
    }
    return { ...outcome, assertions, failed: assertions.some((a) => !a.passed) };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    return { ...base, request: described, error: { code: typeof e.code === 'string' ? e.code : 'internal', message: typeof e.message === 'string' ? e.message : String(err) }, assertions: [], failed: true };
  }
}
