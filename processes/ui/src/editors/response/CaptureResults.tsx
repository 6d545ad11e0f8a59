/** The response's Captures view: each enabled capture of the request, the value it set (a credential's masked) or why it set nothing. */
import type { CaptureResult } from '../../../../../protocol/model/capture.js';

export function CaptureResults({ results }: { results: CaptureResult[] }) {
  return (
    <table class="rows-table capture-results" aria-label="Capture results">
      <thead>
        <tr>
          <th />
          <th>Variable</th>
          <th>Value</th>
          <th>From</th>
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <tr key={r.index} class={`capture-result ${r.ok ? 'passed' : 'failed'}`}>
            <td class="mark" aria-label={r.ok ? 'set' : 'not set'}>
              {r.ok ? '✓' : '✗'}
            </td>
            <td class="mono">{r.name || '(no name)'}</td>
            <td>
              {r.ok ? (
                <span class={`mono value${r.credential ? ' masked' : ''}`} title={r.credential ? 'A credential: its value is never shown' : undefined}>
                  {r.value}
                </span>
              ) : (
                <span class="why">{r.message}</span>
              )}
              {r.ok && r.message && <span class="note muted">{r.message}</span>}
            </td>
            <td class="muted">
              {r.label}, into {r.scope === 'session' ? 'this session' : 'the active environment'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "Captured 2/3" on the status line, coloured by the outcome; opens the Captures view. */
export function CapturesChip({ results, onOpen }: { results: CaptureResult[]; onOpen(): void }) {
  const set = results.filter((r) => r.ok).length;
  return (
    <button class={`chip ${set === results.length ? 'chip-ok' : 'chip-err'}`} data-testid="captures-chip" onClick={onOpen}>
      Captured {set}/{results.length}
    </button>
  );
}
