/** The contract chip on the status line, with its details on hover or focus. */
import type { Verdict } from '../../../../../protocol/model/verdict.js';
import { chipLabel, chipTone } from '../../../../../protocol/verdict-label.js';

export { chipLabel };

export function VerdictChip({ verdict, onShowProblems }: { verdict: Verdict; onShowProblems?: () => void }) {
  const label = chipLabel(verdict);
  if (!label) return null;
  const tone = chipTone(verdict);
  return (
    <span class="chip-wrap">
      <button class={`chip chip-${tone}`} data-verdict={verdict.kind} aria-describedby="verdict-details" onClick={onShowProblems}>
        {label}
      </button>
      <span class="chip-details" id="verdict-details" role="tooltip">
        {verdict.operation && (
          <span>
            Operation <code>{verdict.operation.method.toUpperCase()} {verdict.operation.path}</code>
          </span>
        )}
        {verdict.responseKey && (
          <span>
            Response <code>{verdict.responseKey}</code>
          </span>
        )}
        {verdict.mediaType && (
          <span>
            Media type <code>{verdict.mediaType}</code>
          </span>
        )}
        {verdict.reason && <span>{verdict.reason.message}</span>}
        {verdict.partial && <span>The check was partial: it stopped before the end, so more problems may exist.</span>}
        {verdict.notes.map((note, i) => (
          <span key={i} class="muted">
            {note}
          </span>
        ))}
      </span>
    </span>
  );
}
