/**
 * What a run found, and its exit code: 0 when everything passed, 1 when a check found problems
 * or an unexpected status, 2 when anything was not checked or could not be read. 2 wins over 1:
 * a run that could not check everything has not given a full answer, whatever else it found.
 */
import type { VerdictKind } from '../../protocol/model/verdict.js';

export const EXIT_PASS = 0;
export const EXIT_CONTRACT_BROKEN = 1;
export const EXIT_NOT_CHECKED = 2;

/** The verdicts in the order summaries list them. */
export const KINDS: readonly VerdictKind[] = ['pass', 'problems', 'unexpected-status', 'no-schema', 'skipped', 'not-checked', 'none'];

const KIND_WORDS: Record<VerdictKind, string> = {
  pass: 'pass',
  problems: 'with problems',
  'unexpected-status': 'unexpected status',
  'no-schema': 'no schema',
  skipped: 'skipped',
  'not-checked': 'not checked',
  none: 'no check',
};

export function emptyCounts(): Record<VerdictKind, number> {
  return { pass: 0, problems: 0, 'unexpected-status': 0, 'no-schema': 0, skipped: 0, 'not-checked': 0, none: 0 };
}

export class Outcome {
  readonly counts = emptyCounts();
  /** Inputs that could not be read (bad lines, broken HAR entries). */
  invalid = 0;

  add(kind: VerdictKind): void {
    this.counts[kind]++;
  }

  get total(): number {
    return KINDS.reduce((sum, kind) => sum + this.counts[kind], 0) + this.invalid;
  }

  get exitCode(): number {
    if (this.invalid > 0 || this.counts['not-checked'] > 0) return EXIT_NOT_CHECKED;
    if (this.counts.problems > 0 || this.counts['unexpected-status'] > 0) return EXIT_CONTRACT_BROKEN;
    return EXIT_PASS;
  }

  /** "3 checks: 1 pass, 1 with problems, 1 unreadable" (kinds with a zero count left out). */
  describe(noun: string): string {
    const parts = KINDS.filter((kind) => this.counts[kind] > 0).map((kind) => `${this.counts[kind]} ${KIND_WORDS[kind]}`);
    if (this.invalid > 0) parts.push(`${this.invalid} unreadable`);
    const total = this.total;
    return `${total} ${noun}${total === 1 ? '' : 's'}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
  }
}
