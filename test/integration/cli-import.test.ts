/**
 * `parley import` and `parley update-definition` end to end: the built CLI (dist/cli.js) started
 * as a real process with its own headless supervisor, sender, checker and one importer child per
 * job; real documents from the shared corpus and test/fixtures/cli-import; definitions served over
 * HTTP on 127.0.0.1; the project folders read back from disk. The URL import with a bearer token
 * needs a real Secret Service (scripts/with-keyring): it is skipped without one, and under CI=true
 * a missing keyring fails the file.
 * dist/ must be built first: `npm test` runs `node scripts/build.mjs` before vitest; when running
 * this file alone, build once yourself.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { KeychainSecrets } from '../../processes/supervisor/store/secrets.js';
import { keyringMissing } from '../support/keyring.js';
import { alive, childrenOf, finished, type Run } from '../support/processes.js';

const missingKeyring = await keyringMissing();
if (missingKeyring) console.warn(`Skipping the keychain URL import test: ${missingKeyring}`);

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const corpus = join(root, 'test', 'fixtures', 'importers', 'openapi', 'learn-openapis');
const tictactoe = join(corpus, 'v3.1', 'tictactoe.yaml');
const uber = join(corpus, 'v2.0', 'yaml', 'uber.yaml');
const petstoreSpec = join(corpus, 'v2.0', 'yaml', 'petstore-separate', 'spec');
const fixtures = join(root, 'test', 'fixtures', 'cli-import');
const boardV1 = join(fixtures, 'board-v1.yaml');
const boardV2 = join(fixtures, 'board-v2.yaml');
/** Two files with references inside the entry, across files and back (definition update by content). */
const shop = join(fixtures, 'shop');

const scriptBin = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path));

const TOKEN = 'tok_9f3b7c1e5a2d4f60'; // must never reach the output or a project file
/** Every run starts a supervisor with its sender and checker (about 1 s idle, far more on a busy machine); tests make up to five runs. */
const SLOW = { timeout: 120_000 };

let work: string;
let home: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-cli-import-'));
  home = join(work, 'home');
});

/** CLI runs not yet ended: a test that timed out must not leave one running past the file. */
const running = new Set<ChildProcessWithoutNullStreams>();

afterAll(async () => {
  // Its own children (sender, checker, importer) exit by themselves when their bus closes.
  for (const child of running) child.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

function start(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  // The test's own environment may not carry a stray secret into a run that did not ask for it.
  const base = { ...process.env };
  for (const name of ['PARLEY_IMPORT_PASSWORD', 'PARLEY_IMPORT_TOKEN', 'PARLEY_IMPORT_APIKEY']) delete base[name];
  return track(spawn(process.execPath, [cli, ...args], { cwd: root, stdio: 'pipe', env: { ...base, PARLEY_HOME: home, ...env } }));
}

function track(child: ChildProcessWithoutNullStreams): ChildProcessWithoutNullStreams {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

async function parley(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<Run> {
  const child = start(args, options.env);
  const done = finished(child);
  child.stdin.end(options.stdin ?? '');
  return done;
}

/** A fresh folder path under the test's temp folder (not created). */
let folders = 0;
function freshPath(name: string): string {
  return join(work, `${name}-${++folders}`);
}

/** Every file under `dir`, relative path to bytes. */
async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(relative(dir, join(entry.parentPath, entry.name)), await readFile(join(entry.parentPath, entry.name)));
  }
  return files;
}

async function requestFiles(dir: string): Promise<string[]> {
  return [...(await snapshot(dir)).keys()].filter((p) => p.endsWith('.request.yaml')).sort();
}

/** What the document declares, counted independently of the importer: operations and first tags. */
async function declared(file: string): Promise<{ title: string; operations: number; folders: number }> {
  const doc = parseYaml(await readFile(file, 'utf8')) as { info: { title: string }; paths: Record<string, Record<string, { tags?: string[] }>> };
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  let operations = 0;
  const tags = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    for (const [key, op] of Object.entries(item)) {
      if (!methods.includes(key)) continue;
      operations++;
      if (op.tags?.[0]) tags.add(op.tags[0]);
    }
  }
  return { title: doc.info.title, operations, folders: tags.size };
}

/** A project folder with only its parley.yaml, as the app makes one. */
async function emptyProject(): Promise<string> {
  const dir = freshPath('existing');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'parley.yaml'), 'version: 1\nname: Existing\nproperties: []\n');
  return dir;
}



