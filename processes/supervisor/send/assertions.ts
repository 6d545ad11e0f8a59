/**
 * A request's assertions after its send (docs/assertions.md): `${...}` in their paths and values
 * expand like the request's own fields (a data row's column, a property, a secret), then they
 * are evaluated by the checker engine: here when they read only the status and the time, on the
 * checker's query thread (on its budget) when they read the body or run a pattern.
 */
import { assertionLabel, type Assertion, type AssertionResult } from '../../../protocol/model/assertion.js';
import type { SendResult } from '../../../protocol/model/exchange.js';
import { evaluateAssertions, needsWorker } from '../../checker/engine/assertions.js';
import type { ChildProcessHandle } from '../children/child-process.js';
import { Expander, redactSecrets, type ExpansionScope } from './expand.js';

/** The request's enabled assertions with their `${...}` expanded, and why any could not be. */
export interface PreparedAssertions {
  /** Each assertion as written (for its label), as expanded, and the names that did not resolve. */
  items: { written: Assertion; expanded: Assertion; unresolved: string[] }[];
}

export function prepareAssertions(assertions: readonly Assertion[] | undefined, scope: ExpansionScope): PreparedAssertions | undefined {
  if (!assertions || !assertions.some((a) => a.enabled)) return undefined;
  const items = assertions.map((written) => {
    const expander = new Expander(scope);
    const expanded = { ...written, path: expander.expand(written.path), value: expander.expand(written.value) };
    return { written, expanded, unresolved: [...expander.unresolved] };
  });
  return { items };
}

/** The results of `prepared` against `response`, labelled as written, with secret and carried credential values masked out of every message. */
export async function checkAssertions(checker: ChildProcessHandle, prepared: PreparedAssertions, response: SendResult, secrets: Map<string, string>, carried: readonly string[], signal?: AbortSignal): Promise<AssertionResult[]> {
  const runnable = prepared.items.map((item) => (item.unresolved.length > 0 ? { ...item.expanded, enabled: false } : item.expanded));
  const asserted = { status: response.status, timeMs: response.timing.total, body: response.body.bytes, bodyComplete: response.body.spooledTo === undefined && response.stream === undefined };
  let evaluated: AssertionResult[];
  if (!needsWorker(runnable)) evaluated = evaluateAssertions(runnable, asserted);
  else {
    try {
      evaluated = (await checker.call('checker.assert', { assertions: runnable, ...asserted }, signal ? { signal } : {})).results;
    } catch (err) {
      const reason = (err as Error).message;
      evaluated = runnable.flatMap((a, index) => (a.enabled ? [{ index, label: '', passed: false, message: `not evaluated: ${reason}` }] : []));
    }
  }
  const byIndex = new Map(evaluated.map((r) => [r.index, r]));
  const results: AssertionResult[] = [];
  prepared.items.forEach((item, index) => {
    if (!item.written.enabled) return;
    const label = assertionLabel(item.written);
    const result = byIndex.get(index);
    const message = item.unresolved.length > 0 ? `${item.unresolved.map((n) => `\${${n}}`).join(', ')} not defined` : (result?.message ?? 'not evaluated');
    results.push({ index, label, passed: item.unresolved.length === 0 && result?.passed === true, message: redactSecrets(message, secrets, carried) });
  });
  return results;
}
