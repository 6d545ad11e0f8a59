/**
 * A GraphQL request tab's schema (docs/graphql.md): asked of the supervisor (`graphql.schema`:
 * the request's SDL file, or the workspace's cached introspection), introspected on first open
 * when nothing is cached, refreshed on demand, and built here by graphql-js from the SDL the
 * checker printed, for the editor's validation and completion and the docs explorer.
 */
import { signal, type Signal } from '@preact/signals';
import { buildSchema, type GraphQLSchema } from 'graphql';
import type { GraphqlSchemaAnswer } from '../../../../../../protocol/model/graphql.js';
import type { Request } from '../../../../../../protocol/model/request.js';
import { call } from '../../../state/rpc.js';
import { onTabClosed } from '../../../state/tabs.js';

export interface SchemaState {
  answer: Signal<GraphqlSchemaAnswer | null>;
  schema: Signal<GraphQLSchema | null>;
  loading: Signal<boolean>;
  error: Signal<string | null>;
  /** The schema file the answer is for ('' for introspection): a change of file asks again. */
  source: string | null;
  /** Where the docs explorer is: a type's name, or null for the root types. */
  docsAt: Signal<string | null>;
  docsOpen: Signal<boolean>;
}

const states = new Map<string, SchemaState>();
onTabClosed((id) => states.delete(id));

export function schemaState(tabId: string): SchemaState {
  let state = states.get(tabId);
  if (!state) {
    state = { answer: signal(null), schema: signal(null), loading: signal(false), error: signal(null), source: null, docsAt: signal(null), docsOpen: signal(false) };
    states.set(tabId, state);
  }
  return state;
}

/**
 * Reads the schema for `request` (its file, else the cached introspection); with `refresh`, or on
 * first open with nothing cached and a URL to ask, introspects through the request.
 */
export async function loadSchema(state: SchemaState, project: string, request: Request, refresh: boolean): Promise<void> {
  if (state.loading.peek()) return;
  state.loading.value = true;
  state.error.value = null;
  state.source = request.body.graphql?.schemaFile.trim() ?? '';
  try {
    let answer = await call('graphql.schema', { project, request, refresh });
    if (answer.source === 'none' && !refresh && request.url.trim() !== '') answer = await call('graphql.schema', { project, request, refresh: true });
    state.answer.value = answer;
    // The checker validated and printed it: building it again here skips the validation pass.
    state.schema.value = answer.sdl === undefined ? null : buildSchema(answer.sdl, { assumeValidSDL: true });
  } catch (err) {
    state.error.value = (err as Error).message;
  } finally {
    state.loading.value = false;
  }
}
