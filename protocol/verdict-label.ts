/** The contract chip's text for a verdict (SPEC's six chip values), shared by the UI and History's search. */
import type { Verdict } from './model/verdict.js';

const LABEL: Record<Exclude<Verdict['kind'], 'none'>, string> = {
  pass: 'Contract ✓',
  problems: 'Contract: N problems',
  'unexpected-status': 'Unexpected status',
  'no-schema': 'No schema',
  skipped: 'Skipped',
  'not-checked': 'Not checked',
};

export function chipLabel(verdict: Verdict): string | null {
  if (verdict.kind === 'none') return null;
  if (verdict.kind === 'problems') return `Contract: ${verdict.problems.length}${verdict.moreProblems ? '+' : ''} problem${verdict.problems.length === 1 ? '' : 's'}`;
  if (verdict.kind === 'not-checked' && verdict.problems.length > 0) return `Not checked (${verdict.problems.length} found)`;
  return LABEL[verdict.kind];
}

/** The chip's tone: passed, failed or neither. */
export function chipTone(verdict: Verdict): 'ok' | 'err' | 'neutral' {
  return kindTone(verdict.kind);
}

/** The tone of a verdict of this kind (where only its kind travels, as in a run's rows). */
export function kindTone(kind: Verdict['kind']): 'ok' | 'err' | 'neutral' {
  return kind === 'pass' ? 'ok' : kind === 'problems' || kind === 'unexpected-status' ? 'err' : 'neutral';
}
