/** By match conditions: every condition of a response must hold for it to be picked. */
import type { MatchCondition } from '../../../protocol/model/mock.js';
import type { RequestValues } from './request-values.js';

const patterns = new Map<string, RegExp | null>();

function patternOf(source: string): RegExp | null {
  let re = patterns.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source, 'u');
    } catch {
      re = null;
    }
    if (patterns.size > 1000) patterns.clear();
    patterns.set(source, re);
  }
  return re;
}

export function conditionHolds(condition: MatchCondition, values: RequestValues): boolean {
  const value = values.read(condition.source);
  switch (condition.check) {
    case 'present':
      return value !== undefined;
    case 'absent':
      return value === undefined;
    case 'equals':
      return value !== undefined && value === (condition.value ?? '');
    case 'regex': {
      const re = patternOf(condition.value ?? '');
      return value !== undefined && re !== null && re.test(value);
    }
  }
}

/** No conditions match anything: such a response is the catch-all. */
export function allConditionsHold(conditions: MatchCondition[], values: RequestValues): boolean {
  return conditions.every((c) => conditionHolds(c, values));
}
