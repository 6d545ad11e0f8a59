/**
 * `parley import` of .http files end to end: the built CLI (dist/cli.js) with its own headless
 * supervisor and importer child, kulala's real files (test/fixtures/http/kulala: simple.http and
 * advanced_E.http with http-client.env.json and http-client.private.env.json beside them). Into a
 * new project and then into that existing project; the environments beside the file landing in
 * the workspace (renamed when taken, never active, their credentials never written); the exit
 * codes: 2 when refused (no secret store for the file's credentials, no target project, a file
 * with no requests, a folder that is not a project), 0 imported. No keychain here: the D-Bus
 * session points nowhere, so the secrets are refused or, with --without-secrets, left out.
 * dist/ must be built first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { finished, type Run } from '../support/processes.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const kulala = join(root, 'test', 'fixtures', 'http', 'kulala');
const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/parley-cli-http-bus' };
/** Values the environment files and simple.http hold as credentials: never in a project or workspace file. */
const LITERALS = ['bananas', 'polo', 'Base64encodedstring', 'Foo:bar=baz'];
/** Every run starts a supervisor and an importer (about 1 s idle, far more on a busy machine). */
const SLOW = { timeout: 120_000 };
const DEADLINE_MS = 90_000;

let work: string;
let home: string;
let src: string;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-cli-http-'));
  home = join(work, 'home');
  src = join(work, 'src');
  await cp(kulala, src, { recursive: true });
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

function parley(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: work, stdio: 'pipe', env: { ...process.env, ...NO_BUS, PARLEY_HOME: home } });
  running.add(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
  child.stdin.end();
  return finished(child).finally(() => {
    clearTimeout(timer);
    running.delete(child);
  });
}

async function textUnder(dir: string): Promise<string> {
  const texts: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) texts.push(`${relative(dir, join(e.parentPath, e.name))}\n${await readFile(join(e.parentPath, e.name), 'utf8')}`);
  return texts.join('\n');
}

interface Workspace {
  activeEnvironment?: string;
  environments: { name: string; variables: { name: string; value: string }[] }[];
}

async function workspace(): Promise<Workspace> {
  return parseYaml(await readFile(join(home, 'workspace.yaml'), 'utf8')) as Workspace;
}

it('a .http file whose credentials have no store is refused with exit 2, nothing made; with --without-secrets it lands with its environments', SLOW, async () => {
  const project = join(work, 'kulala');
  const refused = await parley(['import', join(src, 'simple.http'), '--new-project', project]);
  expect(refused.code, refused.stderr).toBe(2);
  expect(refused.stderr).toContain('The import brings 4 secret variable values and 1 password or credential, so nothing was imported. Give --without-secrets to import without them');
  expect(existsSync(project)).toBe(false);

  const made = await parley(['import', join(src, 'simple.http'), '--new-project', project, '--without-secrets', '--json']);
  expect(made.code, made.stderr).toBe(0);
  const result = JSON.parse(made.stdout) as { importer: string; apis: { name: string; requests: number }[]; workspace: { environments: { name: string; variables: number; secrets: number }[] } };
  expect(result.importer).toBe('http');
  expect(result.apis.map((a) => [a.name, a.requests])).toEqual([['simple', 1]]);
  expect(result.workspace.environments.map((e) => [e.name, e.variables, e.secrets])).toEqual([['dev', 5, 2], ['prod', 4, 2]]);

  const ws = await workspace();
  expect(ws.activeEnvironment).toBeUndefined();
  const dev = ws.environments.find((e) => e.name === 'dev')!;
  expect(dev.variables.map((v) => [v.name, v.value])).toEqual([
    ['PASSWORD', ''],
    ['Recursive-Var', '${USERNAME}'],
    ['USERNAME', 'gorillamoe'],
    ['auth_header', ''],
    ['pokemon', 'ditto'],
  ]);
  const project1 = parseYaml(await readFile(join(project, 'parley.yaml'), 'utf8')) as { properties: { name: string; value: string }[] };
  expect(project1.properties.map((p) => [p.name, p.value])).toEqual([
    ['BASIC_TEST_TOKEN', '${secret:properties/BASIC_TEST_TOKEN}'],
    ['URL_ENDPOINT', 'httpbin.org/simple'],
    ['SCHEMA_FOO', 'https'],
    ['DEFAULT_TIMEOUT', '1'],
  ]);
  const everything = (await textUnder(project)) + (await readFile(join(home, 'workspace.yaml'), 'utf8'));
  for (const literal of LITERALS) expect(everything).not.toContain(literal);
});

it('another .http file into the existing project: a second API beside the first, its environments renamed when taken, exit 0', SLOW, async () => {
  const project = join(work, 'kulala');
  const added = await parley(['import', join(src, 'advanced_E.http'), '--project', project, '--without-secrets']);
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toContain('Imported into');
  expect(added.stdout).toContain('advanced_E: 3 requests in 0 folders');
  expect(added.stdout).toContain('The workspace already has an environment named dev: this one was imported as dev 2.');
  const apis = await readdir(join(project, 'apis'));
  expect(apis.sort()).toEqual(['advanced_E', 'simple']);
  const ws = await workspace();
  expect(ws.environments.map((e) => e.name)).toEqual(['dev', 'prod', 'dev 2', 'prod 2']);
  expect(ws.activeEnvironment).toBeUndefined();
  const requests = await readdir(join(project, 'apis', 'advanced_E', 'requests'));
  // `# @name` names a request; else the text after `###` does, as JetBrains reads it (kulala writes a comment there).
  expect(requests.filter((f) => f.endsWith('.request.yaml')).sort()).toEqual(['REQUEST_ONE.request.yaml', 'REQUEST_TWO.request.yaml', 'This is a comment for the next request.request.yaml']);
  const everything = (await textUnder(project)) + (await readFile(join(home, 'workspace.yaml'), 'utf8'));
  for (const literal of LITERALS) expect(everything).not.toContain(literal);
});

it('exit 2 for a .http file without a target project, one with no requests, and a folder that is not a project', SLOW, async () => {
  const noTarget = await parley(['import', join(src, 'simple.http'), '--without-secrets']);
  expect(noTarget.code).toBe(2);
  expect(noTarget.stderr).toContain('brings APIs and requests: choose the project to import them into');

  const empty = join(work, 'empty');
  await mkdir(empty);
  await writeFile(join(empty, 'notes.http'), '# Nothing to send yet\n\n###\n');
  const nothing = await parley(['import', join(empty, 'notes.http'), '--new-project', join(work, 'never')]);
  expect(nothing.code).toBe(2);
  expect(nothing.stderr).toContain('holds no HTTP requests Parley can import');
  expect(existsSync(join(work, 'never'))).toBe(false);

  const notProject = join(work, 'plain');
  await mkdir(notProject);
  const wrong = await parley(['import', join(src, 'simple.http'), '--project', notProject, '--without-secrets']);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain('is not a Parley project (no parley.yaml)');
  expect(await readdir(notProject)).toEqual([]);
});