describe('parley import <file>', SLOW, () => {
  it('imports OpenAPI 3.1 into a new project: --json counts match the document, the files are on disk, stderr stays empty', async () => {
    const project = freshPath('ttt');
    const run = await parley(['import', tictactoe, '--new-project', project, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    const doc = await declared(tictactoe);
    expect(out).toMatchObject({
      project,
      format: 'openapi-3.1',
      declaredVersion: 'openapi-3.1',
      apiVersion: '1.0.0',
      apis: [{ name: doc.title, requests: doc.operations, folders: doc.folders, baseUrl: '' }],
      // One webhook (markStatus) and one callback (statusCallback).
      webhooks: { folder: 'Tic Tac Toe', requests: 2 },
      warnings: [],
      errors: [],
    });
    expect(out.securitySchemes.map((s: { name: string }) => s.name)).toEqual(['defaultApiKey', 'basicHttpAuthentication', 'bearerHttpAuthentication', 'app2AppOauth', 'user2AppOauth']);
    expect(out.unimported).toEqual([expect.objectContaining({ item: expect.stringContaining('link markSquare'), reason: 'Links are not imported.' })]);

    const files = await snapshot(project);
    expect(files.has('parley.yaml')).toBe(true);
    const api = parseYaml(files.get(join('apis', 'Tic Tac Toe', 'api.yaml'))!.toString()) as { name: string; definition: { format: string; cached: string[] } };
    expect(api.name).toBe('Tic Tac Toe');
    expect(api.definition.cached).toEqual(['definition/tictactoe.yaml']);
    expect(files.get(join('apis', 'Tic Tac Toe', 'definition', 'tictactoe.yaml'))).toEqual(await readFile(tictactoe));
    expect(await requestFiles(join(project, 'apis', 'Tic Tac Toe'))).toEqual([
      join('requests', 'Gameplay', 'Get a single board square.request.yaml'),
      join('requests', 'Gameplay', 'Get the whole board.request.yaml'),
      join('requests', 'Gameplay', 'Set a single board square.request.yaml'),
    ]);
    expect(await requestFiles(join(project, 'apis', 'Webhooks'))).toHaveLength(2);
  });

  it('imports Swagger 2.0: format swagger-2.0, base URL from schemes/host/basePath, one request per operation', async () => {
    const project = freshPath('uber');
    const run = await parley(['import', uber, '--new-project', project, '--json', '--no-webhooks']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    const doc = await declared(uber);
    expect(out.format).toBe('swagger-2.0');
    expect(out.apis).toEqual([{ id: expect.any(String), name: doc.title, requests: doc.operations, folders: doc.folders, baseUrl: 'https://api.uber.com/v1' }]);
    expect(await requestFiles(join(project, 'apis', doc.title))).toHaveLength(doc.operations);
  });

  it('a folder imports its swagger.yaml with every referenced document cached; the human report says what came in', async () => {
    const project = freshPath('petstore');
    const run = await parley(['import', petstoreSpec, '--new-project', project, '--name', 'Pets', '--base-url', 'http://127.0.0.1:9/pets']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Imported into ${project}\n`);
    expect(run.stdout).toMatch(/Format recognised +Swagger 2\.0 \(by its file name\)/);
    expect(run.stdout).toMatch(/Declared version +swagger-2\.0/);
    expect(run.stdout).toMatch(/API version +1\.0\.0/);
    expect(run.stdout).toMatch(/Base URL +http:\/\/127\.0\.0\.1:9\/pets\n/);
    expect(run.stdout).toMatch(/API +Pets: 4 requests in 0 folders\n/);
    const definition = join(project, 'apis', 'Pets', 'definition');
    expect([...(await snapshot(definition)).keys()].sort()).toEqual([join('common', 'Error.yaml'), join('spec', 'NewPet.yaml'), join('spec', 'Pet.yaml'), join('spec', 'parameters.yaml'), join('spec', 'swagger.yaml')]);
  });

  it.skipIf(scriptBin === undefined)('on a terminal: one progress line on stderr, rewritten in place and erased before the report', async () => {
    const project = freshPath('tty');
    // util-linux `script` runs the CLI on a pseudo-terminal (stdout and stderr both on it).
    const command = [process.execPath, cli, 'import', boardV1, '--new-project', project].map((a) => `'${a}'`).join(' ');
    const child = track(spawn(scriptBin!, ['-qec', command, '/dev/null'], { cwd: root, stdio: 'pipe', env: { ...process.env, PARLEY_HOME: home } }));
    const done = finished(child);
    child.stdin.end();
    const run = await done;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('\r\x1b[KReading board-v1.yaml');
    expect(run.stdout).toMatch(/\r\x1b\[KConverting /);
    expect(run.stdout).toMatch(/\r\x1b\[KImported into /);
    expect(run.stdout.split('\n').filter((line) => line.includes('\x1b[K'))).toHaveLength(1);
  });

  it('a folder with no OpenAPI or Swagger document at its top level is refused: exit 2, what the folder form reads', async () => {
    const folder = freshPath('no-document');
    await mkdir(join(folder, 'nested'), { recursive: true });
    await copyFile(boardV1, join(folder, 'nested', 'openapi.yaml'));
    await writeFile(join(folder, 'board.yaml'), await readFile(boardV1));
    const project = freshPath('never');
    const run = await parley(['import', folder, '--new-project', project]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`No importable document was found in the folder ${folder}`);
    expect(run.stderr).toContain('openapi.yaml, openapi.yml, openapi.json, swagger.yaml, swagger.yml, swagger.json');
    expect(run.stderr).toContain('collection folders are not supported yet');
    expect(existsSync(project)).toBe(false);
  });

  it('reads pasted text from standard input with -', async () => {
    const project = freshPath('pasted');
    const run = await parley(['import', '-', '--new-project', project, '--json'], { stdin: await readFile(boardV1, 'utf8') });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: 'openapi-3.0', apis: [{ name: 'Board', requests: 3, folders: 1 }] });
    // A pasted entry is cached under its own name.
    expect(existsSync(join(project, 'apis', 'Board', 'definition', 'openapi.yaml'))).toBe(true);
  });

  it('imports into an existing project: twice gives two APIs, each in its own folder', async () => {
    const project = await emptyProject();
    const first = await parley(['import', boardV1, '--project', project, '--json']);
    const second = await parley(['import', boardV1, '--project', project, '--json']);
    expect([first.code, second.code]).toEqual([0, 0]);
    const ids = [JSON.parse(first.stdout).apis[0].id, JSON.parse(second.stdout).apis[0].id];
    expect(new Set(ids).size).toBe(2);
    expect((await readdir(join(project, 'apis'))).sort()).toEqual(['Board', 'Board 2']);
    expect(await requestFiles(join(project, 'apis', 'Board 2'))).toHaveLength(3);
    // The project's own file is untouched.
    expect(await readFile(join(project, 'parley.yaml'), 'utf8')).toBe('version: 1\nname: Existing\nproperties: []\n');
  });

  it('a malformed document exits 2 with a message naming the file, and no project folder is made', async () => {
    const project = freshPath('broken');
    const run = await parley(['import', join(fixtures, 'broken.yaml'), '--new-project', project]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^parley import: broken\.yaml is not valid YAML \(line \d+\)/);
    expect(existsSync(project)).toBe(false);

    const json = await parley(['import', join(fixtures, 'broken.yaml'), '--new-project', project, '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'import-malformed', message: expect.stringContaining('broken.yaml') } });
    expect(existsSync(project)).toBe(false);
  });

  it('a missing file and a project folder that is not a project exit 2 and say so', async () => {
    const missing = await parley(['import', join(work, 'nope.yaml'), '--new-project', freshPath('x')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.yaml was not found.');
    const notProject = freshPath('not-a-project');
    await mkdir(notProject);
    const run = await parley(['import', boardV1, '--project', notProject]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a Parley project (no parley.yaml)');
    expect(await readdir(notProject)).toEqual([]);
  });

  it('Postman formats: a collection into a project and an environment into the workspace, --json of one shape, exit codes 0 and 2', async () => {
    const postman = join(fixtures, '../importers/postman');
    const collection = await parley(['import', join(postman, 'bruno/postman-v21.json'), '--new-project', freshPath('pm'), '--json']);
    expect(collection.code).toBe(0);
    const made = JSON.parse(collection.stdout) as Record<string, unknown>;
    expect(made).toMatchObject({ importer: 'postman-collection', format: 'postman-collection-2.1', detected: 'Postman collection v2.1', properties: 1, workspace: null });
    const env = await parley(['import', join(postman, 'environments/postman-env-mixed-enabled.json'), '--json']);
    expect(env.code).toBe(0);
    const landed = JSON.parse(env.stdout) as Record<string, unknown>;
    expect(Object.keys(landed).sort()).toEqual(Object.keys(made).sort());
    expect(landed).toMatchObject({ project: null, importer: 'postman-environment', workspace: { environments: [expect.objectContaining({ variables: expect.any(Number) })] } });
    const refused = await parley(['import', '-', '--format', 'postman-environment'], { stdin: JSON.stringify({ version: 1, collections: [], environments: [] }) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is a Postman data dump');
    const help = await parley(['import', '--help']);
    for (const id of ['postman-collection', 'postman-environment', 'postman-globals']) expect(help.stdout).toContain(id);
    expect(help.stdout).not.toContain('opencollection');
  });

  it('usage errors exit 2 before anything starts: both or neither target, credentials for a file or without their variable', async () => {
    const neither = await parley(['import', boardV1, '--format', 'openapi']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--project <folder> (an existing project) or --new-project <folder>');
    expect(neither.stderr).toContain('Usage: parley import');
    // With auto, only the importer knows whether a project is needed (an environment needs none).
    const auto = await parley(['import', boardV1]);
    expect(auto.code).toBe(2);
    expect(auto.stderr).toContain('brings APIs and requests: choose the project to import them into');
    const both = await parley(['import', boardV1, '--project', freshPath('a'), '--new-project', freshPath('b')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('choose one of --project <folder> and --new-project <folder>');
    const fileAuth = await parley(['import', boardV1, '--new-project', freshPath('c'), '--auth-bearer'], { env: { PARLEY_IMPORT_TOKEN: TOKEN } });
    expect(fileAuth.code).toBe(2);
    expect(fileAuth.stderr).toContain('the --auth-* options are for an http(s) URL');
    const noToken = await parley(['import', 'http://127.0.0.1:9/openapi.yaml', '--new-project', freshPath('d'), '--auth-bearer']);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('PARLEY_IMPORT_TOKEN, which is not set');
    const format = await parley(['import', boardV1, '--new-project', freshPath('e'), '--format', 'postman']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format must be one of auto, openapi, postman-collection, postman-environment, postman-globals, har, http, http-env, wsdl, protobuf, soapui, curl, not postman.');
    const help = await parley(['import', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('PARLEY_IMPORT_TOKEN');
  });
});

describe('parley import <URL>', SLOW, () => {
  let server: Server;
  let base: string;
  let hold: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const seen: { url: string; authorization?: string }[] = [];

  beforeAll(async () => {
    const document = await readFile(boardV1);
    server = createServer((req, res) => {
      seen.push({ url: req.url!, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      if (req.url === '/slow/openapi.yaml') return hold?.(req, res);
      if (req.url === '/secured/openapi.yaml' && req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/yaml' }).end(document);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it.skipIf(missingKeyring !== null)('with --auth-bearer: the token from PARLEY_IMPORT_TOKEN goes to the server and nowhere else', async () => {
    const project = freshPath('secured');
    const wrong = await parley(['import', `${base}/secured/openapi.yaml`, '--new-project', project, '--auth-bearer', '--json'], { env: { PARLEY_IMPORT_TOKEN: `${TOKEN}-old` } });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(`parley import: ${base}/secured/openapi.yaml needs authentication (HTTP 401).\n`);
    expect(JSON.parse(wrong.stdout)).toEqual({ error: { code: 'auth-required', message: expect.stringContaining('needs authentication') } });
    expect(existsSync(project)).toBe(false);

    const run = await parley(['import', `${base}/secured/openapi.yaml`, '--new-project', project, '--auth-bearer', '--json'], { env: { PARLEY_IMPORT_TOKEN: TOKEN } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ format: 'openapi-3.0', apis: [{ name: 'Board', requests: 3, folders: 1 }] });
    expect(seen.filter((s) => s.url === '/secured/openapi.yaml').at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(run.stdout + wrong.stdout + wrong.stderr).not.toContain(TOKEN);

    // The project records the source and a keychain reference, never the token; nor does the workspace.
    const files = await snapshot(project);
    for (const [path, bytes] of files) expect(bytes.toString('latin1'), path).not.toContain(TOKEN);
    const api = parseYaml(files.get(join('apis', 'Board', 'api.yaml'))!.toString()) as { definition: { source: unknown } };
    const secretName = `api.${out.apis[0].id}.definition`;
    expect(api.definition.source).toEqual({ kind: 'url', location: `${base}/secured/openapi.yaml`, credentials: { type: 'bearer', secret: `\${secret:${secretName}}` } });
    for (const [path, bytes] of await snapshot(home)) expect(bytes.toString('latin1'), path).not.toContain(TOKEN);
    // The token went to the keychain, under this workspace, and an update of the recorded source uses it.
    const secrets = new KeychainSecrets(home);
    expect(await secrets.get(secretName)).toBe(TOKEN);
    const update = await parley(['update-definition', project, '--api', 'Board', '--preview']);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('No operation was added, removed or changed.');
    expect(seen.at(-1)).toEqual({ url: '/secured/openapi.yaml', authorization: `Bearer ${TOKEN}` });
    expect(update.stdout + update.stderr).not.toContain(TOKEN);
    await secrets.delete(secretName);
  });

  it('a 401 exits 2 with "needs authentication"; credentials without a keychain are refused before the fetch', async () => {
    const project = freshPath('unauthorised');
    const bare = await parley(['import', `${base}/secured/openapi.yaml`, '--new-project', project]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(`parley import: ${base}/secured/openapi.yaml needs authentication (HTTP 401).\n`);
    expect(existsSync(project)).toBe(false);

    // No Secret Service on this bus: the token could not be kept for later updates.
    const before = seen.length;
    const noKeychain = await parley(['import', `${base}/secured/openapi.yaml`, '--new-project', project, '--auth-bearer'], {
      env: { PARLEY_IMPORT_TOKEN: TOKEN, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(work, 'no-bus')}` },
    });
    expect(noKeychain.code).toBe(2);
    expect(noKeychain.stderr).toMatch(/^parley import: No secure storage on this system: .* The --auth-\* credentials are stored there for later updates/);
    expect(noKeychain.stderr).not.toContain(TOKEN);
    expect(seen.length).toBe(before);
    expect(existsSync(project)).toBe(false);
  });

  it('SIGTERM during a slow fetch cancels the job: exit 143, the importer gone, nothing else started', async () => {
    let requested!: () => void;
    const arrived = new Promise<void>((r) => (requested = r));
    // Headers never come: the importer waits on the fetch until it is killed.
    hold = () => requested();
    const project = freshPath('slow');
    const child = start(['import', `${base}/slow/openapi.yaml`, '--new-project', project]);
    const done = finished(child);
    await arrived;
    const importers = await childrenOf(child.pid!, 'importer.js');
    const others = [...(await childrenOf(child.pid!, 'sender.js')), ...(await childrenOf(child.pid!, 'checker.js'))];
    expect(importers).toHaveLength(1);
    // Import never sends or checks, so the sender and checker are not started for it.
    expect(others).toHaveLength(0);
    child.kill('SIGTERM');
    const run = await done;
    expect(run.code).toBe(143);
    expect(run.stderr).toBe('parley import: cancelled.\n');
    for (const pid of [...importers, ...others]) expect(alive(pid), `child ${pid}`).toBe(false);
    expect(existsSync(project)).toBe(false);
    hold = null;
  });
});

describe('parley update-definition', SLOW, () => {
  it('previews without writing, then applies: a request added, the removed operation kept and marked orphaned', async () => {
    const source = join(freshPath('board-source'), 'openapi.yaml');
    await mkdir(join(source, '..'), { recursive: true });
    await copyFile(boardV1, source);
    const project = freshPath('board');
    expect((await parley(['import', source, '--new-project', project])).code).toBe(0);
    await copyFile(boardV2, source);

    const before = await snapshot(project);
    const preview = await parley(['update-definition', project, '--api', 'Board', '--preview']);
    expect(preview.stderr).toBe('');
    expect(preview.code).toBe(0);
    expect(preview.stdout).toBe(
      [
        `Definition update of Board from ${source} (openapi-3.0)`,
        'Added (1)',
        '  POST /games',
        'Removed (1)',
        '  DELETE /board',
        'Changed (1)',
        '  GET /board/{square}: parameters',
        'API-wide: version 1.0.0 → 1.1.0',
        'Preview only: nothing was written. Run without --preview to apply.',
        '',
      ].join('\n'),
    );
    expect(await snapshot(project)).toEqual(before);

    const apply = await parley(['update-definition', project, '--api', 'Board']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('  POST /games\n');
    // Reading a square gains its new query row: that request is rewritten.
    expect(apply.stdout).toContain('Applied: 1 request added, 1 rewritten, 1 orphaned, 0 restored.\n');
    const api = join(project, 'apis', 'Board');
    expect(await requestFiles(api)).toEqual([
      join('requests', 'board', 'Clear the board.request.yaml'),
      join('requests', 'board', 'Read a square.request.yaml'),
      join('requests', 'board', 'Read the board.request.yaml'),
      join('requests', 'games', 'Start a game.request.yaml'),
    ]);
    const cleared = parseYaml(await readFile(join(api, 'requests', 'board', 'Clear the board.request.yaml'), 'utf8')) as { orphaned?: boolean; operation: unknown };
    expect(cleared).toMatchObject({ orphaned: true, operation: { method: 'delete', path: '/board' } });
    const added = parseYaml(await readFile(join(api, 'requests', 'games', 'Start a game.request.yaml'), 'utf8')) as { method: string; operation: unknown };
    expect(added).toMatchObject({ method: 'POST', operation: { method: 'post', path: '/games' } });
    expect(await readFile(join(api, 'definition', 'openapi.yaml'))).toEqual(await readFile(boardV2));

    // Nothing left to change: still exit 0, with every count zero.
    const again = await parley(['update-definition', project, '--api', 'Board', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      project,
      api: { name: 'Board' },
      source,
      preview: { added: [], removed: [], changed: [], declaredVersion: 'openapi-3.0' },
      applied: true,
      counts: { added: 0, rewritten: 0, orphaned: 0, restored: 0 },
    });
  });

  it('a WSDL interface: previews by operation, applies, replaces the cached WSDL and its imports, keeps an edited envelope', async () => {
    const wsdlFixtures = join(root, 'test', 'fixtures', 'wsdl', 'parley', 'update');
    const folder = freshPath('calc-source');
    await mkdir(folder, { recursive: true });
    const source = join(folder, 'calc.wsdl');
    await copyFile(join(wsdlFixtures, 'calc-v1.wsdl'), source);
    const project = freshPath('calc');
    expect((await parley(['import', source, '--new-project', project])).code).toBe(0);
    const api = join(project, 'apis', 'CalcSoap11');
    // The user edits Divide's envelope on disk.
    const divideFile = join(api, 'requests', 'Divide.request.yaml');
    const divide = await readFile(divideFile, 'utf8');
    expect(divide).toContain('<c:dividend>0</c:dividend>');
    await writeFile(divideFile, divide.replace('<c:dividend>0</c:dividend>', '<c:dividend>84</c:dividend>'));
    await copyFile(join(wsdlFixtures, 'calc-v2-types.xsd'), join(folder, 'calc-v2-types.xsd'));
    await copyFile(join(wsdlFixtures, 'calc-v2.wsdl'), source);

    const apply = await parley(['update-definition', project, '--api', 'CalcSoap11']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toBe(
      [
        `Definition update of CalcSoap11 from ${source} (wsdl-1.1)`,
        'Added (1)',
        '  SOAP Modulo',
        'Removed (1)',
        '  SOAP Subtract',
        'Changed (2)',
        '  SOAP Add: action',
        '  SOAP Divide: input',
        'Kept edits (envelope kept; action and headers updated) (1)',
        '  Divide (SOAP Divide)',
        'API-wide: endpoint http://127.0.0.1:8080/calc → http://127.0.0.1:8080/v2/calc',
        'Applied: 1 request added, 3 rewritten, 1 orphaned, 0 restored, 1 edited kept.',
        '',
      ].join('\n'),
    );
    expect(await readdir(join(api, 'definition'))).toEqual(['calc-v2-types.xsd', 'calc.wsdl']);
    expect(await readFile(join(api, 'definition', 'calc.wsdl'))).toEqual(await readFile(join(wsdlFixtures, 'calc-v2.wsdl')));
    expect(await readFile(divideFile, 'utf8')).toContain('<c:dividend>84</c:dividend>');
    const modulo = parseYaml(await readFile(join(api, 'requests', 'Modulo.request.yaml'), 'utf8')) as { soap: unknown; url: string };
    expect(modulo).toMatchObject({ url: 'http://127.0.0.1:8080/v2/calc', soap: { binding: 'CalcSoap11', operation: 'Modulo' } });
    expect(parseYaml(await readFile(join(api, 'requests', 'Subtract.request.yaml'), 'utf8'))).toMatchObject({ orphaned: true });

    // The new cache is what the next update compares with: nothing left to change.
    const again = await parley(['update-definition', project, '--api', 'CalcSoap11', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ preview: { added: [], removed: [], changed: [], keptEdits: [] }, counts: { added: 0, rewritten: 0, orphaned: 0, restored: 0, kept: 0 } });
  });

  it('--preview compares by content: an identical copy at another path changes nothing, one changed parameter exactly its operation', async () => {
    const project = freshPath('shop-located');
    expect((await parley(['import', join(shop, 'spec', 'shop.yaml'), '--new-project', project])).code).toBe(0);
    // The same files somewhere else, the entry under another name.
    const copy = freshPath('shop-copy');
    await cp(shop, copy, { recursive: true });
    const entry = join(copy, 'spec', 'openapi.yaml');
    await rename(join(copy, 'spec', 'shop.yaml'), entry);
    const before = await snapshot(project);

    const same = await parley(['update-definition', project, '--api', 'Shop', '--source', entry, '--preview']);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).toBe(
      [`Definition update of Shop from ${entry} (openapi-3.0)`, 'No operation was added, removed or changed.', 'Preview only: nothing was written. Run without --preview to apply.', ''].join('\n'),
    );

    // One parameter of GET /items becomes required.
    const text = await readFile(entry, 'utf8');
    await writeFile(entry, text.replace('{name: q, in: query, schema: {type: string}}', '{name: q, in: query, required: true, schema: {type: string}}'));
    const changed = await parley(['update-definition', project, '--api', 'Shop', '--source', entry, '--preview']);
    expect(changed.code).toBe(0);
    expect(changed.stdout).toContain(['Changed (1)', '  GET /items: parameters', 'Preview only'].join('\n'));
    expect(changed.stdout).not.toMatch(/Added|Removed/);
    expect(await snapshot(project)).toEqual(before);
  });

  it('--source reads another file and is recorded for the next update', async () => {
    const project = freshPath('board-moved');
    expect((await parley(['import', boardV1, '--new-project', project])).code).toBe(0);
    const run = await parley(['update-definition', project, '--api', 'board', '--source', boardV2, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ source: boardV2, counts: { added: 1, orphaned: 1 } });
    const api = parseYaml(await readFile(join(project, 'apis', 'Board', 'api.yaml'), 'utf8')) as { definition: { source: unknown } };
    expect(api.definition.source).toEqual({ kind: 'file', location: boardV2 });
  });

  it('an unknown --api exits 2 and lists the API names; an API from pasted text asks for --source', async () => {
    const project = freshPath('pasted-board');
    expect((await parley(['import', '-', '--new-project', project, '--no-webhooks'], { stdin: await readFile(boardV1, 'utf8') })).code).toBe(0);
    expect((await parley(['import', uber, '--project', project])).code).toBe(0);
    const unknown = await parley(['update-definition', project, '--api', 'Chess']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`parley update-definition: ${project} has no API named Chess. Its APIs: Board, Uber API.\n`);
    const pasted = await parley(['update-definition', project, '--api', 'Board', '--json']);
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).toContain('Pass --source <file or URL>.');
    expect(JSON.parse(pasted.stdout).error.code).toBe('no-source');
    const usage = await parley(['update-definition', project]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--api <name>');
  });
});

describe('parley import <file.har>', SLOW, () => {
  const har = join(root, 'test', 'fixtures', 'importers', 'har');

  it('imports a capture with its options as flags; refuses one with no requests left (exit 2) and a bad --recorded-responses', async () => {
    const project = freshPath('har-capture');
    const run = await parley(['import', join(har, 'successful_log.har'), '--new-project', project, '--recorded-responses', 'examples', '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ importer: 'har', detected: 'HAR 1.2', declaredVersion: 'har-1.2' });
    expect(out.apis.map((a: { name: string }) => a.name).sort()).toEqual(['example.com', 'httpbin.org']);
    expect((await readdir(join(project, 'apis'))).sort()).toEqual(['example.com', 'httpbin.org']);

    const text = await parley(['import', join(har, 'successful_log.har'), '--project', project, '--format', 'har']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Format recognised {3}HAR 1\.2/);
    expect(text.stdout).toMatch(/Notes \(\d\)\n {2}[\s\S]*entries read/);

    const empty = join(work, 'empty.har');
    await writeFile(empty, JSON.stringify({ log: { version: '1.2', entries: [{ request: { method: 'GET', url: 'data:,x' }, response: { status: 200 } }] } }));
    const refused = await parley(['import', empty, '--new-project', freshPath('har-empty'), '--json']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'import-refused', message: expect.stringMatching(/^empty\.har holds no HTTP requests to import/) });
    expect(existsSync(freshPath('har-empty'))).toBe(false);

    const usage = await parley(['import', empty, '--new-project', freshPath('har-usage'), '--recorded-responses', 'all']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--recorded-responses must be none, history or examples, not all.');
  });
});
