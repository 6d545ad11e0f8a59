/** The progress of an import or a definition read: a bar along the four phases and the latest message. */
import type { ImportProgress } from '../../../../protocol/model/import.js';
import { progressFraction } from './import-form.js';

const PHASE_LABELS: Record<ImportProgress['phase'], string> = {
  read: 'Reading',
  resolve: 'Resolving references',
  convert: 'Converting',
  done: 'Saving',
};

export function ProgressLine({ progress, label }: { progress: ImportProgress; label: string }) {
  const percent = Math.round(progressFraction(progress) * 100);
  const counted = progress.total !== undefined && progress.total > 0;
  return (
    <div class="import-progress">
      <div class="import-progress-head">
        <span class="spinner" aria-hidden="true" />
        <strong>{PHASE_LABELS[progress.phase]}</strong>
        <span class="import-progress-message" role="status" aria-label={label}>
          {progress.message}
          {counted ? ` (${progress.done ?? 0} of ${progress.total})` : ''}
        </span>
      </div>
      <div class="import-progress-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div class={`import-progress-bar${counted ? '' : ' indeterminate'}`} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
