/**
 * The readable report of `parley run`: a line per request (status, time, size, contract chip) as
 * it finishes, its failed assertions and contract problems under it, and a summary line. Runs of
 * more than LONG_RUN requests also show progress on stderr: one line rewritten in place on a
 * terminal, a line every 10% otherwise (CI logs).
 */
import type { Writable } from 'node:stream';
import { ProgressLine, type ProgressStream } from '../import/progress.js';
import type { RequestOutcome, RunListener, RunReport } from './report.js';

const LONG_RUN = 50;

export class ConsoleReporter implements RunListener {
  private readonly progress: ProgressLine;
  private total = 0;
  private lastTenth = 0;
  private iteration = 0;
  private iterations = 1;

  constructor(
    private readonly out: Writable,
    private readonly err: Writable & ProgressStream,
  ) {
    this.progress = new ProgressLine(err);
  }

  started(info: { project: string; total: number; iterations: number }): void {
    this.total = info.total;
    this.iterations = info.iterations;
    const perIteration = info.iterations > 0 ? info.total / info.iterations : 0;
    this.out.write(`parley run: ${info.project}, ${plural(perIteration, 'request')}${info.iterations > 1 ? ` x ${info.iterations} iterations` : ''}\n`);
  }

  outcome(outcome: RequestOutcome, done: number, total: number): void {
    this.progress.clear();
    if (outcome.iteration !== this.iteration && (this.iterations > 1 || outcome.row)) {
      this.out.write(`\nIteration ${outcome.iteration}${outcome.row ? `, ${outcome.row}` : ''}\n`);
    }
    this.iteration = outcome.iteration;
    this.out.write(renderOutcome(outcome));
    if (total > LONG_RUN) this.showProgress(done, total);
  }

  finished(report: RunReport): void {
    this.progress.clear();
    this.out.write(`\n${summaryLine(report)}\n`);
  }

  private showProgress(done: number, total: number): void {
    if (this.err.isTTY) {
      this.progress.show({ phase: 'read', message: `parley run: ${Math.floor((done / total) * 100)}%`, done, total });
      return;
    }
    const tenth = Math.floor((done / total) * 10);
    if (tenth > this.lastTenth && done < total) {
      this.lastTenth = tenth;
      this.err.write(`parley run: ${done}/${total} requests (${tenth * 10}%)\n`);
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
    if (o.contract && o.contract.problems.length > 0) {
      for (const p of o.contract.problems.slice(0, 5)) lines.push(`       contract ${p.pointer || '/'}: ${p.message}`);
      if (o.contract.problems.length > 5) lines.push(`       contract: ${o.contract.problems.length - 5} more`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function summaryLine({ summary: s }: RunReport): string {
  const passed = s.requests - s.failed;
  const parts = [`${plural(s.requests, 'request')}: ${passed} passed, ${s.failed} failed`];
  if (s.errors > 0) parts.push(`${s.errors} not sent or no response`);
  if (s.assertions.total > 0) parts.push(`assertions ${s.assertions.total - s.assertions.failed}/${s.assertions.total} passed`);
  if (s.contractFailures > 0) parts.push(`contract problems in ${plural(s.contractFailures, 'response')}`);
  parts.push(`${(s.durationMs / 1000).toFixed(2)} s`);
  const stop = s.interrupted ? ' (interrupted)' : s.bailed ? ' (stopped at the first failure: --bail)' : '';
  return `${s.failed > 0 || s.interrupted ? 'FAILED' : 'PASSED'}${stop}: ${parts.join('; ')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
