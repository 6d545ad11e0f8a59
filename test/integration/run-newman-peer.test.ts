/**
 * Peer check of `parley run` against newman (Postman's own runner): one collection without
 * scripts (collection variables, an environment and globals, path variables, query rows with a
 * disabled one, raw JSON / text / XML, urlencoded, form-data (text and file parts), GraphQL and binary bodies, Basic / Bearer / API key
 * auth inherited and per request) is run by newman, then imported with `parley import` and run
 * by `parley run`, against the same echo server on 127.0.0.1. The server must receive the same
 * method, URL, headers and body for every request, in the same order. Headers each client adds
 * for itself are left out: User-Agent, Connection, newman's Postman-Token, Cache-Control and
 * Accept-Encoding (transport negotiation), and a multipart body is compared with its boundary
 * (random per client) normalised, a form-encoded one compared as its name/value pairs (newman
 * writes a space as %20, Parley as +, both standard); the Content-Length of these two kinds follows.
 * A GraphQL body is compared as JSON (the importer pretty-prints it). Binary and form-data file
 * bodies read files/pet.bin: newman from its working folder, Parley from the project's.
 * dist/ must be built first.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import newman from 'newman';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { finished } from '../support/processes.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const fixtures = join(root, 'test', 'fixtures', 'run-peer');
/** Headers a client adds for itself, not from the collection. */
const OWN_HEADERS = new Set(['user-agent', 'connection', 'postman-token', 'cache-control', 'accept-encoding']);

interface Received {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
}

let work: string;
let server: Server;
let received: Received[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-run-peer-'));
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const graphql = req.url === '/graphql';
      const body = Buffer.concat(chunks).toString('utf8');
      // The one exception to byte-for-byte bodies: Postman's GraphQL body kind is imported as a raw
      // JSON body, pretty-printed for editing (newman sends it compact), so it is compared as JSON, and its length with it.
      received.push({ method: req.method!, url: req.url!, headers: comparable(req.headers).filter(([name]) => !(graphql && name === 'content-length')), body: graphql ? JSON.stringify(JSON.parse(body)) : normaliseBody(req.headers, body) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  for (const name of ['environment.json', 'folders-environment.json']) await writeFile(join(work, name), (await readFile(join(fixtures, name), 'utf8')).replace('PORT', String(port)));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(work, { recursive: true, force: true });
});

function comparable(headers: IncomingHttpHeaders): [string, string][] {
  return Object.entries(headers)
    // A multipart body's length follows its boundary's, a form's its encoding of spaces: compared by content instead.
    .filter(([name]) => !OWN_HEADERS.has(name) && !(name === 'content-length' && /^(application\/x-www-form-urlencoded|multipart\/)/.test(headers['content-type'] ?? '')))
    .map(([name, value]): [string, string] => [name, normaliseBoundary(headers, Array.isArray(value) ? value.join(', ') : (value ?? ''))])
    .sort(([a], [b]) => a.localeCompare(b));
}

function boundaryOf(headers: IncomingHttpHeaders): string | undefined {
  return /boundary=("?)([^";]+)\1/.exec(headers['content-type'] ?? '')?.[2];
}

function normaliseBoundary(headers: IncomingHttpHeaders, text: string): string {
  const boundary = boundaryOf(headers);
  return boundary ? text.split(boundary).join('BOUNDARY') : text;
}

/** A multipart body with its boundary normalised; a form-encoded one as its pairs (a space is `%20` to newman, `+` to Parley, both standard). */
function normaliseBody(headers: IncomingHttpHeaders, body: string): string {
  if ((headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return JSON.stringify([...new URLSearchParams(body)]);
  return normaliseBoundary(headers, body);
}

function runNewman(collection = 'collection.json', environment = 'environment.json', globals: string | undefined = join(fixtures, 'globals.json')): Promise<void> {
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection: join(fixtures, collection),
        environment: join(work, environment),
        ...(globals ? { globals } : {}),
        // File bodies (files/pet.bin) are read from here, as they are from the project folder by Parley.
        workingDir: fixtures,
        reporters: [],
      },
      (err, summary) => (err ? reject(err) : summary.run.failures.length > 0 ? reject(new Error(JSON.stringify(summary.run.failures))) : resolve()),
    );
  });
}

async function parley(args: string[], home: string) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: 'pipe', env: { ...process.env, PARLEY_HOME: home } });
  child.stdin.end();
  return finished(child);
}

