/**
 * `parley check` end to end: the built CLI (dist/cli.js) started as a real process, its one
 * real checker child on the msgpack bus, real definitions, bodies and HAR captures (two copied
 * from the shared corpus), a definition served over HTTP on 127.0.0.1, and the checker's pid
 * watched so that no run leaves it behind.
 * dist/ must be built first: `npm test` runs `node scripts/build.mjs` before vitest; when running
 * this file alone, build once yourself.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { alive, childrenOf, finished, type Run } from '../support/processes.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const fixtures = join(root, 'test', 'fixtures', 'cli-check');
const museum = join(fixtures, 'museum', 'openapi.yaml');
const event = join(fixtures, 'bodies', 'event.json');
const eventBad = join(fixtures, 'bodies', 'event-bad.json');
const eventPath = '/special-events/3be6453c-03eb-4357-ae5a-984a0e574a54';

function start(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [cli, 'check', ...args], { cwd: root, stdio: 'pipe' });
}

async function parley(args: string[], stdin?: string): Promise<Run> {
  const child = start(args);
  const done = finished(child);
  child.stdin.end(stdin ?? '');
  return done;
}


/** The first line the process writes on stdout. */
function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString();
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        child.stdout.off('data', onData);
        resolve(text.slice(0, nl));
      }
    };
    child.stdout.on('data', onData);
  });
}

const single = (status: number, path = eventPath) => ['--definition', museum, '--method', 'GET', '--path', path, '--status', String(status)];

describe('one response', () => {
  it('passes: exit 0, the chip label and the operation it was checked against', async () => {
    const run = await parley([...single(200), '--body', event]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Contract ✓ {2}GET \/special-events\/3be6453c-03eb-4357-ae5a-984a0e574a54 -> 200 \(application\/json\)\n/);
    expect(run.stdout).toContain('operation GET /special-events/{eventId}, response 200, media type application/json');
  });

  it('finds problems: exit 1, each as pointer and message, never quoting body values', async () => {
    const run = await parley([...single(200), '--body', eventBad]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Contract: 2 problems');
    expect(run.stdout).toContain('(body)  expected the required property "name"');
    expect(run.stdout).toContain('/price  expected number, found string');
    expect(run.stdout).not.toContain('twenty-five');
  });

  it('takes a full URL on another host; the server path prefix is removed before matching', async () => {
    const run = await parley([...single(200, `http://127.0.0.1:9/_mock/docs/openapi/museum-api${eventPath}?api_key=abc`), '--body', event, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ verdict: 'pass', problems: [], partial: false });
  });

  it('answers an undeclared status as unexpected status: exit 1, --json exactly verdict, problems, partial', async () => {
    const run = await parley([...single(503, '/museum-hours'), '--body', event, '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toEqual({ verdict: 'unexpected-status', problems: [], partial: false });
  });

  it('reads the body from standard input with --body -', async () => {
    const run = await parley([...single(200), '--body', '-', '--json'], await readFile(eventBad, 'utf8'));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      verdict: 'problems',
      problems: [
        { pointer: '', message: 'expected the required property "name"' },
        { pointer: '/price', message: 'expected number, found string' },
      ],
      partial: false,
    });
  });

  it('a body nested too deep is not checked: exit 2, the problems found before the stop, partial', async () => {
    let body: unknown = { n: 1 };
    for (let i = 1; i < 300; i++) body = { child: body };
    body = { n: 'one', ...(body as object) };
    const args = ['--definition', join(fixtures, 'deep.yaml'), '--method', 'GET', '--path', '/tree', '--status', '200', '--body', '-'];
    const json = await parley([...args, '--json'], JSON.stringify(body));
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ verdict: 'not-checked', problems: [{ pointer: '/n', message: 'expected integer, found string' }], partial: true });
    const human = await parley(args, JSON.stringify(body));
    expect(human.code).toBe(2);
    expect(human.stdout).toContain('Not checked (1 found)');
    expect(human.stdout).toContain('the body is nested more than 256 deep');
    expect(human.stdout).toContain('The check was partial');
  });

  it('a body file that is not JSON is sent as text and reported as not parsing', async () => {
    const run = await parley([...single(200), '--body', join(fixtures, 'bodies', 'not-json.txt'), '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      verdict: 'problems',
      problems: [{ pointer: '', message: expect.stringMatching(/^expected valid JSON; the body does not parse/) }],
      partial: false,
    });
  });

  it('--operation names the linked operation; one the definition lacks is bad input (exit 2)', async () => {
    const petstore = join(fixtures, 'petstore-separate', 'spec', 'swagger.json');
    const linked = await parley(['--definition', petstore, '--method', 'GET', '--path', '/api/pets', '--status', '500', '--operation', 'GET /pets', '--body', '-'], '{"code":1}');
    expect(linked.code).toBe(1);
    expect(linked.stdout).toContain('operation GET /pets, response default');
    expect(linked.stdout).toContain('(body)  expected the required property "message"');
    const unknown = await parley(['--definition', petstore, '--method', 'GET', '--path', '/api/pets', '--status', '200', '--operation', 'GET /cats']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('has no operation GET /cats');
  });
});

