/**
 * Peer check of `parley export --format postman` (issue 31 item 9): newman runs the collection
 * Parley exported and sends what `parley run` sends for the same project, against one echo server
 * on 127.0.0.1: the same method, URL, headers and body for every request, in the same order.
 * The project is the run-peer collection imported (every body kind, Basic / Bearer / API key auth,
 * inherited and per request), plus what only Parley has: a folder header, a request made in
 * Parley under an API base URL with a `{id}` path parameter and a switched-off query row, a
 * secret's reference (`${secret:peer/key}`: newman is given `secret:peer/key`, `parley run`
 * PARLEY_SECRET_PEER_KEY), a capture read by the next request, and assertions that newman checks.
 * dist/ must be built first.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import newman from 'newman';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isHttp } from '../../protocol/kinds/index.js';
import type { Request } from '../../protocol/model/request.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { EchoPeer } from '../support/echo-peer.js';
import { finished } from '../support/processes.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const fixtures = join(root, 'test', 'fixtures', 'run-peer');
const SECRET = 'k-secret-77';

let work: string;
let echo: EchoPeer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-export-peer-'));
  echo = await EchoPeer.start();
  await writeFile(join(work, 'environment.json'), (await readFile(join(fixtures, 'environment.json'), 'utf8')).replace('PORT', String(echo.port)));
});

afterAll(async () => {
  await echo?.close();
  await rm(work, { recursive: true, force: true });
});

async function parley(args: string[], home: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: 'pipe', env: { ...process.env, PARLEY_HOME: home, ...env } });
  child.stdin.end();
  return finished(child);
}

function runNewman(collection: string, workingDir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    newman.run(
      { collection, environment: join(work, 'environment.json'), globals: join(fixtures, 'globals.json'), envVar: [{ key: 'secret:peer/key', value: SECRET }], workingDir, reporters: [] },
      (err, summary) => {
        if (err) return reject(err);
        if (summary.run.failures.length > 0) return reject(new Error(JSON.stringify(summary.run.failures.map((f) => f.error?.message))));
        // The names of the tests newman ran (the exported assertions), to show they ran and passed.
        resolve(summary.run.executions.flatMap((e) => (e.assertions ?? []).map((a) => a.assertion)));
      },
    );
  });
}

/** The project: the run-peer collection imported, then given what only Parley has. */
async function makeProject(home: string, project: string): Promise<void> {
  for (const args of [
    ['import', join(fixtures, 'collection.json'), '--new-project', project],
    ['import', join(work, 'environment.json')],
    ['import', join(fixtures, 'globals.json')],
  ]) {
    const run = await parley(args, home);
    expect(run.code, `${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBeLessThan(2);
  }
  await mkdir(join(project, 'files'), { recursive: true });
  await copyFile(join(fixtures, 'files', 'pet.bin'), join(project, 'files', 'pet.bin'));
  const store = await ProjectStore.open(project);
  try {
    const tree = store.tree();
    const api = store.listApis()[0]!;
    await store.saveApi({ ...api, baseUrl: '${baseUrl}' });
    const folder = tree.items.find((i) => i.kind === 'folder' && i.name === 'A folder with bearer')!;
    const { settings } = store.getFolder(folder.id);
    await store.saveFolder(folder.id, { ...settings, headers: [{ name: 'X-Team', value: 'pets-${petName}', enabled: true }] });
    const byName = (name: string) => {
      const item = tree.items.find((i) => i.kind === 'request' && i.name === name)!;
      const request = store.getRequest(item.id);
      if (!isHttp(request)) throw new Error(`${name} is not HTTP`);
      return request;
    };
    const post = byName('03 post raw json');
    await store.saveRequest({
      ...post,
      assertions: [
        { enabled: true, source: 'status', path: '', op: 'equals', value: '200' },
        { enabled: true, source: 'body', path: '$.items[0].name', op: 'equals', value: '"first"' },
        { enabled: true, source: 'body', path: '$.id', op: 'greater', value: '5' },
      ],
      captures: [
        { enabled: true, name: 'echoToken', source: 'header', expression: 'X-Echo-Token', scope: 'session' },
        { enabled: true, name: 'firstName', source: 'jsonpath', expression: '$.items[0].name', scope: 'session' },
      ],
    });
    const text = byName('04 put raw text');
    await store.saveRequest({ ...text, headers: [...text.headers, { name: 'X-Captured', value: '${echoToken}/${firstName}', enabled: true }] });
    const apiKey = byName('08 api key header');
    if (apiKey.auth.type !== 'apikey') throw new Error('08 has no API key auth');
    await store.saveRequest({ ...apiKey, auth: { ...apiKey.auth, value: '${secret:peer/key}' } });
    const made = (await store.createRequest({ parent: api.id, name: '14 made in Parley', method: 'GET', url: '/pets/{id}?limit=${limit}' })) as Request;
    await store.saveRequest({ ...made, pathParams: [{ name: 'id', value: '42' }], query: [{ name: 'off', value: 'x', enabled: false }], headers: [{ name: 'X-Trace', value: '${traceId}', enabled: true }] });
  } finally {
    await store.close();
  }
}

it('newman sends what parley run sends for the Postman collection parley export writes', { timeout: 240_000 }, async () => {
  const home = join(work, 'home');
  const project = join(work, 'project');
  await makeProject(home, project);

  const out = join(work, 'exported.postman_collection.json');
  const exported = await parley(['export', project, '--format', 'postman', '--out', out], home);
  expect(exported.code, `${exported.stdout}\n${exported.stderr}`).toBe(0);
  const text = await readFile(out, 'utf8');
  // Credentials only as references: the secret's name is there, its value nowhere.
  expect(text).toContain('{{secret:peer/key}}');
  expect(text).not.toContain(SECRET);

  const run = await parley(['run', project, '--env', 'Peer env'], home, { PARLEY_SECRET_PEER_KEY: SECRET });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const byParley = echo.take();
  expect(byParley).toHaveLength(14);

  // newman reads body files from its working folder: the project's, as Parley does.
  const tests = await runNewman(out, project);
  const byNewman = echo.take();
  expect(tests).toEqual(['status equals 200', '$.items[0].name equals "first"', '$.id greater than 5']);
  expect(byNewman.map((r) => `${r.method} ${r.url}`)).toEqual(byParley.map((r) => `${r.method} ${r.url}`));
  for (let i = 0; i < byParley.length; i++) expect(byNewman[i], `request ${i + 1}: ${byParley[i]!.method} ${byParley[i]!.url}`).toEqual(byParley[i]);
  // The Parley-only parts really went on the wire (equal and empty would compare equal too).
  const header = (i: number, name: string) => byParley[i]!.headers.find(([n]) => n === name)?.[1];
  expect(header(0, 'x-team')).toBe('pets-Rex');
  expect(header(3, 'x-captured')).toBe('tok-42/first');
  expect(header(7, 'x-api-key')).toBe(SECRET);
  expect(byParley[13]).toMatchObject({ method: 'GET', url: '/pets/42?limit=10' });
});