it('sends what newman sends for a collection with variables, every body kind and Basic/Bearer/API key auth', { timeout: 180_000 }, async () => {
  await runNewman();
  const byNewman = received;
  received = [];
  expect(byNewman).toHaveLength(13);
  // The file bodies were really sent (an empty body on both sides would compare equal too).
  expect(byNewman[11]!.body).toContain('binary body');
  expect(byNewman[12]!.body).toMatch(/name="photo"[\s\S]*binary body/);

  const home = join(work, 'home');
  const project = join(work, 'project');
  for (const args of [
    ['import', join(fixtures, 'collection.json'), '--new-project', project],
    ['import', join(work, 'environment.json')],
    ['import', join(fixtures, 'globals.json')],
  ]) {
    const run = await parley(args, home);
    expect(run.code, `${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBeLessThan(2);
  }
  // Parley sends body files only from inside the project: the file the collection names is put there.
  await mkdir(join(project, 'files'), { recursive: true });
  await copyFile(join(fixtures, 'files', 'pet.bin'), join(project, 'files', 'pet.bin'));
  const run = await parley(['run', project, '--env', 'Peer env'], home);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const byParley = received;
  expect(byParley.map((r) => `${r.method} ${r.url}`)).toEqual(byNewman.map((r) => `${r.method} ${r.url}`));
  for (let i = 0; i < byNewman.length; i++) expect(byParley[i], `request ${i + 1}: ${byNewman[i]!.method} ${byNewman[i]!.url}`).toEqual(byNewman[i]);
});

it("sends what newman sends for folder auth (nested, none, a request's own), folder variables and a folder's header", { timeout: 180_000 }, async () => {
  received = [];
  await runNewman('folders.json', 'folders-environment.json', undefined);
  const byNewman = received;
  received = [];
  expect(byNewman.map((r) => `${r.method} ${r.url}`)).toEqual([
    'GET /me',
    'GET /orders?region=env-region',
    'POST /orders',
    'GET /orders/drafts',
    'GET /orders/drafts/public',
    'GET /orders/drafts/archive',
    'GET /status',
    'GET /me?again=1',
  ]);
  // What the comparison stands on: each auth reached the wire where Postman's inheritance says.
  const auth = byNewman.map((r) => r.headers.find(([n]) => n === 'authorization' || n === 'x-api-key')?.join(': ') ?? '');
  expect(auth).toEqual([
    'authorization: Bearer api-token-1',
    'x-api-key: orders-key-2',
    'authorization: Bearer own-token-3',
    `authorization: Basic ${Buffer.from('drafter:draft pass').toString('base64')}`,
    '',
    `authorization: Basic ${Buffer.from('drafter:draft pass').toString('base64')}`,
    '',
    'authorization: Bearer api-token-1',
  ]);
  expect(byNewman.map((r) => r.headers.some(([n, v]) => n === 'x-team' && v === 'orders'))).toEqual([false, true, true, true, true, true, false, false]);

  const home = join(work, 'home-folders');
  const project = join(work, 'project-folders');
  for (const args of [
    ['import', join(fixtures, 'folders.json'), '--new-project', project],
    ['import', join(work, 'folders-environment.json')],
  ]) {
    const run = await parley(args, home);
    expect(run.code, `${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBeLessThan(2);
  }
  // Postman has no folder headers: its users add one from the folder's pre-request script, which
  // Parley does not run (the import reports it). Parley's own way is the folder's header, set here
  // as the Folder settings tab would.
  const store = await ProjectStore.open(project);
  try {
    const orders = store.tree().items.find((i) => i.kind === 'folder' && i.name === 'Orders')!.id;
    const { settings } = store.getFolder(orders);
    expect(settings.auth).toEqual({ type: 'apikey', name: 'X-Api-Key', value: '${ordersKey}', in: 'header' });
    expect(settings.variables).toEqual([{ name: 'region', value: 'folder-region', enabled: true }]);
    await store.saveFolder(orders, { ...settings, headers: [{ name: 'X-Team', value: 'orders', enabled: true }] });
  } finally {
    await store.close();
  }
  const run = await parley(['run', project, '--env', 'Folder peer env'], home);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  const byParley = received;
  expect(byParley.map((r) => `${r.method} ${r.url}`)).toEqual(byNewman.map((r) => `${r.method} ${r.url}`));
  for (let i = 0; i < byNewman.length; i++) expect(byParley[i], `request ${i + 1}: ${byNewman[i]!.method} ${byNewman[i]!.url}`).toEqual(byNewman[i]);
});

it('sends login -> create -> fetch -> delete in the collection\'s order, as newman does, not by name (issue 28)', { timeout: 180_000 }, async () => {
  received = [];
  await runNewman('login-flow.json', 'environment.json', undefined);
  const byNewman = received.map((r) => `${r.method} ${r.url}`);
  expect(byNewman).toEqual(['POST /login', 'POST /orders', 'GET /orders/1', 'DELETE /orders/1']);
  received = [];
  const home = join(work, 'home-login-flow');
  const project = join(work, 'project-login-flow');
  for (const args of [
    ['import', join(fixtures, 'login-flow.json'), '--new-project', project],
    ['import', join(work, 'environment.json')],
  ]) {
    const run = await parley(args, home);
    expect(run.code, `${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBeLessThan(2);
  }
  const run = await parley(['run', project, '--env', 'Peer env'], home);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  // By name it would be Create, Delete, Fetch, Login.
  expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(byNewman);
});
