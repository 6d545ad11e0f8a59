/**
 * The summary of a HAR check: per operation (method and path template) the count of each
 * verdict and the first problems; exchanges that match no operation are counted apart. Only
 * pointers, the engine's messages, statuses and paths (without query) appear: never body values.
 */
import type { Verdict, VerdictKind } from '../../protocol/model/verdict.js';
import type { Exchange } from './checker-session.js';
import { operationLabel } from './operation-arg.js';
import { EXIT_CONTRACT_BROKEN, EXIT_NOT_CHECKED, EXIT_PASS } from './outcome.js';
import { shownPath } from './render.js';

type ChipKind = Exclude<VerdictKind, 'none'>;
const CHIP_KINDS: readonly ChipKind[] = ['pass', 'problems', 'unexpected-status', 'no-schema', 'skipped', 'not-checked'];
/** Problems (and other findings) kept per operation for the summary. */
const FIRST_FINDINGS = 5;
const NO_OPERATION_EXAMPLES = 10;

export interface Finding {
  /** Index in `log.entries`. */
  entry: number;
  status: number;
  /** A problem: where and what. */
  pointer?: string;
  message: string;
}

export interface OperationSummary {
  operation: string;
  counts: Record<ChipKind, number>;
  /** The first problems found, then the first other findings (unexpected status, why not checked). */
  firstProblems: Finding[];
}

export interface HarSummaryJson {
  har: string;
  definition: string;
  /** Entries in the capture. */
  entries: number;
  /** JSON exchanges checked against the definition (those matching no operation included). */
  checked: number;
  /** Entries whose response is not JSON (HTML, images, event streams, no body). */
  notJson: number;
  /** Entries of requests that got no response (status 0: failed, blocked, cancelled). */
  noResponse: number;
  operations: OperationSummary[];
  noOperation: { count: number; requests: string[] };
  totals: Record<ChipKind, number>;
  /** Entries that could not be read. */
  invalid: { entry: number; error: string }[];
  /** Why reading the capture stopped early, if it did. */
  error?: string;
}

/** Problems are kept apart from other findings so that an early unexpected status does not crowd them out. */
interface Tally {
  operation: string;
  counts: Record<ChipKind, number>;
  problems: Finding[];
  others: Finding[];
}

function firstProblemsOf(op: Tally): Finding[] {
  return [...op.problems, ...op.others].slice(0, FIRST_FINDINGS);
}

function zero(): Record<ChipKind, number> {
  return { pass: 0, problems: 0, 'unexpected-status': 0, 'no-schema': 0, skipped: 0, 'not-checked': 0 };
}

export class HarSummary {
  entries = 0;
  notJson = 0;
  noResponse = 0;
  error: string | undefined;
  private readonly operations = new Map<string, Tally>();
  private readonly noOperation = { count: 0, requests: new Set<string>() };
  private readonly invalid: { entry: number; error: string }[] = [];

  constructor(
    private readonly har: string,
    private readonly definition: string,
  ) {}

  addInvalid(entry: number, error: string): void {
    this.invalid.push({ entry, error });
  }

  add(entry: number, exchange: Exchange, verdict: Verdict): void {
    if (verdict.kind === 'none') {
      this.noOperation.count++;
      const request = `${exchange.method} ${shownPath(exchange.url)}`;
      if (this.noOperation.requests.size < NO_OPERATION_EXAMPLES) this.noOperation.requests.add(request);
      return;
    }
    // A verdict that found no operation has none to name (e.g. the checker failed before matching).
    const key = verdict.operation ? operationLabel(verdict.operation) : `${exchange.method} ${shownPath(exchange.url)}`;
    let op = this.operations.get(key);
    if (!op) this.operations.set(key, (op = { operation: key, counts: zero(), problems: [], others: [] }));
    op.counts[verdict.kind]++;
    const status = exchange.status;
    for (const p of verdict.problems) {
      if (op.problems.length >= FIRST_FINDINGS) break;
      op.problems.push({ entry, status, pointer: p.pointer, message: p.message });
    }
    if (verdict.problems.length === 0 && op.others.length < FIRST_FINDINGS) {
      if (verdict.kind === 'unexpected-status') op.others.push({ entry, status, message: `unexpected status ${status}` });
      if (verdict.kind === 'not-checked') op.others.push({ entry, status, message: `not checked: ${verdict.reason?.message ?? 'the check gave up'}` });
    }
  }

