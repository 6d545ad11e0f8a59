import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readReporters } from '../commands/run.js';
import { ConsoleReporter, renderOutcome, summaryLine } from './console-reporter.js';
import type { RequestOutcome, RunSummary } from '../../processes/supervisor/run/report.js';

class Sink extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

const outcome = (i: number, failed = false): RequestOutcome => ({
  iteration: 1,
  request: { id: `r${i}`, name: `req ${i}`, path: `API/req ${i}`, api: 'API', folders: [], method: 'GET', url: 'http://127.0.0.1/x' },
  response: { status: 200, statusText: 'OK', timeMs: 1.5, size: 2048 },
  assertions: failed ? [{ index: 0, label: 'status equals 201', passed: false, message: 'got 200' }] : [],
  failed,
});

describe('--reporter', () => {
  it('shows the console unless another reporter writes to standard output', () => {
    expect(readReporters({})).toEqual([{ kind: 'console' }]);
    expect(readReporters({ reporter: ['junit:a.xml', 'json:b.json'] })).toEqual([{ kind: 'console' }, { kind: 'junit', file: 'a.xml' }, { kind: 'json', file: 'b.json' }]);
    expect(readReporters({ reporter: ['junit'], out: 'r.xml' })).toEqual([{ kind: 'console' }, { kind: 'junit', file: 'r.xml' }]);
    expect(readReporters({ reporter: ['json'] })).toEqual([{ kind: 'json' }]);
    expect(readReporters({ reporter: ['console,junit:x.xml'] })).toEqual([{ kind: 'console' }, { kind: 'junit', file: 'x.xml' }]);
  });

  it('refuses what cannot work', () => {
    expect(readReporters({ reporter: ['xml'] })).toBe('--reporter xml: choose console, json or junit.');
    expect(readReporters({ reporter: ['json', 'junit'] })).toMatch(/only one reporter can write to standard output/);
    expect(readReporters({ reporter: ['console', 'json'] })).toMatch(/cannot both write to standard output/);
    expect(readReporters({ out: 'x.xml' })).toMatch(/--out goes with one --reporter json or junit/);
    expect(readReporters({ reporter: ['junit:a.xml', 'json:a.xml'] })).toBe('two reporters write to the same file.');
    expect(readReporters({ reporter: ['console:x'] })).toMatch(/takes no file/);
  });
});

describe('console report', () => {
  it('prints a line per request, failed assertions under it, progress every 10% off a terminal, and the summary', async () => {
    const out = new Sink();
    const err = new Sink();
    const reporter = new ConsoleReporter(out, err);
    reporter.started({ project: 'P', requestsPerIteration: 100, iterations: 1, startedAt: new Date(0).toISOString() });
    for (let i = 1; i <= 100; i++) await reporter.outcome(outcome(i, i === 7), { done: i, total: 100, fraction: i / 100 });
    const summary: RunSummary = { project: 'P', iterations: 1, requests: 100, failed: 1, errors: 0, assertions: { total: 1, failed: 1 }, contractFailures: 0, bailed: false, interrupted: false, durationMs: 1234, startedAt: new Date(0).toISOString() };
    reporter.finished(summary);
    expect(out.text).toContain('parley run: P, 100 requests\n');
    expect(out.text).toContain('  ok GET    API/req 1  200 OK  1.5 ms  2.0 KB\n');
    expect(out.text).toContain('  x  GET    API/req 7  200 OK  1.5 ms  2.0 KB  0/1 assertions\n       x status equals 201: got 200\n');
    expect(err.text.split('\n').filter(Boolean)).toEqual(Array.from({ length: 9 }, (_, i) => `parley run: ${(i + 1) * 10}/100 requests (${(i + 1) * 10}%)`));
    expect(out.text.trimEnd().split('\n').at(-1)).toBe('FAILED: 100 requests: 99 passed, 1 failed; assertions 0/1 passed; 1.23 s');
    expect(summaryLine({ ...summary, failed: 0, assertions: { total: 0, failed: 0 }, bailed: false })).toBe('PASSED: 100 requests: 100 passed, 0 failed; 1.23 s');
    expect(summaryLine({ ...summary, failed: 0, error: { code: 'bad-input', message: 'x' } })).toMatch(/^FAILED \(stopped: the data file could not be read on\)/);
  });

  it("shows each capture under its request: the value set (a credential's masked, a long one cut), or why nothing was", () => {
    const o: RequestOutcome = {
      ...outcome(1, false),
      captures: [
        { index: 0, name: 'token', label: '$.token (JSON body)', scope: 'session', ok: true, value: '••••••', credential: true, message: '' },
        { index: 1, name: 'orderId', label: 'header Location', scope: 'environment', ok: true, value: `/orders/${'9'.repeat(100)}`, message: "kept in memory: a run does not change the workspace's environments" },
        { index: 2, name: 'userId', label: '$.user.id (JSON body)', scope: 'session', ok: false, message: 'nothing found at $.user.id' },
      ],
      failed: true,
    };
    expect(renderOutcome(o).split('\n')).toEqual([
      '  x  GET    API/req 1  200 OK  1.5 ms  2.0 KB',
      '       set token = ••••••',
      `       set orderId = /orders/${'9'.repeat(72)}… (kept in memory: a run does not change the workspace's environments)`,
      '       x capture userId from $.user.id (JSON body): nothing found at $.user.id',
      '',
    ]);
    const summary: RunSummary = { project: 'P', iterations: 1, requests: 1, failed: 1, errors: 0, assertions: { total: 0, failed: 0 }, captures: { total: 3, failed: 1 }, contractFailures: 0, bailed: false, interrupted: false, durationMs: 10, startedAt: new Date(0).toISOString() };
    expect(summaryLine(summary)).toBe('FAILED: 1 request: 0 passed, 1 failed; captures 2/3 set; 0.01 s');
  });

  it('with one iteration per data row, names the file and shows how much of it was read', async () => {
    const out = new Sink();
    const err = new Sink();
    const reporter = new ConsoleReporter(out, err);
    reporter.started({ project: 'P', requestsPerIteration: 1, data: 'rows.csv', startedAt: new Date(0).toISOString() });
    for (let i = 1; i <= 200; i++) await reporter.outcome({ ...outcome(i), iteration: i, row: `row ${i}` }, { done: i, fraction: i / 200 });
    expect(out.text).toContain('parley run: P, 1 request for each row of rows.csv\n');
    expect(out.text).toContain('\nIteration 2, row 2\n');
    // Progress shows once the run is long (past 50 requests), by how far the file has been read.
    expect(err.text.split('\n').filter(Boolean)).toEqual(['parley run: 51 requests, 20% of the data file read', ...Array.from({ length: 8 }, (_, i) => `parley run: ${(i + 3) * 20} requests, ${(i + 3) * 10}% of the data file read`)]);
  });
});
