/**
 * One contract check in a worker thread: keeps prepared definitions by fingerprint and runs the
 * check. The pool sends each definition as JSON in a SharedArrayBuffer, which crosses threads
 * without a copy; a worker parses it and lists its operations only the first time it meets the
 * fingerprint, before the check's budget starts (`prepareCheck`): for Microsoft Graph's 20 MB
 * that is 0.7-0.9 s, and inside the budget it was lost with the worker stopped at its end, so a
 * loaded machine never got a worker ready. The caller's own wait still bounds what it waits for.
 */
import { hasCode } from '../../protocol/errors.js';
import type { Verdict } from '../../protocol/model/verdict.js';
import { checkExchange, operationsOf, type ExchangeInput } from './engine/check.js';
import { PreparedDefinition } from './engine/definition.js';
import { reasoned } from './engine/verdicts.js';

export interface WorkerTask {
  fingerprint: string;
  /** UTF-8 JSON of the definition's documents (`DefinitionDocument[]`), shared, not copied. */
  definition: SharedArrayBuffer;
  input: ExchangeInput;
}

/** Definitions kept per worker; the oldest unused goes first. */
const MAX_DEFINITIONS = 8;
const definitions = new Map<string, PreparedDefinition | 'unsupported'>();

function definitionFor(task: WorkerTask): PreparedDefinition | 'unsupported' {
  const known = definitions.get(task.fingerprint);
  if (known) {
    definitions.delete(task.fingerprint);
    definitions.set(task.fingerprint, known);
    return known;
  }
  let prepared: PreparedDefinition | 'unsupported';
  try {
    const documents = JSON.parse(new TextDecoder().decode(new Uint8Array(task.definition)));
    prepared = new PreparedDefinition(documents, task.fingerprint);
    operationsOf(prepared);
  } catch (err) {
    if (!hasCode(err, 'unsupported-definition')) throw err;
    prepared = 'unsupported';
  }
  definitions.set(task.fingerprint, prepared);
  if (definitions.size > MAX_DEFINITIONS) definitions.delete(definitions.keys().next().value!);
  return prepared;
}

/** The definition a check needs, parsed and indexed; runs before the check's budget starts. */
export function prepareCheck(task: WorkerTask): void {
  definitionFor(task);
}

/**
 * One check. Its budget runs from here (the pool kills this thread past it, so V8's backtracking
 * engine may run the patterns the linear one cannot); `deadline` is when validation stops by
 * itself and returns what it found.
 */
export function runCheck(task: WorkerTask, deadline: number): Verdict {
  const def = definitionFor(task);
  if (def === 'unsupported') return reasoned('none', 'unsupported-definition');
  return checkExchange(def, task.input, { deadline, now: Date.now, backtracking: true });
}

