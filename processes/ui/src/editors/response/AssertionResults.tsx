/** The response's Assertions view: each enabled assertion of the request, passed or failed and why. */
import type { AssertionResult } from '../../../../../protocol/model/assertion.js';

export function AssertionResults({ results }: { results: AssertionResult[] }) {
  return (
    <ul class="assertion-results" aria-label="Assertion results">
      {results.map((r) => (
        <li key={r.index} class={`assertion-result ${r.passed ? 'passed' : 'failed'}`}>
          <span class="mark" aria-label={r.passed ? 'passed' : 'failed'}>
            {r.passed ? '✓' : '✗'}
          </span>
          <span class="mono label">{r.label}</span>
          {!r.passed && <span class="why">{r.message}</span>}
        </li>
      ))}
    </ul>
  );
}

/** "Assertions 2/3" on the status line, coloured by the outcome; opens the Assertions view. */
export function AssertionsChip({ results, onOpen }: { results: AssertionResult[]; onOpen(): void }) {
  const passed = results.filter((r) => r.passed).length;
  return (
    <button class={`chip ${passed === results.length ? 'chip-ok' : 'chip-err'}`} data-testid="assertions-chip" onClick={onOpen}>
      Assertions {passed}/{results.length}
    </button>
  );
}
