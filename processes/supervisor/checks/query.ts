/**
 * The Query tab (SPEC "Request sending rules" 3): the UI sends the JSON body or the stream's kept
 * rows with the expression, and the checker runs it on its query thread, on a budget, so a
 * runaway expression never holds the supervisor's loop or the page's.
 */
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';

export function queryHandlers(sup: Supervisor): Handlers {
  return {
    'query.run': (job, { signal }) => sup.checker.call('checker.query', job, { signal }),
  };
}
