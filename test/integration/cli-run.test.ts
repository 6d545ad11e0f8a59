/**
 * `parley run` end to end: the built CLI (dist/cli.js) as a real process with its own headless
 * supervisor, sender and checker, against a real HTTP server on 127.0.0.1. Assertions that pass
 * and fail, contract problems with and without --fail-on-contract, a network error, an
 * unresolved variable, --bail, --data CSV and JSON (read as the run goes: a FIFO still being
 * written, a bad row reported once reached), the JUnit XML's shape, secrets from
 * PARLEY_SECRET_*, cookies by each request's Send cookies, a kill -9 of the sender mid-run, and
 * no child left running after exit. dist/ must be built first (npm test does).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { alive, childrenOf, finished, type Run } from '../support/processes.js';
import { until } from '../support/until.js';
import { startHttps, type RunningServer } from '../../processes/sender/engine/test-support/servers.js';
import { assertion, row, writeEnvironments, writeRunProject } from '../support/run-project.js';
import { PETS_DEFINITION, startRunServer, type RunServer } from '../support/run-server.js';
import { KeychainSecrets } from '../../processes/supervisor/store/secrets.js';
import { keyringMissing } from '../support/keyring.js';

const missingKeyring = await keyringMissing();
if (missingKeyring) console.warn(`Skipping the keychain secret test of parley run: ${missingKeyring}`);

const cli = join(repoRoot(), 'dist', 'cli.js');
const TOKEN = 'tok-7d1e9a3c55b2'; // must never appear in any output or report
const SLOW = { timeout: 120_000 };

let work: string;
let home: string;
let project: string;
let server: RunServer;
let base: string;
let deadUrl: string;
let tls: RunningServer;
const running = new Set<ChildProcessWithoutNullStreams>();
/** The row numbers the Rows API's request named, as the server saw them. */
const rowsSeen: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-cli-run-'));
  home = join(work, 'home');
  project = join(work, 'project');
  server = await startRunServer((req, url, json, res) => {
    if (url.pathname === '/whoami') json(200, { seen: req.headers.authorization ?? '' });
    else if (url.pathname === '/cookie/set') json(200, {}, { 'set-cookie': 'sid=abc123; Path=/' });
    else if (url.pathname === '/cookie/read') json(200, { cookie: req.headers.cookie ?? '' });
    else if (url.pathname === '/large') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(11 * 1024 * 1024, 7));
    else if (url.pathname.startsWith('/rows/')) {
      rowsSeen.push(url.pathname.slice(6));
      json(200, { row: url.pathname.slice(6) });
    } else return false;
    return true;
  });
  base = server.base;
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
  deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/gone`;
  await new Promise((resolve) => dead.close(resolve));

  tls = await startHttps((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"secure":true}'), 'self-signed');

  await writeEnvironments(home, [
    { name: 'test', variables: [row('base', base)] },
    { name: 'other', variables: [row('base', 'http://127.0.0.1:9')] },
  ], 'other');
  await writeRunProject(join(project), [
    {
      name: 'Main',
      baseUrl: '${base}',
      definition: PETS_DEFINITION,
      requests: [
        { folder: 'cookies', name: '1 set', url: '/cookie/set' },
        { folder: 'cookies', name: '2 read with cookies', url: '/cookie/read', assertions: [assertion({ path: '$.cookie', value: 'sid=abc123' })], edit: (r) => void (r.settings.sendCookies = true) },
        { folder: 'cookies', name: '3 read without', url: '/cookie/read', assertions: [assertion({ path: '$.cookie', value: '""' })] },
        {
          name: '01 pass',
          url: '/pets/1',
          assertions: [assertion({ source: 'status', value: '200' }), assertion({ path: '$.name', value: 'Rex' }), assertion({ source: 'time', op: 'less', value: '60000' }), assertion({ path: '$.id', op: 'exists' })],
        },
        { name: '02 assertion fails', url: '/pets/1', assertions: [assertion({ path: '$.name', value: 'Max' }), assertion({ source: 'status', op: 'less', value: '300' })] },
        { name: '03 contract problems', url: '/pets/2' },
        { name: '04 unresolved', url: '/pets/${missingId}' },
        { name: '05 network error', url: deadUrl },
        {
          name: '06 secret',
          url: '/whoami',
          assertions: [assertion({ path: '$.seen', value: 'nope' })],
          edit: (r) => void (r.auth = { type: 'bearer', token: '${secret:ci/token}' }),
        },
      ],
    },
    {
      name: 'Data',
      baseUrl: '${base}',
      requests: [{ name: 'pet by row', url: '/pets/${petId}', assertions: [assertion({ path: '$.name', value: '${petName}' })] }],
    },
    {
      name: 'Rows',
      baseUrl: '${base}',
      requests: [{ name: 'row', url: '/rows/${n}', assertions: [assertion({ path: '$.row', value: '${n}' })] }],
    },
    {
      name: 'Net',
      baseUrl: '${base}',
      requests: [
        { name: 'hang', url: '/slow' },
        { name: 'large', url: '/large', assertions: [assertion({ source: 'status', value: '200' })] },
        { name: 'keychain', url: '/whoami', assertions: [assertion({ path: '$.seen', value: 'Bearer wrong' })], edit: (r) => void (r.auth = { type: 'bearer', token: '${secret:ci/keyed}' }) },
        { name: 'tls', url: '', edit: (r) => void (r.url = `${tls.url}/secure`), assertions: [assertion({ path: '$.secure', value: 'true' })] },
      ],
    },
    {
      name: 'Slow',
      baseUrl: '${base}',
      requests: [
        { name: 'a slow one', url: '/slow' },
        { name: 'b after it', url: '/pets/1', assertions: [assertion({ source: 'status', value: '200' })] },
      ],
    },
  ]);
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await server?.close();
  await tls?.close();
  await rm(work, { recursive: true, force: true });
});

function start(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [cli, 'run', ...args], { stdio: 'pipe', env: { ...process.env, PARLEY_HOME: home, PARLEY_SECRET_CI_TOKEN: TOKEN } });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.stdin.end();
  return child;
}

const parley = (args: string[]): Promise<Run> => finished(start(args));

function noSecret(...texts: string[]) {
  for (const text of texts) expect(text).not.toContain(TOKEN);
}

describe('parley run', () => {
  it('runs an API in the project order and reports assertions, contract verdicts, errors; JUnit and JSON reports', SLOW, async () => {
    const junit = join(work, 'main.xml');
    const json = join(work, 'main.json');
    const run = await parley([project, '--api', 'Main', '--env', 'test', '--reporter', `junit:${junit}`, '--reporter', `json:${json}`]);
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stdout.split('\n').filter((l) => /^ {2}(ok|x) /.test(l));
    expect(lines.map((l) => l.replace(/^ {2}(ok|x) +\w+ +(\S.*?) {2}.*$/, '$1 $2'))).toEqual([
      'ok Main/cookies/1 set',
      'ok Main/cookies/2 read with cookies',
      'ok Main/cookies/3 read without',
      'ok Main/01 pass',
      'x Main/02 assertion fails',
      'ok Main/03 contract problems',
      'x Main/04 unresolved',
      'x Main/05 network error',
      'x Main/06 secret',
    ]);
    expect(run.stdout).toMatch(/01 pass {2}200 OK {2}[\d.]+ ms {2}\d+ B {2}Contract ✓ {2}4\/4 assertions/);
    expect(run.stdout).toContain('x $.name equals Max: got "Rex"');
    expect(run.stdout).toMatch(/03 contract problems {2}200 OK .*Contract: \d+ problems?/);
    expect(run.stdout).toContain('contract /id:');
    expect(run.stdout).toContain('${missingId} is not defined');
    expect(run.stdout).toMatch(/05 network error {2}ERROR/);
    expect(run.stdout).toContain('FAILED: 9 requests: 5 passed, 4 failed; 2 not sent or no response; assertions 7/9 passed; contract problems in 1 response;');
    expect(run.stdout).toContain('x $.seen equals nope: got "Bearer ${secret:ci/token}"');

    const report = JSON.parse(await readFile(json, 'utf8')) as { summary: Record<string, unknown>; outcomes: { request: { name: string }; failed: boolean; contract?: { kind: string } }[] };
    expect(report.summary).toMatchObject({ project: 'Run test', environment: 'test', requests: 9, failed: 4, errors: 2, contractFailures: 1 });
    expect(report.outcomes.find((o) => o.request.name === '03 contract problems')).toMatchObject({ failed: false, contract: { kind: 'problems' } });

    const xml = await readFile(junit, 'utf8');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(xml) as {
      testsuites: { tests: string; failures: string; errors: string; testsuite: { tests: string; failures: string; errors: string; testcase: { name: string; classname: string; time: string; failure?: { message: string; type: string; '#text': string }; error?: { message: string; type: string } }[] }[] };
    };
    expect(parsed.testsuites).toMatchObject({ tests: '9', failures: '2', errors: '2' });
    const suite = parsed.testsuites.testsuite[0]!;
    expect(suite).toMatchObject({ tests: '9', failures: '2', errors: '2' });
    expect(suite.testcase).toHaveLength(9);
    expect(suite.testcase[4]).toMatchObject({ name: 'GET 02 assertion fails', classname: 'Main', failure: { message: '1 of 2 assertions failed', type: 'assertion' } });
    expect(suite.testcase[4]!.failure!['#text']).toContain('$.name equals Max: got "Rex"');
    expect(suite.testcase[6]!.error).toMatchObject({ type: 'unresolved' });
    expect(suite.testcase[7]!.error).toBeDefined();
    expect(suite.testcase[3]!.failure).toBeUndefined();
    noSecret(run.stdout, run.stderr, xml, await readFile(json, 'utf8'));
  });

  it('fails on contract problems with --fail-on-contract, and not without', SLOW, async () => {
    const strict = await parley([project, '--env', 'test', '--request', '03 contract problems', '--fail-on-contract']);
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stdout).toContain('FAILED: 1 request: 0 passed, 1 failed');
    const lenient = await parley([project, '--env', 'test', '--request', 'Main/03 contract problems', '--request', '01 pass']);
    expect(lenient.code, lenient.stdout).toBe(0);
    expect(lenient.stdout).toContain('PASSED: 2 requests: 2 passed, 0 failed');
  });

  it('stops at the first failure with --bail', SLOW, async () => {
    const run = await parley([project, '--api', 'Main', '--env', 'test', '--bail', '--reporter', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { summary: { bailed: boolean; requests: number }; outcomes: { request: { name: string } }[] };
    expect(report.summary).toMatchObject({ bailed: true, requests: 5 });
    expect(report.outcomes.at(-1)!.request.name).toBe('02 assertion fails');
  });

  it('runs one iteration per data row, CSV or JSON, and names the row', SLOW, async () => {
    const csv = join(work, 'rows.csv');
    await writeFile(csv, 'petId,petName\n1,Rex\n1,"Max, the dog"\n');
    const fromCsv = await parley([project, '--api', 'Data', '--env', 'test', '--data', csv]);
    expect(fromCsv.code).toBe(1);
    expect(fromCsv.stdout).toContain('Iteration 1, row 1 (petId=1, petName=Rex)');
    expect(fromCsv.stdout).toContain('Iteration 2, row 2 (petId=1, petName=Max, the dog)');
    expect(fromCsv.stdout).toContain('x $.name equals ${petName}: got "Rex"');
    expect(fromCsv.stdout).toContain('FAILED: 2 requests: 1 passed, 1 failed');

    const jsonFile = join(work, 'rows.json');
    await writeFile(jsonFile, JSON.stringify([{ petId: 1, petName: 'Rex' }, { petId: '1', petName: 'Rex' }]));
    const junit = join(work, 'data.xml');
    const fromJson = await parley([project, '--api', 'Data', '--env', 'test', '--data', jsonFile, '--reporter', 'junit', '--out', junit]);
    expect(fromJson.code, fromJson.stdout).toBe(0);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('<testsuite name="Run test (iteration 2, row 2 (petId=1, petName=Rex))"');
    expect(xml).toContain('<testcase name="GET pet by row [row 1 (petId=1, petName=Rex)]" classname="Data"');
  });

  it('sends the first row while the data file is still being written, and reports a bad row only once it is reached', SLOW, async () => {
    // A FIFO: nothing after row 2 exists until the server has seen row 1's request (csv-parse
    // holds the last character it has until the next arrives, to tell where a line ends).
    const fifo = join(work, 'rows-fifo.csv');
    execFileSync('mkfifo', [fifo]);
    const ROWS = 400;
    rowsSeen.length = 0;
    const child = start([project, '--api', 'Rows', '--env', 'test', '--data', fifo, '--reporter', 'json']);
    const done = finished(child);
    const writer = createWriteStream(fifo);
    writer.write('n,label\n1,row 1\n2,row 2\n');
    await until(() => rowsSeen.length === 1, 60_000, () => `the server saw ${rowsSeen.length} requests; parley said: ${child.stderr.read() ?? ''}`);
    // Many more rows, then one that is not CSV (an unclosed quote), then the rest of the file.
    for (let n = 3; n <= ROWS; n++) writer.write(`${n},row ${n}\n`);
    writer.end(`${ROWS + 1},"unclosed\n${ROWS + 2},never\n`);
    const run = await done;
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`--data ${fifo} is not valid CSV: Quote Not Closed`);
    expect(rowsSeen).toEqual(Array.from({ length: ROWS }, (_, i) => String(i + 1)));
    const report = JSON.parse(run.stdout) as { summary: { iterations: number; requests: number; failed: number; error?: { message: string } }; outcomes: { iteration: number; row: string; failed: boolean }[] };
    expect(report.summary).toMatchObject({ iterations: ROWS, requests: ROWS, failed: 0 });
    expect(report.summary.error?.message).toMatch(/Quote Not Closed/);
    expect(report.outcomes.at(-1)).toMatchObject({ iteration: ROWS, row: `row ${ROWS} (n=${ROWS}, label=row ${ROWS})`, failed: false });
  });

  it('sends the rows of a JSON data file before a later item that is refused', SLOW, async () => {
    const file = join(work, 'late-bad.json');
    const GOOD = 150;
    await writeFile(file, JSON.stringify([...Array.from({ length: GOOD }, (_, i) => ({ n: i + 1 })), { n: { nested: true } }, { n: GOOD + 2 }]));
    rowsSeen.length = 0;
    const run = await parley([project, '--api', 'Rows', '--env', 'test', '--data', file, '--reporter', 'junit']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`--data ${file}: item ${GOOD + 1}, "n" is not a string, number, boolean or null.`);
    expect(rowsSeen).toHaveLength(GOOD);
    expect(run.stdout).toMatch(new RegExp(`<testsuites name="parley run: Run test" tests="${GOOD}" failures="0" errors="0"`));
  });

  it('leaves no spooled body behind: a response over the inline limit is let go once checked', SLOW, async () => {
    const spool = join(work, 'spool');
    const child = spawn(process.execPath, [cli, 'run', project, '--env', 'test', '--api', 'Net', '--request', 'large', '--iterations', '3'], { stdio: 'pipe', env: { ...process.env, PARLEY_HOME: home, PARLEY_SPOOL_DIR: spool } });
    running.add(child);
    child.stdin.end();
    const run = await finished(child);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/large {2}200 OK .* 11\.0 MB {2}1\/1 assertions/);
    expect(await readdir(join(spool, 'parley-spool'))).toEqual([]);
  });

  it('reports a sender killed with SIGKILL mid-run, goes on, and leaves no child behind', SLOW, async () => {
    const arrived = new Promise<void>((resolve) => (server.onSlow = resolve));
    const child = start([project, '--api', 'Slow', '--env', 'test']);
    const done = finished(child);
    await arrived;
    const senders = await childrenOf(child.pid!, 'sender.js');
    const checkers = await childrenOf(child.pid!, 'checker.js');
    expect(senders).toHaveLength(1);
    // No request of this API needs a contract check or a body assertion: the checker is not started.
    expect(checkers).toHaveLength(0);
    process.kill(senders[0]!, 'SIGKILL');
    const run = await done;
    server.slow.splice(0).forEach((answer) => answer());
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/a slow one {2}ERROR\n.*sender process/);
    expect(run.stdout).toMatch(/ok +GET +Slow\/b after it {2}200 OK/);
    const all = [...senders, ...checkers];
    await until(() => all.every((pid) => !alive(pid)), 10_000, () => `still running: ${all.filter(alive).join(', ')}`);
    expect(await childrenOf(child.pid!, '.js')).toEqual([]);
  });

  it('accepts a self-signed certificate only with --insecure; --timeout, --iterations and --delay', SLOW, async () => {
    const strict = await parley([project, '--env', 'test', '--api', 'Net', '--request', 'tls', '--reporter', 'json']);
    expect(strict.code).toBe(1);
    const refused = JSON.parse(strict.stdout) as { outcomes: { error?: { message: string } }[] };
    expect(refused.outcomes[0]!.error!.message).toMatch(/certificate/i);
    const insecure = await parley([project, '--env', 'test', '--api', 'Net', '--request', 'tls', '--insecure', '--iterations', '2', '--delay', '50', '--reporter', 'json']);
    expect(insecure.code, insecure.stdout).toBe(0);
    const report = JSON.parse(insecure.stdout) as { summary: { iterations: number; requests: number }; outcomes: { iteration: number; response: { status: number } }[] };
    expect(report.summary).toMatchObject({ iterations: 2, requests: 2 });
    expect(report.outcomes.map((o) => [o.iteration, o.response.status])).toEqual([
      [1, 200],
      [2, 200],
    ]);
    const hung = await parley([project, '--env', 'test', '--api', 'Net', '--request', 'hang', '--timeout', '300', '--reporter', 'json']);
    server.slow.splice(0).forEach((answer) => answer());
    expect(hung.code).toBe(1);
    const timedOut = JSON.parse(hung.stdout) as { outcomes: { error?: { code: string; message: string } }[] };
    expect(timedOut.outcomes[0]!.error!.message).toMatch(/300 ms/);
  });

  it.skipIf(missingKeyring !== null)('reads a secret from the keychain when no PARLEY_SECRET_ variable names it, and never prints it', SLOW, async () => {
    const KEYED = 'kc-5b1f0e7a93';
    const secrets = new KeychainSecrets(home);
    await secrets.set('ci/keyed', KEYED);
    try {
      const run = await parley([project, '--env', 'test', '--api', 'Net', '--request', 'keychain']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('x $.seen equals Bearer wrong: got "Bearer ${secret:ci/keyed}"');
      expect(run.stdout + run.stderr).not.toContain(KEYED);
    } finally {
      await secrets.delete('ci/keyed');
    }
  });

  it('refuses bad usage and a folder that is not a project with exit 2', SLOW, async () => {
    const bad = await parley([project, '--reporter', 'xml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--reporter xml: choose console, json or junit.');
    const none = await parley([join(work, 'nowhere')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/is not a Parley project/);
    const env = await parley([project, '--env', 'prod']);
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('no environment named prod. Its environments: test, other.');
    const help = await parley(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes: 0 every request passed; 1 a request failed/);
  });
});
