import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { JsonReporter, JunitReporter, junitClassname, junitTestName } from './file-reporters.js';
import type { RequestOutcome, RunReport, RunReporter, RunStart } from './report.js';
import { writeXml, type XmlElement } from './xml-writer.js';

let work: string;
beforeAll(async () => void (work = await mkdtemp(join(tmpdir(), 'parley-file-reporters-'))));
afterAll(() => rm(work, { recursive: true, force: true }));

const startedAt = '2026-11-28T03:00:00.123Z';

function outcomes(iterations: number, rows: boolean): RequestOutcome[] {
  const out: RequestOutcome[] = [];
  for (let iteration = 1; iteration <= iterations; iteration++) {
    const row = rows ? { row: `row ${iteration} (user=ann <&> "x")` } : {};
    out.push(
      { iteration, ...row, request: { id: 'r1', name: 'ok', path: 'API/f/ok', api: 'API', folders: ['f'], method: 'GET', url: 'http://127.0.0.1/ok' }, response: { status: 200, statusText: 'OK', timeMs: 1.25, size: 10 }, assertions: [{ index: 0, label: 'status equals 200', passed: true, message: '' }], contract: { kind: 'pass', label: 'Contract ✓', problems: [] }, failed: false },
      {
        iteration,
        ...row,
        request: { id: 'r2', name: 'bad', path: 'API/bad', api: 'API', folders: [], method: 'POST', url: 'http://127.0.0.1/bad?q=<x>' },
        response: { status: 500, statusText: 'Server Error', timeMs: 3.5, size: 0 },
        assertions: [{ index: 0, label: '$.a equals "b\u0007"', passed: false, message: 'got ]]> & "\n"' }],
        contract: { kind: 'problems', label: 'Contract: 1 problem', problems: [{ pointer: '/id', message: 'must be integer' }] },
        failed: true,
      },
      { iteration, ...row, request: { id: 'r3', name: 'down', path: 'API/down', api: 'API', folders: [], method: 'GET', url: 'http://127.0.0.1:9/' }, error: { code: 'connection-refused', message: 'Nothing answered at 127.0.0.1:9.' }, assertions: [], failed: true },
    );
  }
  return out;
}

function reportOf(list: RequestOutcome[], iterations: number): RunReport {
  return {
    summary: { project: 'P & "Q"', environment: 'test', iterations, requests: list.length, failed: list.filter((o) => o.failed).length, errors: list.filter((o) => o.error).length, assertions: { total: list.length - list.length / 3, failed: list.length / 3 }, contractFailures: list.length / 3, bailed: false, interrupted: false, durationMs: 1234, startedAt },
    outcomes: list,
  };
}

