/** Recorded examples as the UI reaches them: list, save a response as an example (redacted as History recorded it), delete one. */
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';
import { ExampleStore } from '../store/example-store.js';
import { redactionPairs } from '../send/expand.js';

export function exampleHandlers(sup: Supervisor): Handlers {
  const examples = (project: string) => new ExampleStore(sup.project(project));
  return {
    'examples.list': ({ project, requestId }) => examples(project).list(requestId),
    // Redacted as History recorded the same exchange: its secret and carried values, by value.
    'examples.save': ({ project, requestId, exchange, response }) => {
      const { secrets, carried } = sup.redactions.of(exchange);
      return examples(project).save(requestId, response, { replacements: redactionPairs(secrets, carried) });
    },
    'examples.delete': async ({ project, requestId, status }) => ({ examples: await examples(project).delete(requestId, status) }),
  };
}