describe('definitions and usage', () => {
  it('a definition that does not load exits 2 naming the file and what is wrong', async () => {
    const broken = await parley(['--definition', join(fixtures, 'broken.yaml'), '--method', 'GET', '--path', '/a', '--status', '200']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/The definition .*broken\.yaml did not load: broken\.yaml is not valid YAML \(line \d+\)/);
    const notOpenApi = await parley(['--definition', join(fixtures, 'not-openapi.json'), '--method', 'GET', '--path', '/a', '--status', '200']);
    expect(notOpenApi.code).toBe(2);
    expect(notOpenApi.stderr).toContain('not-openapi.json has no openapi, swagger or swaggerVersion field');
    const missing = await parley(['--definition', join(fixtures, 'nowhere.yaml'), '--method', 'GET', '--path', '/a', '--status', '200']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nowhere\.yaml.*was not found/);
    // Read by the same reader as `parley mock serve <document>`, so refused in the same words.
    const swagger12 = join(root, 'test', 'fixtures', 'importers', 'openapi', 'swagger-1.2', 'singleFile.json');
    const old = await parley(['--definition', swagger12, '--method', 'GET', '--path', '/a', '--status', '200']);
    expect(old.code).toBe(2);
    expect(old.stderr).toBe(`parley check: ${swagger12} is a Swagger 1.2 document; Parley checks and mocks OpenAPI 3.x and Swagger 2.0 definitions only.\n`);
  });

  it('--help prints usage; a missing option is a usage error (exit 2)', async () => {
    const help = await parley(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('parley check --definition <file or URL> --batch');
    expect(help.stdout).toContain('Exit codes: 0 everything passed');
    const usage = await parley(['--definition', museum, '--method', 'GET']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('a single check needs --method, --path and --status');
    const both = await parley(['--definition', museum, '--batch', '-', '--har', 'x.har']);
    expect(both.code).toBe(2);
  });
});

describe('a definition read by URL, with external $refs across URLs', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const folder = join(fixtures, 'petstore-separate');
    server = createServer((req, res) => {
      const file = normalize(join(folder, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
      if (!file.startsWith(folder)) return void res.writeHead(404).end();
      readFile(file).then(
        (bytes) => res.writeHead(200, { 'content-type': 'application/json' }).end(bytes),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('checks against schemas fetched from the referenced URLs', async () => {
    const args = ['--definition', `${base}/spec/swagger.json`, '--method', 'GET', '--path', '/api/pets', '--body', '-', '--json'];
    const list = await parley([...args, '--status', '200'], '[{"id":1,"name":"Rex"},{"id":"two"}]');
    expect(list.stderr).toBe('');
    expect(list.code).toBe(1);
    expect(JSON.parse(list.stdout).problems).toEqual([
      { pointer: '/1', message: 'expected the required property "name"' },
      { pointer: '/1/id', message: 'expected integer, found string' },
    ]);
    // `default` refers to ../common/Error.json: a document at another URL than the one that refers to it.
    const error = await parley([...args, '--status', '500'], '{"code":500,"message":"boom"}');
    expect(error.code).toBe(0);
    expect(JSON.parse(error.stdout)).toEqual({ verdict: 'pass', problems: [], partial: false });
  });
});

describe('batch', () => {
  it('answers every line in order; a malformed line answers not-checked with its line number and exits 2', async () => {
    const line = (o: unknown) => JSON.stringify(o);
    const input = [
      line({ method: 'GET', path: eventPath, status: 200, contentType: 'application/json', body: JSON.parse(await readFile(event, 'utf8')) }),
      line({ method: 'GET', path: eventPath, status: 200, contentType: 'application/json', body: { name: 1 } }),
      '',
      '{"method":"GET","path":',
      line({ method: 'GET', path: '/museum-hours', status: 503, contentType: 'application/json', body: [] }),
      line({ method: 'GET', path: '/museum-hours', status: 200, contentType: 'application/json', bodyText: '{oops' }),
      line({ method: 'GET', path: '/museum-hours', status: 200, contentType: 'text/html', bodyText: '<p>hours</p>' }),
      line({ method: 'GET', path: '/museum-hours', status: 'ok' }),
      line({ method: 'GET', path: '/special-events', status: 200, contentType: 'application/json', body: [] }),
    ].join('\n');
    const run = await parley(['--definition', museum, '--batch', '-'], input);
    expect(run.code).toBe(2);
    const answers = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(answers.map((a) => a.verdict)).toEqual(['pass', 'problems', 'not-checked', 'unexpected-status', 'problems', 'none', 'not-checked', 'pass']);
    expect(answers[1].problems).toContainEqual({ pointer: '/name', message: 'expected string, found number' });
    expect(answers[2]).toEqual({ verdict: 'not-checked', problems: [], partial: false, error: 'line 4: not valid JSON' });
    expect(answers[6]).toEqual({ verdict: 'not-checked', problems: [], partial: false, error: 'line 8: "status" must be an integer from 100 to 999' });
    expect(Object.keys(answers[0])).toEqual(['verdict', 'problems', 'partial']);
    expect(run.stderr).toContain('8 checks: 2 pass, 2 with problems, 1 unexpected status, 1 no check, 2 unreadable');
  });

  it('5,000 lines through one checker process come back in input order', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const price = i % 7 === 0 ? `${i}` : i;
      lines.push(JSON.stringify({ method: 'GET', path: `/special-events/${i}`, status: 200, contentType: 'application/json', body: { name: `n${i}`, location: 'l', eventDescription: 'd', dates: ['2024-01-01'], price } }));
    }
    const run = await parley(['--definition', museum, '--batch', '-'], lines.join('\n') + '\n');
    expect(run.code).toBe(1);
    const answers = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { verdict: string });
    expect(answers).toHaveLength(5000);
    const wrong = answers.map((a, i) => (a.verdict === (i % 7 === 0 ? 'problems' : 'pass') ? -1 : i)).filter((i) => i >= 0);
    expect(wrong).toEqual([]);
  }, 90_000);
});

describe('batch with runaway checks', () => {
  it('200 lines with 20 that run past the budget: exactly those 20 are not checked, the checks queued behind them keep theirs', async () => {
    const runaway = `${'a'.repeat(36)}!`;
    const lines: string[] = [];
    for (let i = 0; i < 200; i++) {
      // Every tenth line runs until its worker is killed; the next one has a runaway string the
      // linear engine answers at once (a problem); the rest pass.
      const body = i % 10 === 3 ? { guarded: runaway } : i % 10 === 4 ? { nested: runaway } : { nested: 'aaa', guarded: 'aaa' };
      lines.push(JSON.stringify({ method: 'GET', path: '/words', status: 200, contentType: 'application/json', body }));
    }
    const run = await parley(['--definition', join(fixtures, 'runaway.yaml'), '--batch', '-'], lines.join('\n') + '\n');
    const answers = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { verdict: string; problems: { pointer: string }[] });
    expect(answers).toHaveLength(200);
    const expected = answers.map((_, i) => (i % 10 === 3 ? 'not-checked' : i % 10 === 4 ? 'problems' : 'pass'));
    expect(answers.map((a) => a.verdict)).toEqual(expected);
    expect(answers[4]!.problems).toEqual([{ pointer: '/nested', message: 'expected to match the pattern ^(a+)+$' }]);
    expect(run.stderr).toContain('200 checks: 160 pass, 20 with problems, 20 not checked');
    expect(run.code).toBe(2);
  }, 180_000);
});

describe('HAR capture', () => {
  const pets = join(fixtures, 'har', 'pets-api.yaml');
  const recorded = join(fixtures, 'har', 'recorded-api.har');
  const mitmproxyApi = join(fixtures, 'har', 'mitmproxy-data.yaml');

  it('summarises per operation: counts, first problems, no operation, not JSON (exit 2: a body was not recorded)', async () => {
    const run = await parley(['--definition', pets, '--har', recorded]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('recorded-api.har: 9 entries, 6 JSON exchanges checked against Pets');
    expect(run.stdout).toContain('2 not JSON, 1 without a response');
    expect(run.stdout).toMatch(/GET \/pets +1 +0 +0 +0 +0 +0\n/);
    expect(run.stdout).toMatch(/GET \/pets\/\{petId\} +1 +1 +1 +0 +0 +1\n/);
    expect(run.stdout).toContain('No operation: 1 (GET /v1/owners/1)');
    expect(run.stdout).toContain('entries[1] -> 200  /id  expected integer, found string');
    expect(run.stdout).toContain('entries[2] -> 404  unexpected status 404');
    expect(run.stdout).toContain('entries[6] -> 200  not checked: the capture did not record this response body');
    // The recorded query key and the body values never appear.
    for (const secret of ['api_key', 'Rex', 'Tom', '"two"']) expect(run.stdout).not.toContain(secret);
  });

  it('--json prints one object with the same summary', async () => {
    const run = await parley(['--definition', pets, '--har', recorded, '--json']);
    expect(run.code).toBe(2);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      har: 'recorded-api.har',
      entries: 9,
      checked: 6,
      notJson: 2,
      noResponse: 1,
      noOperation: { count: 1, requests: ['GET /v1/owners/1'] },
      totals: { pass: 2, problems: 1, 'unexpected-status': 1, 'no-schema': 0, skipped: 0, 'not-checked': 1 },
      invalid: [],
    });
    expect(summary.operations.map((op: { operation: string }) => op.operation)).toEqual(['GET /pets', 'GET /pets/{petId}']);
    expect(summary.operations[1]).toEqual({
      operation: 'GET /pets/{petId}',
      counts: { pass: 1, problems: 1, 'unexpected-status': 1, 'no-schema': 0, skipped: 0, 'not-checked': 1 },
      firstProblems: [
        { entry: 1, status: 200, pointer: '', message: 'expected the required property "name"' },
        { entry: 1, status: 200, pointer: '/id', message: 'expected integer, found string' },
        { entry: 2, status: 404, message: 'unexpected status 404' },
        { entry: 6, status: 200, message: 'not checked: the capture did not record this response body' },
      ],
    });
  });

  it('a real capture (mitmproxy, httpbin POST) with problems exits 1', async () => {
    const run = await parley(['--definition', mitmproxyApi, '--har', join(fixtures, 'har', 'successful_log.har')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/POST \/post +0 +1 +0 +0 +0 +0\n/);
    expect(run.stdout).toContain('entries[1] -> 200  /json  expected object, found null');
  });

  it('a real browser capture (Firefox) with a 304 for a JSON resource: unexpected status, exit 1', async () => {
    const run = await parley(['--definition', mitmproxyApi, '--har', join(fixtures, 'har', 'firefox.har'), '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      entries: 14,
      checked: 1,
      notJson: 13,
      operations: [{ operation: 'GET /data/github-stats.json', counts: { 'unexpected-status': 1 }, firstProblems: [{ entry: 12, status: 304, message: 'unexpected status 304' }] }],
    });
  });

  it('exchanges matching no operation are counted under "no operation" and break nothing (exit 0)', async () => {
    const run = await parley(['--definition', museum, '--har', join(fixtures, 'har', 'successful_log.har'), '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ checked: 1, operations: [], noOperation: { count: 1, requests: ['POST /post'] } });
  });

  it('a file that is not a HAR exits 2 saying so', async () => {
    const run = await parley(['--definition', museum, '--har', museum]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('Stopped early:');
    expect(run.stdout).toContain('is not a readable HAR capture');
  });
});

describe('the checker process', () => {
  async function startedBatch(): Promise<{ child: ChildProcessWithoutNullStreams; checker: number; done: Promise<Run> }> {
    const child = start(['--definition', museum, '--batch', '-']);
    const answered = firstLine(child);
    const done = finished(child);
    child.stdin.write(JSON.stringify({ method: 'GET', path: eventPath, status: 200, contentType: 'application/json', body: {} }) + '\n');
    expect(JSON.parse(await answered)).toMatchObject({ verdict: 'problems' });
    const checkers = await childrenOf(child.pid!, 'checker.js');
    expect(checkers).toHaveLength(1);
    return { child, checker: checkers[0]!, done };
  }

  async function gone(pid: number): Promise<boolean> {
    for (let i = 0; i < 20 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    return !alive(pid);
  }

  it('is one child for the whole run and is gone when the command exits', async () => {
    const { child, checker, done } = await startedBatch();
    child.stdin.end(JSON.stringify({ method: 'GET', path: '/museum-hours', status: 200, contentType: 'application/json', body: [] }) + '\n');
    const run = await done;
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toHaveLength(2);
    expect(await gone(checker)).toBe(true);
  });

  it('is stopped when the command gets SIGTERM mid-run (exit 143)', async () => {
    const { child, checker, done } = await startedBatch();
    child.kill('SIGTERM');
    const run = await done;
    expect(run.code).toBe(143);
    expect(await gone(checker)).toBe(true);
  });

  it('is stopped on Ctrl+C (SIGINT, exit 130)', async () => {
    const { child, checker, done } = await startedBatch();
    child.kill('SIGINT');
    const run = await done;
    expect(run.code).toBe(130);
    expect(await gone(checker)).toBe(true);
  });
});