/** The JUnit document built whole from the report, as `parley run` wrote it before its reports were streamed. */
function wholeJunit(report: RunReport): string {
  const { summary } = report;
  const byIteration = new Map<number, RequestOutcome[]>();
  for (const o of report.outcomes) {
    let list = byIteration.get(o.iteration);
    if (!list) byIteration.set(o.iteration, (list = []));
    list.push(o);
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const testcase = (o: RequestOutcome): XmlElement => {
    const children: XmlElement[] = [];
    if (o.error) children.push({ name: 'error', attributes: { message: o.error.message, type: o.error.code }, text: `${o.request.method} ${o.request.url}\n${o.error.message}` });
    else if (o.failed) {
      const failed = o.assertions.filter((a) => !a.passed);
      const contractFailed = o.contract && (o.contract.kind === 'problems' || o.contract.kind === 'unexpected-status');
      const message = [failed.length > 0 ? `${failed.length} of ${o.assertions.length} assertions failed` : '', contractFailed ? o.contract!.label : ''].filter(Boolean).join('; ');
      const details = [...failed.map((a) => `${a.label}: ${a.message}`), ...(contractFailed ? o.contract!.problems.map((p) => `contract ${p.pointer || '/'}: ${p.message}`) : [])];
      children.push({ name: 'failure', attributes: { message, type: failed.length > 0 ? 'assertion' : 'contract' }, text: details.join('\n') });
    }
    const lines = [`${o.request.method} ${o.request.url}`];
    if (o.response) lines.push(`${o.response.status} ${o.response.statusText} ${o.response.timeMs} ms ${o.response.size} bytes${o.contract ? ` ${o.contract.label}` : ''}`);
    for (const a of o.assertions) lines.push(`${a.passed ? 'passed' : 'failed'}: ${a.label}${a.passed ? '' : `: ${a.message}`}`);
    children.push({ name: 'system-out', text: lines.join('\n') });
    return { name: 'testcase', attributes: { name: junitTestName(o), classname: junitClassname(o.request.api, o.request.folders), time: seconds(o.response?.timeMs ?? 0) }, children };
  };
  return writeXml({
    name: 'testsuites',
    attributes: { name: `parley run: ${summary.project}`, tests: summary.requests, failures: summary.failed - summary.errors, errors: summary.errors, time: seconds(summary.durationMs) },
    children: [...byIteration].map(([iteration, list]) => ({
      name: 'testsuite',
      attributes: {
        name: `${summary.project}${summary.iterations > 1 || list[0]?.row ? ` (iteration ${iteration}${list[0]?.row ? `, ${list[0].row}` : ''})` : ''}`,
        tests: list.length,
        failures: list.filter((o) => o.failed && !o.error).length,
        errors: list.filter((o) => o.error).length,
        skipped: 0,
        time: seconds(list.reduce((t, o) => t + (o.response?.timeMs ?? 0), 0)),
        timestamp: summary.startedAt.replace(/\.\d+Z$/, ''),
      },
      children: list.map(testcase),
    })),
  });
}

async function streamed(reporter: RunReporter & { open(): Promise<void> }, report: RunReport, start: Partial<RunStart> = {}): Promise<void> {
  await reporter.open();
  await reporter.started?.({ project: report.summary.project, requestsPerIteration: 3, iterations: report.summary.iterations, startedAt, ...start });
  let done = 0;
  for (const o of report.outcomes) await reporter.outcome?.(o, { done: ++done });
  await reporter.finished?.(report.summary);
}

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

describe('file reports written as the run goes', () => {
  for (const [iterations, rows] of [
    [0, false],
    [1, false],
    [3, false],
    [2, true],
  ] as const) {
    it(`are byte for byte the document built whole: ${iterations} iteration(s)${rows ? ' with data rows' : ''}`, async () => {
      const report = reportOf(outcomes(iterations, rows), Math.max(1, iterations));
      const json = join(work, `r${iterations}${rows}.json`);
      const xml = join(work, `r${iterations}${rows}.xml`);
      await streamed(new JsonReporter({ file: json }), report);
      await streamed(new JunitReporter({ file: xml }), report, rows ? { iterations: undefined, data: 'rows.csv' } : {});
      expect(await readFile(json, 'utf8')).toBe(`${JSON.stringify(report, null, 2)}\n`);
      expect(await readFile(xml, 'utf8')).toBe(wholeJunit(report));
    });
  }

  it('go to standard output whole, and leave no temp file behind, written or abandoned', async () => {
    const before = (await readdir(tmpdir())).filter((n) => n.startsWith('parley-run-report-')).length;
    const report = reportOf(outcomes(2_000, false), 2_000);
    const out = new Sink();
    await streamed(new JsonReporter({ stream: out }), report);
    expect(JSON.parse(out.text)).toEqual(report);
    const abandoned = new JunitReporter({ file: join(work, 'abandoned.xml') });
    await abandoned.open();
    abandoned.started({ project: 'P', requestsPerIteration: 3, iterations: 2_000, startedAt });
    for (const o of report.outcomes) await abandoned.outcome(o);
    await abandoned.abandon();
    expect((await readdir(tmpdir())).filter((n) => n.startsWith('parley-run-report-')).length).toBe(before);
  });

  it("carry each request's captures: the value set (a credential's masked), or why nothing was, as a JUnit failure", async () => {
    const login: RequestOutcome = {
      iteration: 1,
      request: { id: 'r1', name: 'Login', path: 'API/Login', api: 'API', folders: [], method: 'POST', url: 'http://127.0.0.1/login' },
      response: { status: 200, statusText: 'OK', timeMs: 2, size: 40 },
      assertions: [],
      captures: [
        { index: 0, name: 'token', label: '$.token (JSON body)', scope: 'session', ok: true, value: '••••••', credential: true, message: '' },
        { index: 1, name: 'userId', label: '$.user.id (JSON body)', scope: 'session', ok: false, message: 'nothing found at $.user.id' },
      ],
      failed: true,
    };
    const report: RunReport = { summary: { ...reportOf([login], 1).summary, failed: 1, errors: 0, assertions: { total: 0, failed: 0 }, captures: { total: 2, failed: 1 }, contractFailures: 0 }, outcomes: [login] };
    const json = new Sink();
    const xml = new Sink();
    await streamed(new JsonReporter({ stream: json }), report);
    await streamed(new JunitReporter({ stream: xml }), report, { requestsPerIteration: 1 });
    expect(JSON.parse(json.text)).toEqual(report);
    expect(xml.text).toContain('<failure message="1 of 2 captures set nothing" type="capture">capture userId from $.user.id (JSON body): nothing found at $.user.id</failure>');
    expect(xml.text).toContain('captured: token = •••••• from $.token (JSON body)\ncapture failed: userId from $.user.id (JSON body): nothing found at $.user.id</system-out>');
  });

  it('fail before the run when the report file cannot be written', async () => {
    await expect(new JsonReporter({ file: join(work, 'no', 'such', 'folder.json') }).open()).rejects.toThrow(/ENOENT/);
  });
});

describe('JUnit names', () => {
  // A HAR import names its API after the host and each request after its method and path:
  // splitting "127.0.0.1:18080/GET /echo" on "/" gave the classname "127.0.0.1:18080.GET ".
  const place = (api: string, folders: string[], name: string, method: string): RequestOutcome => ({
    iteration: 1,
    request: { id: name, name, path: [api, ...folders, name].join('/'), api, folders, method, url: 'http://127.0.0.1:18080/echo' },
    response: { status: 200, statusText: 'OK', timeMs: 2, size: 2 },
    assertions: [],
    failed: false,
  });
  const cases = [
    place('127.0.0.1:18080', [], 'GET /echo?a=1&b=2', 'GET'),
    place('127.0.0.1:18080', [], 'post /users/{id}/roles', 'POST'),
    place(' Pet  Store v1.2 ', ['pets ', 'by id. old'], ' list  pets / all ', 'GET'),
    place('API', ['a/b'], 'Put it', 'PUT'),
  ];

  it('take the classname from the API and folders, one part each, and the name from the request, as CI tools read them', async () => {
    const file = join(work, 'names.xml');
    const reporter = new JunitReporter({ file });
    await reporter.open();
    reporter.started({ project: 'P', requestsPerIteration: cases.length, iterations: 1, startedAt });
    for (const o of cases) await reporter.outcome(o);
    await reporter.finished({ project: 'P', iterations: 1, requests: cases.length, failed: 0, errors: 0, assertions: { total: 0, failed: 0 }, contractFailures: 0, bailed: false, interrupted: false, durationMs: 8, startedAt });
    const xml = await readFile(file, 'utf8');

    // Well-formed, and valid against the attributes CI tools require (test/fixtures/junit/junit-ci.xsd).
    const here = dirname(fileURLToPath(import.meta.url));
    const schema = XmlDocument.fromString(await readFile(join(here, '../../../test/fixtures/junit/junit-ci.xsd'), 'utf8'));
    const validator = XsdValidator.fromDoc(schema);
    const doc = XmlDocument.fromString(xml);
    try {
      expect(() => validator.validate(doc)).not.toThrow();
      const testcases = doc.find('//testcase').map((n) => {
        const el = n as unknown as { attr(name: string): { value: string } | null };
        return { classname: el.attr('classname')?.value, name: el.attr('name')?.value };
      });
      expect(testcases).toEqual([
        { classname: '127_0_0_1:18080', name: 'GET /echo?a=1&b=2' },
        { classname: '127_0_0_1:18080', name: 'post /users/{id}/roles' },
        { classname: 'Pet Store v1_2.pets.by id_ old', name: 'GET list pets / all' },
        { classname: 'API.a/b', name: 'PUT Put it' },
      ]);
      // Dots only between parts; no part begins or ends with a space.
      for (const t of testcases) expect(t.classname).toMatch(/^[^.\s]([^.]*[^.\s])?(\.[^.\s]([^.]*[^.\s])?)*$/);
    } finally {
      doc.dispose();
      validator.dispose();
      schema.dispose();
    }
  });

  it('give a data row after the name, and a request that could not be read its name alone', () => {
    expect(junitTestName({ request: { ...cases[0]!.request }, row: 'row 2 (user=ann)' })).toBe('GET /echo?a=1&b=2 [row 2 (user=ann)]');
    expect(junitTestName({ request: { ...cases[0]!.request, name: 'gone', method: '' } })).toBe('gone');
    expect(junitClassname('A', [])).toBe('A');
  });
});
