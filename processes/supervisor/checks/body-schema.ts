/**
 * `request.bodySchema`: the Form view's schema for a request's body. The supervisor reads the
 * API's cached definition; the checker inlines the schema (checker/engine/body-schema.ts), which
 * can walk 20,000 nodes, on its own thread rather than the one every UI call waits on.
 */
import { hasCode, type ParleyError } from '../../../protocol/errors.js';
import type { ReqOf, ResOf } from '../../../protocol/messages.js';
import type { Handler, Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';
import type { DefinitionRef } from '../../../protocol/model/verdict.js';
import { loadDefinition } from './definitions.js';

type BodySchemaAnswer = ResOf<'request.bodySchema'>;

/** The checker as this handler uses it: a real child in the app, anything that answers alike in a test. */
export interface BodySchemaChecker {
  call(type: 'checker.bodySchema', payload: ReqOf<'checker.bodySchema'>, options?: { signal?: AbortSignal }): Promise<BodySchemaAnswer>;
}

const MAX_REMEMBERED = 64;

/** Answers `request.bodySchema`: the linked operation's body schema from the API's cached definition. */
export function bodySchemaHandler(sup: Pick<Supervisor, 'project'> & { checker: BodySchemaChecker }): Handler<'request.bodySchema'> {
  const remembered = new Map<string, BodySchemaAnswer>();
  return async ({ project, request }, { signal }) => {
    const operation = request.operation;
    if (!operation) return unavailable('This request is not linked to an operation of an imported definition.');
    const store = sup.project(project);
    const api = store.apiOf(request.id);
    if (!api.definition) return unavailable(`The API ${api.name} has no imported definition.`);
    const apiDir = store.apiDir(api.id);
    let definition: Required<DefinitionRef>;
    try {
      definition = await loadDefinition(apiDir, api);
    } catch (err) {
      if (hasCode(err, 'no-definition')) return unavailable((err as ParleyError).message);
      throw err;
    }
    // The same definition answers the same way: keep the last answers, newest last.
    const key = `${apiDir}\0${definition.fingerprint}\0${operation.method.toLowerCase()}\0${operation.path}`;
    let result = remembered.get(key);
    if (result) remembered.delete(key);
    else result = await inlinedByChecker(sup.checker, definition, operation, signal);
    remembered.set(key, result);
    if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    return result;
  };
}

/** The fingerprint first (the checker usually holds the definition from a check); the documents when it asks. */
async function inlinedByChecker(
  checker: BodySchemaChecker,
  definition: Required<DefinitionRef>,
  operation: ReqOf<'checker.bodySchema'>['operation'],
  signal: AbortSignal,
): Promise<BodySchemaAnswer> {
  try {
    return await checker.call('checker.bodySchema', { definition: { fingerprint: definition.fingerprint }, operation }, { signal });
  } catch (err) {
    if (!hasCode(err, 'no-definition')) throw err;
    return checker.call('checker.bodySchema', { definition: { fingerprint: definition.fingerprint, documents: definition.documents }, operation }, { signal });
  }
}

function unavailable(reason: string): BodySchemaAnswer {
  return { available: false, reason };
}

/** The handlers of this module, to spread into the UI's handlers. */
export function bodySchemaHandlers(sup: Pick<Supervisor, 'project' | 'checker'>): Handlers {
  return { 'request.bodySchema': bodySchemaHandler(sup) };
}
