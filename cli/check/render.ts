/**
 * Verdicts as people read them: the label the app's chip shows, then where and what, problems as
 * pointer and message. Only the engine's own words are shown; they never quote body values, and
 * nothing here adds any. A URL is shown as its path, without the query (it may carry a key).
 */
import type { Verdict } from '../../protocol/model/verdict.js';
import { requestPath } from '../../processes/checker/engine/select-operation.js';
import { operationLabel } from './operation-arg.js';

/** The chip's words (SPEC: Response and contract verdict); `none` shows no chip. */
export function chipLabel(verdict: Verdict): string {
  switch (verdict.kind) {
    case 'pass':
      return 'Contract ✓';
    case 'problems': {
      const n = verdict.problems.length;
      return `Contract: ${n}${verdict.moreProblems ? '+' : ''} problem${n === 1 ? '' : 's'}`;
    }
    case 'unexpected-status':
      return 'Unexpected status';
    case 'no-schema':
      return 'No schema';
    case 'skipped':
      return 'Skipped';
    case 'not-checked':
      return verdict.problems.length > 0 ? `Not checked (${verdict.problems.length} found)` : 'Not checked';
    case 'none':
      return 'No check';
  }
}

export function shownPath(url: string): string {
  return requestPath(url) || '/';
}

/** "  /a/0  expected integer, found string" lines, at most `max`. */
export function problemLines(verdict: Verdict, indent: string, max = Number.POSITIVE_INFINITY): string[] {
  const lines = verdict.problems.slice(0, max).map((p) => `${indent}${p.pointer === '' ? '(body)' : p.pointer}  ${p.message}`);
  const hidden = verdict.problems.length - Math.min(max, verdict.problems.length);
  if (hidden > 0 || verdict.moreProblems) lines.push(`${indent}… and more`);
  return lines;
}

/** The whole human report of one check. */
export function renderVerdict(verdict: Verdict, request: { method: string; url: string; status: number; contentType?: string }): string {
  const lines = [`${chipLabel(verdict)}  ${request.method.toUpperCase()} ${shownPath(request.url)} -> ${request.status}${request.contentType ? ` (${request.contentType})` : ''}`];
  const where = [
    verdict.operation ? `operation ${operationLabel(verdict.operation)}` : undefined,
    verdict.responseKey ? `response ${verdict.responseKey}` : undefined,
    verdict.mediaType ? `media type ${verdict.mediaType}` : undefined,
  ].filter(Boolean);
  if (where.length > 0) lines.push(`  ${where.join(', ')}`);
  if (verdict.reason) lines.push(`  ${verdict.reason.message}`);
  lines.push(...problemLines(verdict, '  '));
  if (verdict.partial) lines.push('  The check was partial: it stopped before the end, so more problems may exist.');
  for (const note of verdict.notes) lines.push(`  note: ${note}`);
  return lines.join('\n') + '\n';
}
