/** GraphQL as the UI reaches it: a request's schema (docs/graphql.md). */
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';
import { graphqlSchema } from './schema-service.js';

export function graphqlHandlers(sup: Supervisor): Handlers {
  return {
    'graphql.schema': ({ project, request, refresh }, { signal }) => graphqlSchema(sup, sup.sendDeps, project, request, refresh, signal),
  };
}
