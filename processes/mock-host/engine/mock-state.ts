/**
 * What a running mock remembers between requests: each scenario's state and each operation's
 * In order turn. Reset state and Stop bring it all back to the start; an edit keeps it.
 */
import { SCENARIO_START } from '../../../protocol/model/mock.js';

export class MockState {
  private readonly scenarios = new Map<string, string>();
  private readonly turns = new Map<string, number>();

  scenario(name: string): string {
    return this.scenarios.get(name) ?? SCENARIO_START;
  }

  setScenario(name: string, state: string): void {
    this.scenarios.set(name, state);
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
