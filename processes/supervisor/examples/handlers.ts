/** Recorded examples as the UI reaches them: list, save a response as an example, delete one. */
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';
import { ExampleStore } from '../store/example-store.js';

export function exampleHandlers(sup: Supervisor): Handlers {
  const examples = (project: string) => new ExampleStore(sup.project(project));
  return {
    'examples.list': ({ project, requestId }) => examples(project).list(requestId),
    'examples.save': ({ project, requestId, response }) => examples(project).save(requestId, response),
    'examples.delete': async ({ project, requestId, status }) => ({ examples: await examples(project).delete(requestId, status) }),
  };
}
