/**
 * `--reporter json` (the whole RunReport) and `--reporter junit` (JUnit XML as CI systems read
 * it: <testsuites> with one <testsuite> per iteration, one <testcase> per request, <failure> for
 * failed assertions and contract problems, <error> for a request not sent or without a response).
 */
import type { RequestOutcome, RunReport } from './report.js';
import { writeXml, type XmlElement } from './xml-writer.js';

export function jsonReport(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export function junitReport(report: RunReport): string {
  const { summary } = report;
  const byIteration = new Map<number, RequestOutcome[]>();
  for (const o of report.outcomes) {
    let list = byIteration.get(o.iteration);
    if (!list) byIteration.set(o.iteration, (list = []));
    list.push(o);
  }
  const suites: XmlElement[] = [...byIteration].map(([iteration, outcomes]) => ({
    name: 'testsuite',
    attributes: {
      name: `${summary.project}${summary.iterations > 1 || outcomes[0]?.row ? ` (iteration ${iteration}${outcomes[0]?.row ? `, ${outcomes[0].row}` : ''})` : ''}`,
      tests: outcomes.length,
      failures: outcomes.filter((o) => o.failed && !o.error).length,
      errors: outcomes.filter((o) => o.error).length,
      skipped: 0,
      time: seconds(outcomes.reduce((t, o) => t + (o.response?.timeMs ?? 0), 0)),
      timestamp: summary.startedAt.replace(/\.\d+Z$/, ''),
    },
    children: outcomes.map(testcase),
  }));
  return writeXml({
    name: 'testsuites',
    attributes: {
      name: `parley run: ${summary.project}`,
      tests: summary.requests,
      failures: summary.failed - summary.errors,
      errors: summary.errors,
      time: seconds(summary.durationMs),
    },
    children: suites,
  });
}

function testcase(o: RequestOutcome): XmlElement {
  const folder = o.request.path.split('/').slice(0, -1).join('.');
  const children: XmlElement[] = [];
  if (o.error) children.push({ name: 'error', attributes: { message: o.error.message, type: o.error.code }, text: `${o.request.method} ${o.request.url}\n${o.error.message}` });
  else if (o.failed) {
    const failed = o.assertions.filter((a) => !a.passed);
    const contractFailed = o.contract && (o.contract.kind === 'problems' || o.contract.kind === 'unexpected-status');
    const message = [failed.length > 0 ? `${failed.length} of ${o.assertions.length} assertions failed` : '', contractFailed ? o.contract!.label : ''].filter(Boolean).join('; ');
    const details = [
      ...failed.map((a) => `${a.label}: ${a.message}`),
      ...(contractFailed ? o.contract!.problems.map((p) => `contract ${p.pointer || '/'}: ${p.message}`) : []),
    ];
    children.push({ name: 'failure', attributes: { message, type: failed.length > 0 ? 'assertion' : 'contract' }, text: details.join('\n') });
  }
  const lines = [`${o.request.method} ${o.request.url}`];
  if (o.response) lines.push(`${o.response.status} ${o.response.statusText} ${o.response.timeMs} ms ${o.response.size} bytes${o.contract ? ` ${o.contract.label}` : ''}`);
  for (const a of o.assertions) lines.push(`${a.passed ? 'passed' : 'failed'}: ${a.label}${a.passed ? '' : `: ${a.message}`}`);
  children.push({ name: 'system-out', text: lines.join('\n') });
  return {
    name: 'testcase',
    attributes: { name: `${o.request.method} ${o.request.path}${o.row ? ` [${o.row}]` : ''}`, classname: folder || o.request.path, time: seconds(o.response?.timeMs ?? 0) },
    children,
  };
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
