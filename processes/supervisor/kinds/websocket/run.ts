/**
 * `parley run` of a WebSocket request (docs/websocket.md, docs/run.md): the session is opened as
 * Connect opens it, the request's saved messages are sent in order, then the run waits for the
 * stated count of messages received (`run.messages`) or the stated time (`run.waitMs`), whichever
 * comes first, disconnects, and checks the request's assertions: the status (101) and the time,
 * and JSONPath over the messages received as one JSON array of { n, direction, binary, data,
 * json, time } (the Query tab's document of a session, received messages only).
 */
import { ParleyError } from '../../../../protocol/errors.js';
import type { SendProgress } from '../../../../protocol/model/exchange.js';
import { maskUrl } from '../../../../protocol/credentials/index.js';
import { eventsDocument } from '../../../checker/engine/run-query.js';
import { checkAssertions } from '../../send/assertions.js';
import { putOnWire } from '../../send/send-service.js';
import { responseSummary, type RequestOutcome } from '../../run/report.js';
import type { KindRunContext } from '../kind.js';
import { asWebSocket, prepareSocket } from './index.js';

export async function runSocketRequest(ctx: KindRunContext): Promise<RequestOutcome> {
  const { sup, store, overrides, base, gate, ready, signal, onWire } = ctx;
  const request = asWebSocket(ctx.request);
  const described = { ...ctx.described, method: 'WS', url: maskUrl(request.url).text };
  try {
    // The values the request before captured are set before this one is resolved.
    await ready;
    const prepared = await prepareSocket(sup, sup.sendDeps, store.root, request, overrides);
    await gate;
    if (signal.aborted) return { ...base, request: described, error: { code: 'cancelled', message: 'Not sent: the run was stopped.' }, assertions: [], failed: true };
    let session: string | undefined;
    let events = 0;
    let changed = () => {};
    const onProgress = (progress: SendProgress) => {
      if (progress.kind === 'head') session = progress.stream;
      else events = progress.batch.events;
      changed();
    };
    const wire = putOnWire(sup, sup.sendDeps, prepared, prepared.spec, signal, onProgress);
    let closed = false;
    const done = wire.then(
      () => void (closed = true),
      () => void (closed = true),
    );
    const until = (holds: () => boolean, ms?: number) =>
      new Promise<void>((resolve) => {
        const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
        changed = () => {
          if (holds() || closed) {
            clearTimeout(timer);
            resolve();
          }
        };
        void done.then(changed);
        changed();
      });
    await until(() => session !== undefined);
    let failure: ParleyError | undefined;
    let sent = 0;
    if (session !== undefined && !closed) {
      try {
        for (const message of request.messages) {
          await sup.streams.sendMessage(session, message);
          sent++;
        }
        // Received = every message counted so far less those this run sent.
        const wanted = request.run.messages;
        await until(() => wanted > 0 && events - sent >= wanted, request.run.waitMs);
      } catch (err) {
        failure = err instanceof ParleyError ? err : new ParleyError('internal', (err as Error).message);
      }
      sup.streams.stop(session);
    }
    const answered = await wire;
    onWire();
    const exchange = await answered.complete();
    const { response } = exchange;
    const outcome = {
      ...base,
      request: { ...described, url: exchange.request.url },
      response: responseSummary(response),
    };
    if (failure) return { ...outcome, error: { code: failure.code, message: failure.message }, assertions: [], failed: true };
    const received = (eventsDocument(response.stream?.rows ?? []) as { direction?: string }[]).filter((m) => m.direction === 'received');
    const asserted = { ...response, body: { bytes: new TextEncoder().encode(JSON.stringify(received)), size: 0, wireSize: 0 } };
    const { stream: _rows, streamHistory: _history, ...withoutStream } = asserted;
    const assertions = prepared.assertions ? await checkAssertions(sup.checker, prepared.assertions, withoutStream, prepared.secrets, [], signal) : [];
    return { ...outcome, assertions, failed: assertions.some((a) => !a.passed) };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    return { ...base, request: described, error: { code: typeof e.code === 'string' ? e.code : 'internal', message: typeof e.message === 'string' ? e.message : String(err) }, assertions: [], failed: true };
  }
}
