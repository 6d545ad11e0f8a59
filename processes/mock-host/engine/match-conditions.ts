/**
 * By match conditions: every condition of a response must hold for it to be picked. A "matches a
 * regular expression" condition reads the user's pattern as ECMA-262 does, on the linear engine
 * the checker's `pattern` uses (checker/engine/regex.ts), so no request can make it backtrack. A
 * pattern only V8's backtracking engine can run (a lookahead, a backreference) goes to a runner
 * that holds it to a budget on another thread; without one, or past the budget, the condition does
 * not hold and the log says why.
 */
import type { MatchCondition, MockResponse } from '../../../protocol/model/mock.js';
import { compileEcmaPattern, type CompiledPattern } from '../../checker/engine/regex.js';
import type { RequestValues } from './request-values.js';

/** Tests a pattern on the backtracking engine where a runaway can be stopped (the mock's check worker). */
export type RegexRunner = (source: string, value: string) => Promise<{ matched: boolean } | { gaveUp: string }>;

type Maybe<T> = T | Promise<T>;

const patterns = new Map<string, CompiledPattern>();

function patternOf(source: string): CompiledPattern {
  let compiled = patterns.get(source);
  if (compiled === undefined) {
    compiled = compileEcmaPattern(source);
    if (patterns.size > 1000) patterns.clear();
    patterns.set(source, compiled);
  }
  return compiled;
}

export function conditionHolds(condition: MatchCondition, values: RequestValues, runner?: RegexRunner): Maybe<boolean> {
  const value = values.read(condition.source);
  switch (condition.check) {
    case 'present':
      return value !== undefined;
    case 'absent':
      return value === undefined;
    case 'equals':
      return value !== undefined && value === (condition.value ?? '');
    case 'regex':
      return value !== undefined && regexHolds(condition.value ?? '', value, values, runner);
  }
}

function regexHolds(source: string, value: string, values: RequestValues, runner: RegexRunner | undefined): Maybe<boolean> {
  const shown = `/${source}/`;
  const compiled = patternOf(source);
  if (!compiled.ok) {
    // Loading refuses such a file; this guards a mock made some other way.
    values.notes.push(`The regular expression ${shown} of a match condition does not compile (${compiled.message}); the condition does not hold.`);
    return false;
  }
  const answer = compiled.pattern.testLinear(value);
  if (answer !== undefined) return answer;
  const why = compiled.pattern.backtrackingReason;
  if (!runner) {
    values.notes.push(`The regular expression ${shown} of a match condition was not evaluated: ${why}, which needs a backtracking engine, run only where it can be stopped; the condition does not hold.`);
    return false;
  }
  return runner(source, value).then((result) => {
    if ('matched' in result) return result.matched;
    values.notes.push(`The regular expression ${shown} of a match condition was not evaluated: ${result.gaveUp}; the condition does not hold.`);
    return false;
  });
}

/** No conditions match anything: such a response is the catch-all. Conditions are tried in order. */
export function allConditionsHold(conditions: MatchCondition[], values: RequestValues, runner?: RegexRunner, from = 0): Maybe<boolean> {
  for (let i = from; i < conditions.length; i++) {
    const held = conditionHolds(conditions[i]!, values, runner);
    if (held instanceof Promise) return held.then((ok) => ok && allConditionsHold(conditions, values, runner, i + 1));
    if (!held) return false;
  }
  return true;
}

/** The first response, in order, whose conditions all hold. */
export function firstMatching(responses: MockResponse[], values: RequestValues, runner?: RegexRunner, from = 0): Maybe<MockResponse | undefined> {
  for (let i = from; i < responses.length; i++) {
    const response = responses[i]!;
    const held = allConditionsHold(response.match, values, runner);
    if (held instanceof Promise) return held.then((ok) => (ok ? response : firstMatching(responses, values, runner, i + 1)));
    if (held) return response;
  }
  return undefined;
}
