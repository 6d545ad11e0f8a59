/**
 * `parley mock new` and `parley mock serve <openapi-file-or-url>` end to end: the built CLI
 * (dist/cli.js) as a real process with its real mock-host child. New Mock writes the app's files
 * into a project with an imported API (and refuses with exit 2 what it cannot do; Ctrl+C while its
 * importer child samples exits 130 with nothing written and no child left); a mock made from
 * an OpenAPI document with an external $ref, read from a file and from a URL on 127.0.0.1, answers
 * real clients (undici, and the curl binary when present) with the contract's example, refuses a
 * request that breaks the contract under --check refuse, logs each request, and Ctrl+C (SIGINT)
 * stops it with no mock-host process left behind.
 * dist/ must be built first: `npm test` runs `node scripts/build.mjs` before vitest; when running
 * this file alone, build once yourself.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams, type ExecFileException } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { parse as parseYaml } from 'yaml';
import { ensureDemoProject } from '../../demo/project.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { alive, childrenOf, commandLine, finished, type Run } from '../support/processes.js';
import { until } from '../support/until.js';
import { bigOpenApi } from '../support/big-openapi.js';
import { projectWithDefinition } from '../support/big-api-project.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const fixtures = join(root, 'test', 'fixtures', 'mock-cli');
const library = join(fixtures, 'library.openapi.yaml');

let home = '';
let project = '';

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-mock-cli-'));
  project = join(home, 'project');
  // The demo project: one API imported with its definition cached, as the app's import leaves it.
  await ensureDemoProject(project, 'http://127.0.0.1:9');
  const store = await ProjectStore.open(project);
  try {
    await store.createApi({ name: 'Uncached', baseUrl: 'http://127.0.0.1:9' });
  } finally {
    await store.close();
  }
}, 30_000);

afterAll(async () => {
  await Promise.all(started.splice(0).map(stopQuietly));
  if (home) await rm(home, { recursive: true, force: true });
});

const env = () => ({ ...process.env, PARLEY_HOME: join(home, 'data') });

function parley(args: string[]): Promise<Run> {
  return finished(spawn(process.execPath, [cli, ...args], { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'] }));
}

// --- parley mock new ----------------------------------------------------------------------------

describe('parley mock new', () => {
  it('writes a mock from an imported API in the SPEC layout and lists its operations', async () => {
    const run = await parley(['mock', 'new', project, '--api', 'Pet Store', '--name', 'Pets']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const folder = join(project, 'mocks', 'Pets');
    expect(run.stdout).toContain(`files written to ${folder}`);
    expect(run.stdout).toMatch(/getPet +GET +\/pets\/\{petId\}/);

    const mockYaml = parseYaml(await readFile(join(folder, 'mock.yaml'), 'utf8')) as Record<string, unknown>;
    expect(mockYaml).toMatchObject({ version: 1, kind: 'rest', port: 0, path: '/', contractCheck: 'log' });
    const operations = await readdir(join(folder, 'operations'));
    expect(operations).toContain('getPet');
    const files = await readdir(join(folder, 'operations', 'getPet'));
    expect(files.sort()).toEqual(['Default.body.json', 'Default.response.yaml', 'operation.yaml']);
    const response = parseYaml(await readFile(join(folder, 'operations', 'getPet', 'Default.response.yaml'), 'utf8')) as Record<string, unknown>;
    expect(response).toMatchObject({ version: 1, name: 'Default', body: 'json' });

    // The files load and pass the same check the app's tab runs.
    const check = await parley(['mock', 'check', project, '--mock', 'Pets']);
    expect(check.stdout).toContain('mocks/Pets: clean');
    expect(check.code).toBe(0);
  }, 60_000);

  it('prints the report as JSON with --json, the name defaulting to the API name', async () => {
    const run = await parley(['mock', 'new', project, '--api', 'pet store', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { mock: string; folder: string; files: string[]; operations: { name: string; method: string; path: string; responses: { status: number }[] }[] };
    expect(report.mock).toBe('Pet Store');
    expect(report.folder).toBe(join(project, 'mocks', 'Pet Store'));
    expect(report.files).toContain('mock.yaml');
    expect(report.operations.find((op) => op.name === 'getPet')).toMatchObject({ method: 'GET', path: '/pets/{petId}', responses: [{ status: 200 }] });
  }, 60_000);

  it('exits 2 naming the APIs for an unknown API, and for no cached definition, a taken name and a folder that is not a project', async () => {
    const unknown = await parley(['mock', 'new', project, '--api', 'Nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no API named Nope/);
    expect(unknown.stderr).toContain('Pet Store');
    expect(unknown.stderr).toContain('Uncached');

    const uncached = await parley(['mock', 'new', project, '--api', 'Uncached', '--name', 'U']);
    expect(uncached.code).toBe(2);
    // An API made by hand never had a definition: "imported again with definitions cached" would be wrong.
    expect(uncached.stderr).toContain('The API Uncached cannot be mocked. No definition: a mock answers from an imported OpenAPI document or WSDL');
    expect(uncached.stderr).not.toContain('imported again');

    const taken = await parley(['mock', 'new', project, '--api', 'Pet Store', '--name', 'pets']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/already exists/);

    const notProject = await parley(['mock', 'new', home, '--api', 'Pet Store']);
    expect(notProject.code).toBe(2);
    expect(notProject.stderr).toMatch(/not a Parley project/);

    const mocks = await readdir(join(project, 'mocks'));
    expect(mocks.sort()).toEqual(['Pet Store', 'Pets']);
  }, 60_000);

  it('stops on Ctrl+C while its importer child samples a big definition: exit 130, nothing written, no child left', async () => {
    const big = join(home, 'big');
    await projectWithDefinition(big, 'Big', bigOpenApi(1000));
    // Ctrl+C in a terminal: SIGINT to the whole foreground group, the importer child included.
    const child = spawn(process.execPath, [cli, 'mock', 'new', big, '--api', 'Big'], { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const run = finished(child);
    const importer = await until(async () => (await childrenOf(child.pid!, 'importer.js'))[0], 30_000);
    process.kill(-child.pid!, 'SIGINT');
    const done = await run;
    expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 130, stderr: 'parley mock new: cancelled.\n' });
    expect(done.stdout).toBe('');
    await until(() => !alive(importer));
    expect(await readdir(join(big, 'mocks')).catch(() => [])).toEqual([]);
  }, 60_000);
});

// --- parley mock serve ---------------------------------------------------------------------------

interface Serving {
  child: ChildProcessWithoutNullStreams;
  url: string;
  out: () => string;
  exited: Promise<number | null>;
}

const started: Serving[] = [];

/** `ownGroup`: in a process group of its own, so a test can signal the group as a terminal's Ctrl+C does. */
async function serve(args: string[], ownGroup = false): Promise<Serving> {
  const child = spawn(process.execPath, [cli, 'mock', 'serve', ...args], { cwd: root, env: env(), stdio: 'pipe', detached: ownGroup });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const serving: Serving = { child, url: '', out: () => out, exited };
  started.push(serving);
  serving.url = await until(() => /is serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 30_000, () => `no URL printed; output so far:\n${out}`);
  return serving;
}

