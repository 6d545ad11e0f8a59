/**
 * The readable report of `parley run`: a line per request (status, time, size, contract chip) as
 * it finishes, its failed assertions, its captures and contract problems under it, and a summary line. Runs of
 * more than LONG_RUN requests also show progress on stderr: one line rewritten in place on a
 * terminal, a line every 10% otherwise (CI logs): of the requests, or of the data file read when
 * it gives one iteration per row (a FIFO, whose size is unknown: a line every UNSIZED_EVERY).
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { ProgressLine, type ProgressStream } from '../import/progress.js';
import type { RequestOutcome, RunProgress, RunReporter, RunStart, RunSummary } from '../../processes/supervisor/run/report.js';

const LONG_RUN = 50;
const UNSIZED_EVERY = 10_000;

export class ConsoleReporter implements RunReporter {
  private readonly progress: ProgressLine;
  private lastTenth = 0;
  private iteration = 0;
  private iterations: number | undefined = 1;

  constructor(
    private readonly out: Writable,
    private readonly err: Writable & ProgressStream,
  ) {
    this.progress = new ProgressLine(err);
  }

  started(start: RunStart): void {
    this.iterations = start.iterations;
    const each = plural(start.requestsPerIteration, 'request');
    const times = start.iterations === undefined ? ` for each row of ${start.data ?? 'the data file'}` : start.iterations > 1 ? ` x ${start.iterations} iterations` : '';
    this.out.write(`parley run: ${start.project}, ${each}${times}\n`);
  }

  outcome(outcome: RequestOutcome, progress: RunProgress): Promise<void> | void {
    this.progress.clear();
    const heading = outcome.iteration !== this.iteration && (this.iterations !== 1 || outcome.row) ? `\nIteration ${outcome.iteration}${outcome.row ? `, ${outcome.row}` : ''}\n` : '';
    this.iteration = outcome.iteration;
    const more = this.out.write(heading + renderOutcome(outcome));
    if ((progress.total ?? progress.done) > LONG_RUN) this.showProgress(progress);
    // A standard output that cannot keep up (a slow pipe) holds the run, rather than its lines piling up here.
    if (!more) return once(this.out, 'drain').then(() => undefined);
  }

  finished(summary: RunSummary): void {
    this.progress.clear();
    this.out.write(`\n${summaryLine(summary)}\n`);
  }

  private showProgress({ done, total, fraction }: RunProgress): void {
    if (this.err.isTTY) {
      const message = fraction === undefined ? `parley run: ${done} requests` : `parley run: ${Math.floor(fraction * 100)}%`;
      this.progress.show({ phase: 'read', message, done, ...(total !== undefined ? { total } : {}) });
      return;
    }
    if (fraction === undefined) {
      if (done % UNSIZED_EVERY === 0) this.err.write(`parley run: ${done} requests\n`);
      return;
    }
    const tenth = Math.floor(fraction * 10);
    if (tenth > this.lastTenth && (total === undefined || done < total)) {
      this.lastTenth = tenth;
      this.err.write(total === undefined ? `parley run: ${done} requests, ${tenth * 10}% of the data file read\n` : `parley run: ${done}/${total} requests (${tenth * 10}%)\n`);
    }
  }
}

export function renderOutcome(o: RequestOutcome): string {
  const mark = o.failed ? 'x' : 'ok';
  const head = `  ${mark.padEnd(2)} ${o.request.method.padEnd(6)} ${o.request.path}`;
  const lines: string[] = [];
  if (o.error) {
    lines.push(`${head}  ${o.error.code === 'unresolved' || o.error.message.startsWith('Not sent') ? 'NOT SENT' : 'ERROR'}`);
    lines.push(`       ${o.error.message}`);
  } else if (o.response) {
    const parts = [`${o.response.status} ${o.response.statusText}`.trim(), `${o.response.timeMs} ms`, formatSize(o.response.size)];
    if (o.contract) parts.push(o.contract.label);
    const passed = o.assertions.filter((a) => a.passed).length;
    if (o.assertions.length > 0) parts.push(`${passed}/${o.assertions.length} assertions`);
    lines.push(`${head}  ${parts.join('  ')}`);
    for (const a of o.assertions) if (!a.passed) lines.push(`       x ${a.label}: ${a.message}`);
    for (const c of o.captures ?? []) lines.push(c.ok ? `       set ${c.name} = ${shortValue(c.value ?? '')}${c.message ? ` (${c.message})` : ''}` : `       x capture ${c.name || '(no name)'} from ${c.label}: ${c.message}`);
    if (o.contract && o.contract.problems.length > 0) {
      for (const p of o.contract.problems.slice(0, 5)) lines.push(`       contract ${p.pointer || '/'}: ${p.message}`);
      if (o.contract.problems.length > 5) lines.push(`       contract: ${o.contract.problems.length - 5} more`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function summaryLine(s: RunSummary): string {
  const passed = s.requests - s.failed;
  const parts = [`${plural(s.requests, 'request')}: ${passed} passed, ${s.failed} failed`];
  if (s.errors > 0) parts.push(`${s.errors} not sent or no response`);
  if (s.assertions.total > 0) parts.push(`assertions ${s.assertions.total - s.assertions.failed}/${s.assertions.total} passed`);
  if (s.captures && s.captures.failed > 0) parts.push(`captures ${s.captures.total - s.captures.failed}/${s.captures.total} set`);
  if (s.contractFailures > 0) parts.push(`contract problems in ${plural(s.contractFailures, 'response')}`);
  parts.push(`${(s.durationMs / 1000).toFixed(2)} s`);
  const stop = s.interrupted ? ' (interrupted)' : s.error ? ' (stopped: the data file could not be read on)' : s.bailed ? ' (stopped at the first failure: --bail)' : '';
  return `${s.failed > 0 || s.interrupted || s.error ? 'FAILED' : 'PASSED'}${stop}: ${parts.join('; ')}`;
}

/** A captured value on one line of the console: its first 80 characters, line breaks shown as spaces. */
function shortValue(value: string): string {
  const line = value.replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
