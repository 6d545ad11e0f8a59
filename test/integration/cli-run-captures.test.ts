/**
 * Chaining without scripts in `parley run` (issue 28 item 5): the built CLI as a real process
 * against a real server on 127.0.0.1 that hands out a token at /login and checks it at /me.
 * Login captures the token from its body (and the user's id, a header and a cookie); Get me sends
 * them back, and the server says whether it got them; a Postman collection that set the token with
 * a script runs once the user adds the capture. The token never appears in the console,
 * the JSON or JUnit report, any project file or the workspace. dist/ must be built first.
 */
import type { Request } from '../../protocol/model/request.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capture } from '../../protocol/model/capture.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { filesUnder, runParley } from '../support/processes.js';
import { assertion, writeRunProject } from '../support/run-project.js';

const TOKEN = 'tok-3f9a1c77e0b24d5e'; // handed out by /login: must never appear in any output, report or file
const SID = 'sid-5c0ffee77aa1';
const SLOW = { timeout: 120_000 };

const capture = (fields: Partial<Capture>): Capture => ({ enabled: true, name: 'x', source: 'jsonpath', expression: '$.x', scope: 'session', ...fields });

let work: string;
let home: string;
let project: string;
let server: Server;
let base: string;
/** What /me was sent, request by request. */
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-run-captures-'));
  home = join(work, 'home');
  project = join(work, 'project');
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (url.pathname === '/login' && req.method === 'POST') return json(200, { token: TOKEN, user: { id: 7, name: 'ann' } }, { location: '/users/7', 'set-cookie': `sid=${SID}; Path=/; HttpOnly` });
    if (url.pathname === '/me') {
      seen.push({ url: req.url ?? '', headers: req.headers });
      const ok = req.headers.authorization === `Bearer ${TOKEN}` && url.searchParams.get('t') === TOKEN && req.headers['x-user'] === '7' && req.headers['x-from'] === '/users/7' && req.headers['x-code'] === '200';
      // The body quotes the token back: a report that quoted the body would leak it.
      return ok ? json(200, { id: 7, name: 'ann', echo: TOKEN }) : json(401, { error: 'who are you?' });
    }
    if (url.pathname === '/profile') {
      seen.push({ url: req.url ?? '', headers: req.headers });
      return req.headers.authorization === `Bearer ${TOKEN}` ? json(200, { name: 'ann' }) : json(401, { error: 'who are you?' });
    }
    json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await writeRunProject(project, [
    {
      name: 'Auth',
      baseUrl: base,
      requests: [
        {
          name: 'Login',
          method: 'POST',
          url: '/login',
          edit: (r) =>
            void (r.captures = [
              capture({ name: 'token', expression: '$.token' }),
              capture({ name: 'userId', expression: '$.user.id' }),
              capture({ name: 'profile', source: 'header', expression: 'Location' }),
              capture({ name: 'code', source: 'status', expression: '' }),
              capture({ name: 'sid', source: 'cookie', expression: 'sid' }),
            ]),
        },
        {
          name: 'Get me',
          url: '/me?t=${token}',
          assertions: [assertion({ source: 'status', value: '200' }), assertion({ path: '$.id', value: '${userId}' }), assertion({ path: '$.echo', value: '${token}' })],
          edit: (r) => {
            r.auth = { type: 'bearer', token: '${token}' };
            r.headers = [
              { name: 'X-User', value: '${userId}', enabled: true },
              { name: 'X-From', value: '${profile}', enabled: true },
              { name: 'X-Code', value: '${code}', enabled: true },
            ];
          },
        },
      ],
    },
    {
      name: 'Broken',
      baseUrl: base,
      requests: [
        { name: 'Login', method: 'POST', url: '/login', edit: (r) => void (r.captures = [capture({ name: 'missing', expression: '$.user.email' })]) },
        { name: 'Get me', url: '/me?t=${missing}' },
      ],
    },
  ]);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(work, { recursive: true, force: true });
});

/** Every file under `dir` that holds `text`. */
async function filesHolding(dir: string, text: string): Promise<string[]> {
  const hits: string[] = [];
  for (const file of await filesUnder(dir)) if ((await readFile(join(dir, file))).includes(text)) hits.push(file);
  return hits;
}