async function stopQuietly(s: Serving): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  await s.exited;
}

async function get(url: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}) {
  const res = await request(url, { method: init.method ?? 'GET', ...(init.headers ? { headers: init.headers } : {}), ...(init.body !== undefined ? { body: init.body } : {}) });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

/** curl, when the binary is there; CI must have it (the test fails loudly there without it). */
async function curl(args: string[]): Promise<string | undefined> {
  const run = await new Promise<{ err: ExecFileException | null; stdout: string }>((resolve) =>
    execFile('curl', args, { timeout: 15_000 }, (err, stdout) => resolve({ err, stdout })),
  );
  if (run.err?.code === 'ENOENT') {
    if (process.env.CI === 'true') throw new Error('curl is not installed, and CI=true requires it for this test (apt-get install -y curl).');
    console.warn('mock-cli.test: curl is not installed; the curl client check was skipped');
    return undefined;
  }
  if (run.err) throw run.err;
  return run.stdout;
}

const bookExample = [
  { id: 1, title: 'Middlemarch', author: 'George Eliot' },
  { id: 2, title: 'The Leopard', author: 'Giuseppe Tomasi di Lampedusa' },
];

describe('parley mock serve <openapi document>', () => {
  it('serves the example to real clients, logs each request, and stops on Ctrl+C with no mock host left', async () => {
    const s = await serve([library, '--port', '0'], true);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.out()).toContain('Mock of Library');
    expect(s.out()).toContain('(contract check: log)');
    // The routes come with the URL line (one write), but a pipe may still split it.
    await until(async () => s.out().includes(`GET  ${s.url}/books/{bookId}  getBook → 200`), 5_000);
    const hosts = await until(() => childrenOf(s.child.pid!, 'mock-host.js').then((pids) => pids.length > 0 && pids), 10_000);
    expect(hosts).toHaveLength(1);

    const list = await get(`${s.url}/books`);
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe('application/json');
    expect(JSON.parse(list.text)).toEqual(bookExample);
    // The Book schema is in another file: its example only arrives if the $ref was followed.
    const one = await get(`${s.url}/books/7`, { headers: { authorization: 'Bearer hunter2' } });
    expect(JSON.parse(one.text)).toEqual({ id: 7, title: 'Kristin Lavransdatter', author: 'Sigrid Undset' });

    const viaCurl = await curl(['-sS', '-i', `${s.url}/books`]);
    if (viaCurl !== undefined) {
      expect(viaCurl).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(viaCurl).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(viaCurl.slice(viaCurl.indexOf('\r\n\r\n') + 4))).toEqual(bookExample);
    }

    // In log mode a request that breaks the contract is answered, its problems listed under its line.
    const bad = await get(`${s.url}/books?limit=lots`);
    expect(bad.status).toBe(200);
    await until(() => s.out().includes('GET /books?limit=lots  → 200  listBooks › Default'), 10_000, () => s.out());
    expect(s.out()).toMatch(/GET \/books\?limit=lots  → 200  listBooks › Default  [\d.]+ ms  1 contract problem\n +query limit: /);
    expect(s.out()).toMatch(/\d\d:\d\d:\d\d\.\d{3}  GET \/books\/7  → 200  getBook › Default  [\d.]+ ms\n/);
    expect(s.out()).not.toContain('hunter2');

    // Ctrl+C in a terminal: SIGINT to the whole foreground group, the mock host included.
    process.kill(-s.child.pid!, 'SIGINT');
    expect(await s.exited).toBe(0);
    expect(s.out()).toContain('Mock stopped.');
    expect(s.out()).not.toMatch(/stopped by SIGINT|exited with code/);
    for (const pid of hosts) expect(alive(pid), `mock host ${pid} is still running`).toBe(false);
  }, 60_000);

  it('refuses a request that breaks the contract with --check refuse: 400 and a JSON problem', async () => {
    const s = await serve([library, '--port', '0', '--check', 'refuse']);
    expect(s.out()).toContain('(contract check: refuse)');
    const refused = await get(`${s.url}/books`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: '', secret: 'do-not-echo' }) });
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    const problem = JSON.parse(refused.text) as { code: string; operation: string; problems: { in: string; pointer: string }[] };
    expect(problem).toMatchObject({ status: 400, code: 'mock-contract-refused', operation: 'addBook' });
    expect(problem.problems.map((p) => [p.in, p.pointer])).toEqual(expect.arrayContaining([['body', '/title']]));
    expect(refused.text).not.toContain('do-not-echo');

    const viaCurl = await curl(['-sS', '-o', '/dev/null', '-w', '%{http_code}', `${s.url}/books/not-a-number`]);
    if (viaCurl !== undefined) expect(viaCurl).toBe('400');
    const accepted = await get(`${s.url}/books`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Njal’s Saga' }) });
    expect(accepted.status).toBe(201);

    await until(() => s.out().includes('POST /books  → 400  addBook'), 10_000, () => s.out());
    const hosts = await childrenOf(s.child.pid!, 'mock-host.js');
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
    for (const pid of hosts) expect(alive(pid)).toBe(false);
  }, 60_000);

  it('reads the document from an http URL, following its relative $ref on the same server', async () => {
    const files = createServer((req, res) => {
      const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
      readFile(join(fixtures, path)).then(
        (body) => res.writeHead(200, { 'content-type': 'application/yaml' }).end(body),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    try {
      const s = await serve([`http://127.0.0.1:${(files.address() as AddressInfo).port}/library.openapi.yaml`, '--port', '0']);
      expect(JSON.parse((await get(`${s.url}/books/3`)).text)).toEqual({ id: 7, title: 'Kristin Lavransdatter', author: 'Sigrid Undset' });
      s.child.kill('SIGINT');
      expect(await s.exited).toBe(0);
    } finally {
      await closeServer(files);
    }
  }, 60_000);

  it('still serves a project mock, and refuses what it cannot serve with exit 2', async () => {
    await parley(['mock', 'new', project, '--api', 'Pet Store', '--name', 'Served']);
    const s = await serve([project, '--mock', 'Served', '--port', '0']);
    expect(s.out()).toContain('Mock Served is serving at');
    expect((await get(`${s.url}/pets/1`)).status).toBe(200);
    // No dispatch.ts: the host keeps Node's start-up snapshot (isolated-vm is never needed).
    const [host] = await childrenOf(s.child.pid!, 'mock-host.js');
    expect(await commandLine(host!)).not.toContain('--no-node-snapshot');
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);

    // With a dispatch.ts the host starts with script support, and the script runs.
    const operations = join(project, 'mocks', 'Served', 'operations');
    const getPet = (await readdir(operations)).find((name) => /get/i.test(name) && /pet/i.test(name) && !/pets$/i.test(name))!;
    const operationFile = join(operations, getPet, 'operation.yaml');
    await writeFile(operationFile, (await readFile(operationFile, 'utf8')).replace(/^dispatch: .*$/m, 'dispatch: script'));
    await writeFile(join(operations, getPet, 'dispatch.ts'), "throw new Error('scripted ' + request.path);\n");
    const scripted = await serve([project, '--mock', 'Served', '--port', '0']);
    const [scriptHost] = await childrenOf(scripted.child.pid!, 'mock-host.js');
    expect(await commandLine(scriptHost!)).toContain('--no-node-snapshot');
    expect((await get(`${scripted.url}/pets/1`)).status).toBe(500);
    await until(async () => scripted.out().includes('The dispatch script threw: scripted /pets/1'), 5_000);
    scripted.child.kill('SIGINT');
    expect(await scripted.exited).toBe(0);

    const missing = await parley(['mock', 'serve', join(home, 'nothing-here.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
    const notOpenApi = await parley(['mock', 'serve', join(fixtures, 'schemas', 'book.yaml')]);
    expect(notOpenApi.code).toBe(2);
    expect(notOpenApi.stderr).toMatch(/The definition .*book\.yaml did not load: .*book\.yaml has no openapi, swagger or swaggerVersion field, so it is not an OpenAPI or Swagger document\./);
    // Read by the same reader as `parley check --definition`, so refused in the same words.
    const swagger12 = join(root, 'test', 'fixtures', 'importers', 'openapi', 'swagger-1.2', 'singleFile.json');
    const old = await parley(['mock', 'serve', swagger12]);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain(`${swagger12} is a Swagger 1.2 document; Parley checks and mocks OpenAPI 3.x and Swagger 2.0 definitions only.`);
    const noMock = await parley(['mock', 'serve', project]);
    expect(noMock.code).toBe(2);
    const badCheck = await parley(['mock', 'serve', library, '--check', 'strict']);
    expect(badCheck.code).toBe(2);
    expect(badCheck.stderr).toMatch(/--check must be refuse, log or off/);
  }, 60_000);
});

// --- checks that run away (issue 11) ------------------------------------------------------------

const runaway = `${'a'.repeat(36)}!`;

/**
 * Sends `slow`, and three pings with it: every ping must be answered before it. The slow request's
 * check runs its whole 1000 ms once a worker has started it, so answers that come first show the
 * listener kept serving (before the fix the host's thread was blocked, it missed its heartbeat and
 * was killed). Each case gets a fresh mock: right after a check is stopped its worker's
 * replacement is still starting, which on a loaded machine can take as long as the budget.
 */
async function meanwhile<T>(slow: () => Promise<T>, ping: () => Promise<number>): Promise<T> {
  let settled = false;
  const pending = slow().finally(() => (settled = true));
  const pings = await Promise.all([ping(), ping(), ping()]);
  expect(settled, 'the slow request was answered before the pings sent with it').toBe(false);
  expect(pings).toEqual([200, 200, 200]);
  return pending;
}

describe('parley mock serve: a check that runs away', () => {
  const runawayDoc = join(fixtures, 'runaway.openapi.yaml');
  const gaveUp = 'The contract check gave up (it took longer than 1000 ms and was stopped); the request counts as not checked.';
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  for (const mode of ['log', 'refuse'] as const) {
    it(`with --check ${mode}: a runaway pattern on a body field, a query parameter or a header is answered as not checked while the mock keeps answering`, async () => {
      const cases: { where: string; path: string; headers: Record<string, string>; body: unknown }[] = [
        { where: 'body', path: '/words', headers: {}, body: { guarded: runaway } },
        { where: 'query', path: `/words?q=${runaway}`, headers: {}, body: {} },
        { where: 'header', path: '/words', headers: { 'x-word': runaway }, body: {} },
      ];
      for (const c of cases) {
        const s = await serve([runawayDoc, '--port', '0', '--check', mode]);
        const [host] = await until(() => childrenOf(s.child.pid!, 'mock-host.js').then((pids) => pids.length > 0 && pids), 10_000);
        const ping = async () => (await get(`${s.url}/ping`)).status;
        const post = (path: string, headers: Record<string, string>, body: unknown) =>
          get(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

        const answer = await meanwhile(() => post(c.path, c.headers, c.body), ping);
        // Not checked is neither pass nor failure: even refuse dispatches it.
        expect(answer.status, c.where).toBe(201);
        await until(() => new RegExp(`POST ${escaped(c.path)}  → 201  addWord › Default  [\\d.]+ ms\\n +${escaped(gaveUp)}`).test(s.out()), 10_000, () => s.out());

        // The same string against a pattern the linear engine runs: an ordinary problem.
        const nested = await post('/words', {}, { nested: runaway });
        expect(nested.status).toBe(mode === 'refuse' ? 400 : 201);
        await until(() => /POST \/words  → (400|201)  addWord.*1 contract problem\n +body \/nested: expected to match the pattern \^\(a\+\)\+\$/.test(s.out()), 10_000, () => s.out());

        // Still the same host, and `mock serve` still running.
        expect(await childrenOf(s.child.pid!, 'mock-host.js')).toEqual([host]);
        expect(s.out()).not.toMatch(/stopped by SIGKILL|exited with code/);
        expect(s.child.exitCode).toBeNull();
        expect(await ping()).toBe(200);
        s.child.kill('SIGINT');
        expect(await s.exited).toBe(0);
      }
    }, 120_000);
  }

  it('a match condition whose regular expression runs away does not hold, with the reason in the log, while the mock keeps answering', async () => {
    await parley(['mock', 'new', project, '--api', 'Pet Store', '--name', 'Matcher']);
    const operations = join(project, 'mocks', 'Matcher', 'operations');
    const getPet = (await readdir(operations)).find((name) => /get/i.test(name) && /pet/i.test(name) && !/pets$/i.test(name))!;
    const folder = join(operations, getPet);
    const operationFile = join(folder, 'operation.yaml');
    await writeFile(
      operationFile,
      (await readFile(operationFile, 'utf8')).replace(/^dispatch: .*$/m, 'dispatch: match').replace(/^responses:.*(\n +- .*)*$/m, 'responses: [Guarded, Nested, Default]'),
    );
    const response = (name: string, pattern: string) =>
      [
        'version: 1',
        `id: r-${name.toLowerCase()}`,
        `name: ${name}`,
        'status: 200',
        'body: json',
        'headers:',
        '  - name: Content-Type',
        '    value: application/json',
        'match:',
        '  - source: { from: query, name: word }',
        '    check: regex',
        `    value: '${pattern}'`,
        '',
      ].join('\n');
    await writeFile(join(folder, 'Guarded.response.yaml'), response('Guarded', '^(?!b)(a+)+$'));
    await writeFile(join(folder, 'Guarded.body.json'), '{"picked":"guarded"}');
    await writeFile(join(folder, 'Nested.response.yaml'), response('Nested', '^(b+)+$'));
    await writeFile(join(folder, 'Nested.body.json'), '{"picked":"nested"}');

    const s = await serve([project, '--mock', 'Matcher', '--port', '0']);
    const ping = async () => (await get(`${s.url}/pets/1`)).status;
    const picked = async (word: string) => JSON.parse((await get(`${s.url}/pets/1?word=${word}`)).text) as { picked?: string };

    expect(await picked('aaaa')).toEqual({ picked: 'guarded' });
    // The lookahead pattern runs away on the worker and is stopped; the linear one is false at once: Default.
    const slow = await meanwhile(() => get(`${s.url}/pets/1?word=${runaway}`), ping);
    expect(slow.status).toBe(200);
    expect(JSON.parse(slow.text)).not.toHaveProperty('picked');
    // A nested quantifier on the linear engine: the same kind of string is simply no match.
    expect(await picked('bbbb')).toEqual({ picked: 'nested' });
    expect(await picked(`${'b'.repeat(36)}!`)).not.toHaveProperty('picked');
    await until(
      () => s.out().includes('The regular expression /^(?!b)(a+)+$/ of a match condition was not evaluated: it took longer than 1000 ms and was stopped; the condition does not hold.'),
      10_000,
      () => s.out(),
    );
    expect(s.out()).not.toMatch(/stopped by SIGKILL|exited with code/);
    expect(await ping()).toBe(200);
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
  }, 90_000);
});

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
