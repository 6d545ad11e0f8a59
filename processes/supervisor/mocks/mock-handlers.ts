/** The `mocks.*` calls the UI (and the CLI) make: thin, each one a MockService operation. */
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';

export function mockHandlers(sup: Supervisor): Partial<Handlers> {
  return {
    'mocks.create': ({ project, api, name }) => sup.mocks.create(project, api, name),
    'mocks.get': ({ project, id }) => sup.mocks.get(project, id),
    'mocks.save': ({ project, mock }) => sup.mocks.save(project, mock),
    'mocks.start': ({ project, id }) => sup.mocks.start(project, id),
    'mocks.stop': ({ project, id }) => sup.mocks.stop(project, id),
    'mocks.reset': async ({ project, id }) => {
      await sup.mocks.reset(project, id);
      return {};
    },
    'mocks.log': ({ project, id, before }) => sup.mocks.log(project, id, before),
    'mocks.diagnose': (request) => sup.mocks.diagnose(request),
  };
}