describe('parley run with captures', () => {
  it('Get me uses the token Login captured, and the token is in no report, console line or file', SLOW, async () => {
    const junit = join(work, 'auth.xml');
    const json = join(work, 'auth.json');
    seen.length = 0;
    const run = await runParley(['run', project, '--api', 'Auth', '--reporter', `junit:${junit}`, '--reporter', `json:${json}`], { home });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The server got the captured values, each where Get me put it.
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]!.url).toBe(`/me?t=${TOKEN}`);

    expect(run.stdout).toContain('  ok POST   Auth/Login  200 OK');
    expect(run.stdout).toContain('       set token = ••••••\n       set userId = 7\n       set profile = /users/7\n       set code = 200\n       set sid = ••••••\n');
    expect(run.stdout).toMatch(/ {2}ok GET {4}Auth\/Get me {2}200 OK .* 3\/3 assertions\n/);

    const report = JSON.parse(await readFile(json, 'utf8')) as { summary: { captures?: unknown; failed: number }; outcomes: { request: { url: string }; captures?: { name: string; ok: boolean; value?: string; credential?: boolean }[] }[] };
    expect(report.summary).toMatchObject({ failed: 0, captures: { total: 5, failed: 0 } });
    expect(report.outcomes[0]!.captures).toEqual([
      expect.objectContaining({ name: 'token', ok: true, value: '••••••', credential: true }),
      expect.objectContaining({ name: 'userId', ok: true, value: '7' }),
      expect.objectContaining({ name: 'profile', ok: true, value: '/users/7' }),
      expect.objectContaining({ name: 'code', ok: true, value: '200' }),
      expect.objectContaining({ name: 'sid', ok: true, value: '••••••', credential: true }),
    ]);
    // Get me's URL as sent, with the captured token masked by value.
    expect(report.outcomes[1]!.request.url).toMatch(/\/me\?t=••••••$/);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('captured: token = •••••• from $.token (JSON body)');

    for (const secret of [TOKEN, SID]) {
      for (const text of [run.stdout, run.stderr, xml, JSON.stringify(report)]) expect(text).not.toContain(secret);
      expect(await filesHolding(project, secret)).toEqual([]);
      expect(await filesHolding(home, secret)).toEqual([]);
    }
  });

  it('a capture whose path matches nothing fails its request, says why in every report, and the next request is refused with the name it lacks', SLOW, async () => {
    const junit = join(work, 'broken.xml');
    const run = await runParley(['run', project, '--api', 'Broken', '--reporter', `junit:${junit}`], { home });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain('  x  POST   Broken/Login  200 OK');
    expect(run.stdout).toContain('       x capture missing from $.user.email (JSON body): nothing found at $.user.email\n');
    expect(run.stdout).toMatch(/x {2}GET {4}Broken\/Get me {2}NOT SENT\n.*\$\{missing\}/);
    // The refusal names the request whose capture would have set it.
    expect(run.stdout).toContain('${missing} is not set: the request "Broken/Login" captures it, and no response of it has set it yet (send it first)');
    expect(run.stdout).toMatch(/FAILED: 2 requests: 0 passed, 2 failed; 1 not sent or no response; captures 0\/1 set;/);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('<failure message="1 of 1 captures set nothing" type="capture">capture missing from $.user.email (JSON body): nothing found at $.user.email</failure>');
  });

  it('a Postman collection whose Get me reads the token Login set with a script runs once the user adds the capture', SLOW, async () => {
    const collection = {
      info: { name: 'Auth flow', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [{ key: 'base', value: base }],
      item: [
        {
          name: 'Login',
          // Not run by Parley (kept as text): the capture the user adds takes its place.
          event: [{ listen: 'test', script: { type: 'text/javascript', exec: ["pm.environment.set('token', pm.response.json().token);"] } }],
          request: { method: 'POST', url: '{{base}}/login' },
        },
        { name: 'Get me', request: { method: 'GET', auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}', type: 'string' }] }, url: '{{base}}/profile' } },
      ],
    };
    const file = join(work, 'auth.postman_collection.json');
    await writeFile(file, JSON.stringify(collection));
    const imported = join(work, 'imported');
    const made = await runParley(['import', file, '--new-project', imported], { home });
    expect(made.code, made.stdout + made.stderr).toBe(0);
    // Before the capture, Get me's ${token} resolves nowhere.
    const before = await runParley(['run', imported], { home });
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/Auth flow\/Get me {2}NOT SENT/);

    const store = await ProjectStore.open(imported);
    const login = store.tree().items.find((i) => i.kind === 'request' && i.name === 'Login')!;
    await store.saveRequest({ ...(store.getRequest(login.id) as Request), captures: [capture({ name: 'token', expression: '$.token' })] });
    await store.close();
    seen.length = 0;
    const run = await runParley(['run', imported, '--reporter', 'json'], { home });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { outcomes: { request: { name: string }; response?: { status: number } }[] };
    expect(report.outcomes.map((o) => [o.request.name, o.response?.status])).toEqual([
      ['Login', 200],
      ['Get me', 200],
    ]);
    expect(seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(run.stdout).not.toContain(TOKEN);
    expect(await filesHolding(imported, TOKEN)).toEqual([]);
  });
});