  get checked(): number {
    let n = this.noOperation.count;
    for (const op of this.operations.values()) n += CHIP_KINDS.reduce((sum, kind) => sum + op.counts[kind], 0);
    return n;
  }

  get totals(): Record<ChipKind, number> {
    const totals = zero();
    for (const op of this.operations.values()) for (const kind of CHIP_KINDS) totals[kind] += op.counts[kind];
    return totals;
  }

  /** 2 when anything was not checked or unreadable, else 1 when anything broke the contract, else 0. */
  get exitCode(): number {
    const totals = this.totals;
    if (this.error !== undefined || this.invalid.length > 0 || totals['not-checked'] > 0) return EXIT_NOT_CHECKED;
    if (totals.problems > 0 || totals['unexpected-status'] > 0) return EXIT_CONTRACT_BROKEN;
    return EXIT_PASS;
  }

  toJson(): HarSummaryJson {
    return {
      har: this.har,
      definition: this.definition,
      entries: this.entries,
      checked: this.checked,
      notJson: this.notJson,
      noResponse: this.noResponse,
      operations: this.sortedOperations().map((op) => ({ operation: op.operation, counts: op.counts, firstProblems: firstProblemsOf(op) })),
      noOperation: { count: this.noOperation.count, requests: [...this.noOperation.requests] },
      totals: this.totals,
      invalid: this.invalid,
      ...(this.error !== undefined ? { error: this.error } : {}),
    };
  }

  /** A table of counts per operation, then the first problems of each. */
  toText(): string {
    const out: string[] = [];
    out.push(`${this.har}: ${this.entries} entr${this.entries === 1 ? 'y' : 'ies'}, ${this.checked} JSON exchange${this.checked === 1 ? '' : 's'} checked against ${this.definition}, ${this.notJson} not JSON${this.noResponse > 0 ? `, ${this.noResponse} without a response` : ''}`);
    const ops = this.sortedOperations();
    if (ops.length > 0) {
      const headers = ['pass', 'problems', 'unexpected status', 'no schema', 'skipped', 'not checked'];
      const width = Math.max('Operation'.length, 'no operation'.length, ...ops.map((op) => op.operation.length));
      out.push('');
      out.push(['Operation'.padEnd(width), ...headers].join('  '));
      for (const op of ops) {
        out.push([op.operation.padEnd(width), ...CHIP_KINDS.map((kind, i) => String(op.counts[kind]).padStart(headers[i]!.length))].join('  '));
      }
    }
    out.push('');
    out.push(`No operation: ${this.noOperation.count}${this.noOperation.count > 0 ? ` (${[...this.noOperation.requests].join(', ')}${this.noOperation.count > this.noOperation.requests.size ? ', …' : ''})` : ''}`);
    const findings = ops.filter((op) => op.problems.length + op.others.length > 0);
    if (findings.length > 0) {
      out.push('');
      out.push('First problems:');
      for (const op of findings) {
        out.push(`  ${op.operation}`);
        for (const f of firstProblemsOf(op)) {
          out.push(`    entries[${f.entry}] -> ${f.status}  ${f.pointer !== undefined ? `${f.pointer === '' ? '(body)' : f.pointer}  ` : ''}${f.message}`);
        }
      }
    }
    if (this.invalid.length > 0) {
      out.push('');
      out.push(`Unreadable entries: ${this.invalid.length}`);
      for (const item of this.invalid.slice(0, FIRST_FINDINGS)) out.push(`  ${item.error}`);
    }
    const totals = this.totals;
    out.push('');
    out.push(`Total: ${CHIP_KINDS.map((kind, i) => `${totals[kind]} ${['pass', 'with problems', 'unexpected status', 'no schema', 'skipped', 'not checked'][i]}`).join(', ')}, ${this.noOperation.count} no operation`);
    if (this.error !== undefined) out.push(`Stopped early: ${this.error}`);
    return out.join('\n') + '\n';
  }

  private sortedOperations(): Tally[] {
    const pathOf = (label: string) => label.slice(label.indexOf(' ') + 1);
    return [...this.operations.values()].sort((a, b) => pathOf(a.operation).localeCompare(pathOf(b.operation)) || a.operation.localeCompare(b.operation));
  }
}
