/** The limits of a contract check (SPEC.md, Limits) and how verdicts are put together. */
import type { Verdict, VerdictKind, VerdictReasonCode } from '../../../protocol/model/verdict.js';

export const CHECK_LIMITS = {
  /** A larger body is skipped, not parsed. */
  maxBodyBytes: 1_048_576,
  /** The whole wait, queueing and definition lookup included. */
  budgetMs: 1000,
  maxSteps: 200_000,
  maxDepth: 256,
  maxProblems: 50,
  maxNotes: 20,
} as const;

/**
 * 1,048,576 rather than 1048576. Not toLocaleString: the first Intl call loads ICU's number
 * formatting, about 25 ms at start-up of every process that imports this module.
 */
function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Why a body over the limit was not checked; the checker and the mock host say it alike. */
export const TOO_LARGE_TEXT = `the body is larger than 1 MiB (${thousands(CHECK_LIMITS.maxBodyBytes)} bytes)`;

const REASON_TEXT: Record<VerdictReasonCode, string> = {
  budget: `the check took longer than ${CHECK_LIMITS.budgetMs} ms`,
  'too-deep': `the body is nested more than ${CHECK_LIMITS.maxDepth} deep`,
  'too-many-steps': `the check needed more than ${thousands(CHECK_LIMITS.maxSteps)} schema steps`,
  cancelled: 'the send was cancelled',
  'queue-full': 'too many responses already waiting',
  'checker-failure': 'checker failure',
  'schema-error': 'the schema could not be fully evaluated',
  'no-definition': 'the API has no imported definition',
  'unsupported-definition': 'the definition is not OpenAPI 3.x or Swagger 2.0',
  'no-operation': 'no operation of the definition matches the request',
  'event-stream': 'the response is an event stream',
  'not-json': 'the body is not JSON',
  'no-body': 'the response has no body',
  'too-large': TOO_LARGE_TEXT,
};

export function makeVerdict(kind: VerdictKind, fields: Partial<Omit<Verdict, 'kind'>> = {}): Verdict {
  return { kind, problems: [], moreProblems: false, partial: false, notes: [], steps: 0, ...fields };
}

/** A verdict with a reason; `detail` replaces the standard text when given. */
export function reasoned(kind: VerdictKind, code: VerdictReasonCode, fields: Partial<Omit<Verdict, 'kind'>> = {}, detail?: string): Verdict {
  return makeVerdict(kind, { ...fields, reason: { code, message: detail ?? REASON_TEXT[code] } });
}
