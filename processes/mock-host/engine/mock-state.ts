/**
 * What a running mock remembers between requests: each scenario's state and each operation's
 * In order turn. Reset state and Stop bring it all back to the start; an edit keeps it.
 *
 * Scenarios are bounded (docs/mocks.md, "Scenarios"): a dispatch script names any it likes, and
 * one calling `scenarios.set(request.body, ...)` grew the map with every request, and copied it
 * whole into every next script run.
 */
import { quote } from '../../../protocol/errors.js';
import { SCENARIO_START } from '../../../protocol/model/mock.js';

/** The scenarios a running mock keeps; one more is refused until Reset state. */
export const SCENARIOS_KEPT = 1_000;
/** A scenario's name: at most this many characters. */
export const SCENARIO_NAME_CHARS = 256;
/** A scenario's state: at most this many characters. */
export const SCENARIO_STATE_CHARS = 1_024;

export class MockState {
  private readonly scenarios = new Map<string, string>();
  private readonly turns = new Map<string, number>();

  scenario(name: string): string {
    return this.scenarios.get(name) ?? SCENARIO_START;
  }

  /** How many scenarios have a state of their own. */
  get scenarioCount(): number {
    return this.scenarios.size;
  }

  /**
   * Sets each scenario to its state, in order, or none of them: the reason the first one past a
   * bound is refused (a name or state too long, one scenario too many), null when all were set.
   */
  setScenarios(changes: readonly (readonly [string, string])[]): string | null {
    const added = new Set<string>();
    for (const [name, state] of changes) {
      const refused = scenarioRefusal(name, state);
      if (refused) return refused;
      if (!this.scenarios.has(name)) added.add(name);
      if (this.scenarios.size + added.size > SCENARIOS_KEPT) return tooMany(name);
    }
    for (const [name, state] of changes) this.scenarios.set(name, state);
    return null;
  }

  /** Every scenario and its state, for a script's `scenarios.get`. */
  scenarioStates(): Record<string, string> {
    return Object.fromEntries(this.scenarios);
  }

  /** The In order index to send now for an operation with `count` candidates, then moves on. */
  takeTurn(operationId: string, count: number): number {
    const turn = (this.turns.get(operationId) ?? 0) % count;
    this.turns.set(operationId, (turn + 1) % count);
    return turn;
  }

  reset(): void {
    this.scenarios.clear();
    this.turns.clear();
  }
}

/** Why a scenario cannot take this name or state (too long), or null. */
function scenarioRefusal(name: string, state: string): string | null {
  if (name.length > SCENARIO_NAME_CHARS) return `A scenario's name is at most ${SCENARIO_NAME_CHARS} characters: ${quote(name)} was not set.`;
  if (state.length > SCENARIO_STATE_CHARS) return `A scenario's state is at most ${SCENARIO_STATE_CHARS} characters: the state of ${quote(name)} (${state.length.toLocaleString('en')} characters) was not set.`;
  return null;
}

function tooMany(name: string): string {
  return `A mock keeps at most ${SCENARIOS_KEPT.toLocaleString('en')} scenarios: ${quote(name)} would be one more, and was not set (Reset state starts them over).`;
}
