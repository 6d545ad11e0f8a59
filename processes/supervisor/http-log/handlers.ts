/**
 * The HTTP Log as the UI reaches it: list and read exchanges, export chosen rows as HAR, copy
 * one as a curl command, re-send one (a streamed row is refused), clear; and Stop of a stream.
 */
import type { Handlers } from '../../../protocol/peer.js';
import { appVersion } from '../paths.js';
import type { Supervisor } from '../supervisor.js';
import { entryToCurl } from '../curl/copy.js';
import { dispatchSend } from '../send/send-service.js';
import { harPieces } from './har.js';

export function httpLogHandlers(sup: Supervisor): Handlers {
  return {
    'request.stopStream': ({ stream }) => ({ stopped: sup.streams.stop(stream) }),
    'request.socketSend': async ({ stream, message }) => {
      await sup.streams.sendMessage(stream, message);
      return { sent: true };
    },
    'request.halfClose': async ({ stream }) => {
      await sup.streams.halfClose(stream);
      return { halfClosed: true };
    },
    'request.streamRead': ({ stream, n }) => ({ open: sup.streams.read(stream, n) }),
    'httpLog.list': () => sup.httpLog.list(),
    'httpLog.get': ({ id }) => sup.httpLog.get(id),
    'httpLog.har': async ({ ids }, ctx) => {
      const entries = sup.httpLog.pick(ids);
      for (const text of harPieces(entries, { name: 'Parley', version: appVersion() })) {
        if (ctx.signal.aborted) break;
        ctx.chunk({ text });
        // Each piece is a megabyte on the wire: the loop serves others between them.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { entries: entries.length };
    },
    'httpLog.curl': ({ id }) => ({ command: entryToCurl(sup.httpLog.asHistoryEntry(id), null) }),
    'httpLog.resend': async ({ id }, { signal }) => {
      const { project, send } = sup.httpLog.resendSource(id);
      return dispatchSend(sup, sup.sendDeps, { store: sup.project(project), request: send.request, secrets: send.secrets, ...(send.capturedCredentials ? { capturedCredentials: send.capturedCredentials } : {}) }, send.spec, signal);
    },
    'httpLog.clear': () => {
      sup.httpLog.clear();
      return {};
    },
  };
}
