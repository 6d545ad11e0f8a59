/** History as the UI and the CLI reach it: list and search, one entry, re-send, clear. */
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';
import { resendEntry } from './resend.js';

export function historyHandlers(sup: Supervisor): Handlers {
  return {
    'history.list': ({ project, ...query }) => sup.history.list(sup.project(project).root, query),
    'history.get': ({ project, id }) => sup.history.get(sup.project(project).root, id),
    'history.resend': ({ project, id, request }, { signal, chunk, backlog }) => resendEntry(sup, sup.sendDeps, project, id, request, signal, chunk, backlog),
    'history.clear': async ({ project, requestId }) => {
      await sup.history.clear(sup.project(project).root, requestId);
      return {};
    },
  };
}
