import { describe, expect, it } from 'vitest';
import { MockState, SCENARIOS_KEPT, SCENARIO_NAME_CHARS, SCENARIO_STATE_CHARS } from './mock-state.js';

describe('MockState scenarios', () => {
  it('sets a batch whole or not at all: one name too many refuses the batch (two scripts run at once each saw room for one)', () => {
    const state = new MockState();
    expect(state.setScenarios(Array.from({ length: SCENARIOS_KEPT - 1 }, (_, i) => [`s${i}`, 'on'] as const))).toBeNull();
    expect(state.setScenarios([['first', 'on']])).toBeNull();
    expect(state.setScenarios([['s1', 'moved'], ['second', 'on']])).toMatch(/^A mock keeps at most 1,000 scenarios: "second" would be one more/);
    // Nothing of the refused batch was set.
    expect(state.scenario('s1')).toBe('on');
    expect(state.scenarioCount).toBe(SCENARIOS_KEPT);
    // A scenario it has may move, and one set twice in a batch counts once.
    expect(state.setScenarios([['s1', 'moved'], ['s1', 'again']])).toBeNull();
    expect(state.scenario('s1')).toBe('again');
    state.reset();
    expect(state.scenarioCount).toBe(0);
    expect(state.scenario('s1')).toBe('Started');
  });

  it('refuses a name or a state past its length, quoting a short prefix', () => {
    const state = new MockState();
    const long = 'n'.repeat(SCENARIO_NAME_CHARS + 1);
    expect(state.setScenarios([[long, 'on']])).toBe(`A scenario's name is at most ${SCENARIO_NAME_CHARS} characters: "${'n'.repeat(79)}…" (257 characters) was not set.`);
    expect(state.setScenarios([['cart', 's'.repeat(SCENARIO_STATE_CHARS + 1)]])).toBe(`A scenario's state is at most ${SCENARIO_STATE_CHARS} characters: the state of "cart" (1,025 characters) was not set.`);
    expect(state.setScenarios([['n'.repeat(SCENARIO_NAME_CHARS), 's'.repeat(SCENARIO_STATE_CHARS)]])).toBeNull();
    expect(state.scenarioCount).toBe(1);
  });
});
