/**
 * Peer check of the .http importer against httpyac (the .http client people use from the command
 * line): httpyac sends four .http files (test/fixtures/http/peer: kulala's simple.http, the first
 * three requests of httpyac's intellij example and the first of its graphql example (a fragment
 * above the request, a query and its variables), with their host rewritten to the local server,
 * and a pet store written the way people write these files: file variables built from
 * variables, `###` titles, `# @name`, a query continued over lines, JSON and form bodies, a
 * `< ./pet.json` body, a request with HTTP/1.1) to an echo server on 127.0.0.1; then
 * `parley import` brings the same files into one project and `parley run` sends it to the same
 * server. The server must receive the same method, URL, headers and body for every request, in
 * the same order. Headers each client adds for itself are left out: User-Agent, Connection,
 * Accept-Encoding (and for GraphQL, see graphqlComparable). The token variables are credentials:
 * imported without a secret store (`--without-secrets`), their values reach `parley run` as
 * PARLEY_SECRET_<NAME>, as in CI.
 * dist/ must be built first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { secretEnvName } from '../../protocol/secret-names.js';
import { finished, type Run } from '../support/processes.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const httpyac = join(root, 'node_modules', 'httpyac', 'bin', 'httpyac.js');
const fixtures = join(root, 'test', 'fixtures', 'http', 'peer');
/** In the order both clients send them: httpyac's command line and the order of the imports. */
const FILES = ['pets.http', 'intellij.http', 'simple.http', 'graphql.http'];
/** Headers a client adds for itself, not from the file. */
const OWN_HEADERS = new Set(['user-agent', 'connection', 'accept-encoding']);
/**
 * A GraphQL request is compared as the operation it carries. Each client writes its own Accept
 * (httpyac `*\/*`, Parley GraphQL over HTTP's), httpyac names the document's only operation in
 * operationName where Parley leaves it out (both valid: a server runs the only operation), and
 * joins the fragment written above the request with one newline where Parley leaves a blank line.
 */
const GRAPHQL_OWN = new Set(['accept', 'content-length']);
function graphqlComparable(body: string): string {
  const { query, variables } = JSON.parse(body) as { query: string; variables?: unknown };
  return JSON.stringify({ query: query.replace(/\n\s*\n/g, '\n'), variables });
}
/** A run of either client may not outlive this. */
const DEADLINE_MS = 90_000;

interface Received {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
}

let work: string;
let server: Server;
let received: Received[] = [];
const running = new Set<ChildProcess>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-httpyac-peer-'));
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const graphql = req.url === '/graphql';
      received.push({ method: req.method!, url: req.url!, headers: comparable(req.headers).filter(([name]) => !(graphql && GRAPHQL_OWN.has(name))), body: graphql ? graphqlComparable(body) : body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = String((server.address() as AddressInfo).port);
  for (const name of await readdir(fixtures)) await writeFile(join(work, name), (await readFile(join(fixtures, name), 'utf8')).replaceAll('PORT', port));
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  server?.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(work, { recursive: true, force: true });
});

function comparable(headers: IncomingHttpHeaders): [string, string][] {
  return Object.entries(headers)
    .filter(([name]) => !OWN_HEADERS.has(name))
    .map(([name, value]): [string, string] => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** A node script run to its end, killed at the deadline (its output then says so). */
function run(script: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [script, ...args], { cwd: work, stdio: 'pipe', env: { ...process.env, ...env } });
  running.add(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
  child.stdin.end();
  return finished(child).finally(() => {
    clearTimeout(timer);
    running.delete(child);
  });
}

it("sends what httpyac sends for real .http files: variables, titles and names, continued URLs, JSON, form and file bodies, a GraphQL query with its fragment, credential variables", { timeout: 240_000 }, async () => {
  const yac = await run(httpyac, ['send', ...FILES, '--all', '--output', 'none']);
  expect(yac.code, `${yac.stdout}\n${yac.stderr}`).toBe(0);
  const byHttpyac = received;
  received = [];
  expect(byHttpyac.map((r) => `${r.method} ${r.url}`)).toEqual([
    'GET /v1/pets?limit=10&sort=name',
    'POST /v1/pets',
    'PUT /v1/pets/42',
    'PATCH /v1/pets/42',
    'POST /v1/pets/import',
    'DELETE /v1/pets/42',
    'POST /anything',
    'POST /anything',
    'POST /anything?test=test',
    'POST /simple',
    'POST /graphql',
  ]);
  // What the comparison stands on: variables were replaced and the file body was read.
  expect(byHttpyac[1]!.body).toContain('"id": 42');
  expect(byHttpyac[4]!.body).toContain('"name": "Tom"');
  expect(byHttpyac[9]!.headers).toContainEqual(['authorization', 'Bearer Foo:bar=baz']);
  expect(byHttpyac[10]!.body).toMatch(/"query":"query test[^]*fragment IOParts[^]*","variables":\{"name":"vscode-httpyac","owner":"AnWeber"\}/);

  const home = join(work, 'home');
  const project = join(work, 'project');
  for (const [i, file] of FILES.entries()) {
    const args = ['import', join(work, file), ...(i === 0 ? ['--new-project', project] : ['--project', project]), '--without-secrets'];
    const imported = await run(cli, args, { PARLEY_HOME: home });
    expect(imported.code, `${args.join(' ')}\n${imported.stdout}\n${imported.stderr}`).toBeLessThan(2);
  }
  const sent = await run(cli, ['run', project], { PARLEY_HOME: home, [secretEnvName('properties/BASIC_TEST_TOKEN')]: 'Foo:bar=baz', [secretEnvName('properties/git_api_key')]: 'gh-token-LITERAL' });
  expect(sent.code, `${sent.stdout}\n${sent.stderr}`).toBe(0);
  const byParley = received;
  expect(byParley.map((r) => `${r.method} ${r.url}`)).toEqual(byHttpyac.map((r) => `${r.method} ${r.url}`));
  for (let i = 0; i < byHttpyac.length; i++) expect(byParley[i], `request ${i + 1}: ${byHttpyac[i]!.method} ${byHttpyac[i]!.url}`).toEqual(byHttpyac[i]);
});
