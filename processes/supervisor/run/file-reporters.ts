/**
 * `--reporter json` (the RunReport: the summary, then every outcome) and `--reporter junit`
 * (JUnit XML as CI systems read it: <testsuites> with one <testsuite> per iteration, one
 * <testcase> per request, <failure> for failed assertions and captures and contract problems, <error> for a
 * request not sent or without a response). Both are written as the run goes (report-file.ts):
 * each outcome is rendered when it arrives and then let go; a JUnit suite holds its iteration's
 * rendered testcases until the iteration ends, for its totals.
 */
import type { RequestOutcome, RunReporter, RunStart, RunSummary } from './report.js';
import { DeferredHeadReport, type ReportTarget } from './report-file.js';
import { XML_DECLARATION, openTag, renderXml, type XmlElement } from './xml-writer.js';

export class JsonReporter implements RunReporter {
  private readonly report: DeferredHeadReport;
  private count = 0;

  constructor(target: ReportTarget) {
    this.report = new DeferredHeadReport(target);
  }

  open(): Promise<void> {
    return this.report.open();
  }

  async outcome(o: RequestOutcome): Promise<void> {
    // Exactly as JSON.stringify(report, null, 2) lays an item of "outcomes" out.
    await this.report.write(`${this.count++ === 0 ? '\n' : ',\n'}${indent(JSON.stringify(o, null, 2), '    ')}`);
  }

  async finished(summary: RunSummary): Promise<void> {
    const head = `{\n  "summary": ${indent(JSON.stringify(summary, null, 2), '  ').trimStart()},\n  "outcomes": [`;
    await this.report.write(this.count === 0 ? '' : '\n  ');
    await this.report.finish(head, ']\n}\n');
  }

  abandon(): Promise<void> {
    return this.report.abandon();
  }
}

export class JunitReporter implements RunReporter {
  private readonly report: DeferredHeadReport;
  private start: RunStart | undefined;
  private suite: { iteration: number; row?: string; cases: string[]; failures: number; errors: number; timeMs: number } | undefined;
  private wroteSuite = false;

  constructor(target: ReportTarget) {
    this.report = new DeferredHeadReport(target);
  }

  open(): Promise<void> {
    return this.report.open();
  }

  started(start: RunStart): void {
    this.start = start;
  }

  async outcome(o: RequestOutcome): Promise<void> {
    if (this.suite && this.suite.iteration !== o.iteration) await this.endSuite();
    this.suite ??= { iteration: o.iteration, ...(o.row ? { row: o.row } : {}), cases: [], failures: 0, errors: 0, timeMs: 0 };
    this.suite.cases.push(renderXml(testcase(o), 2));
    if (o.error) this.suite.errors++;
    else if (o.failed) this.suite.failures++;
    this.suite.timeMs += o.response?.timeMs ?? 0;
  }

  async finished(summary: RunSummary): Promise<void> {
    const wrote = this.suite !== undefined || this.wroteSuite;
    await this.endSuite();
    const root = {
      name: 'testsuites',
      attributes: {
        name: `parley run: ${summary.project}`,
        tests: summary.requests,
        failures: summary.failed - summary.errors,
        errors: summary.errors,
        time: seconds(summary.durationMs),
      },
    };
    if (!wrote) await this.report.finish(`${XML_DECLARATION}\n${renderXml(root, 0)}`, '');
    else await this.report.finish(`${XML_DECLARATION}\n${openTag(root)}\n`, '</testsuites>\n');
  }

  abandon(): Promise<void> {
    return this.report.abandon();
  }

  private async endSuite(): Promise<void> {
    const suite = this.suite;
    if (!suite) return;
    this.suite = undefined;
    this.wroteSuite = true;
    const start = this.start!;
    const open = openTag({
      name: 'testsuite',
      attributes: {
        name: `${start.project}${(start.iterations ?? 2) > 1 || suite.row ? ` (iteration ${suite.iteration}${suite.row ? `, ${suite.row}` : ''})` : ''}`,
        tests: suite.cases.length,
        failures: suite.failures,
        errors: suite.errors,
        skipped: 0,
        time: seconds(suite.timeMs),
        timestamp: start.startedAt.replace(/\.\d+Z$/, ''),
      },
    });
    await this.report.write(`  ${open}\n${suite.cases.join('')}  </testsuite>\n`);
  }
}

function testcase(o: RequestOutcome): XmlElement {
  const children: XmlElement[] = [];
  if (o.error) children.push({ name: 'error', attributes: { message: o.error.message, type: o.error.code }, text: `${o.request.method} ${o.request.url}\n${o.error.message}` });
  else if (o.failed) {
    const failed = o.assertions.filter((a) => !a.passed);
    const captures = o.captures ?? [];
    const unset = captures.filter((c) => !c.ok);
    const contractFailed = o.contract && (o.contract.kind === 'problems' || o.contract.kind === 'unexpected-status');
    const message = [
      failed.length > 0 ? `${failed.length} of ${o.assertions.length} assertions failed` : '',
      unset.length > 0 ? `${unset.length} of ${captures.length} captures set nothing` : '',
      contractFailed ? o.contract!.label : '',
    ]
      .filter(Boolean)
      .join('; ');
    const details = [
      ...failed.map((a) => `${a.label}: ${a.message}`),
      ...unset.map((c) => `capture ${c.name || '(no name)'} from ${c.label}: ${c.message}`),
      ...(contractFailed ? o.contract!.problems.map((p) => `contract ${p.pointer || '/'}: ${p.message}`) : []),
    ];
    children.push({ name: 'failure', attributes: { message, type: failed.length > 0 ? 'assertion' : unset.length > 0 ? 'capture' : 'contract' }, text: details.join('\n') });
  }
  const lines = [`${o.request.method} ${o.request.url}`];
  if (o.response) lines.push(`${o.response.status} ${o.response.statusText} ${o.response.timeMs} ms ${o.response.size} bytes${o.contract ? ` ${o.contract.label}` : ''}`);
  for (const a of o.assertions) lines.push(`${a.passed ? 'passed' : 'failed'}: ${a.label}${a.passed ? '' : `: ${a.message}`}`);
  for (const c of o.captures ?? []) lines.push(c.ok ? `captured: ${c.name} = ${c.value ?? ''} from ${c.label}${c.message ? ` (${c.message})` : ''}` : `capture failed: ${c.name || '(no name)'} from ${c.label}: ${c.message}`);
  children.push({ name: 'system-out', text: lines.join('\n') });
  return {
    name: 'testcase',
    attributes: { name: junitTestName(o), classname: junitClassname(o.request.api, o.request.folders), time: seconds(o.response?.timeMs ?? 0) },
    children,
  };
}

/**
 * The testcase's `classname`: the API and its folders down to the request, one part each, joined
 * by dots. CI tools read those dots as levels (Jenkins shows the last part as the class, the rest
 * as its package), so a dot inside a name (`127.0.0.1:18080`, `v1.2`) becomes `_`; each part is
 * trimmed and its runs of white space made one space. The parts come whole from the tree, never
 * from splitting a path: a request named `GET /echo` holds a `/`.
 */
export function junitClassname(api: string, folders: readonly string[]): string {
  return [api, ...folders]
    .map((part) => oneLine(part).replaceAll('.', '_'))
    .filter((part) => part !== '')
    .join('.');
}

/** The testcase's `name`: the request's name, after its method unless the name begins with it, then the data row. */
export function junitTestName(o: Pick<RequestOutcome, 'request' | 'row'>): string {
  const name = oneLine(o.request.name);
  const method = o.request.method;
  // `GET /echo` or `get /echo` (importers' names), not `Put it`: the method as a word, in one case.
  const begins = [method, method.toLowerCase()].some((m) => name === m || name.startsWith(`${m} `));
  const named = method === '' || begins ? name : `${method} ${name}`;
  return `${named}${o.row ? ` [${o.row}]` : ''}`;
}

function oneLine(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** Each line of JSON.stringify's output indented: its strings hold no raw line break, so lines are the layout's. */
function indent(json: string, pad: string): string {
  return pad + json.replaceAll('\n', `\n${pad}`);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
