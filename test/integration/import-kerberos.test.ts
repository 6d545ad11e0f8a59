/**
 * `parley import --kerberos` of a WSDL by URL against a real MIT KDC (test/support/kdc.ts) and an
 * HTTP server that requires Negotiate, checked by the `kerberos` package with the service keytab
 * (test/support/negotiate-server.mjs), all on 127.0.0.1. The built CLI runs with its own
 * supervisor and importer child, which inherit the KDC's krb5.conf and the signed-in ticket.
 * dist/ must be built first. Under CI=true missing krb5 tools fail; elsewhere they skip.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../processes/supervisor/paths.js';
import type { Api } from '../../protocol/model/api.js';
import { kerberosMissing, startKdc, type Kdc } from '../support/kdc.js';
import { startNegotiateServer, startRecordingOrigin, type NegotiateServer, type RecordingOrigin } from '../support/negotiate-server.js';
import { finished, type Run } from '../support/processes.js';
import { CALC_WSDL } from '../support/soap-server.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const missing = kerberosMissing();
const SLOW = { timeout: 60_000 };

let work: string;
let kdc: Kdc;
let server: NegotiateServer;
/** Another origin (another port) that the Negotiate server redirects to; it records what it got. */
let other: RecordingOrigin;

beforeAll(async () => {
  if (missing) return;
  work = await mkdtemp(join(tmpdir(), 'parley-kerberos-'));
  kdc = await startKdc();
  const wsdlPath = join(work, 'calc.wsdl');
  await writeFile(wsdlPath, (await readFile(CALC_WSDL, 'utf8')).replaceAll('ENDPOINT', 'http://127.0.0.1:9'));
  other = await startRecordingOrigin((res) => void readFile(wsdlPath).then((body) => res.writeHead(200, { 'content-type': 'text/xml' }).end(body)));
  const openapiPath = join(work, 'openapi.yaml');
  await writeFile(openapiPath, "openapi: 3.0.3\ninfo: {title: Kerb Board, version: '1'}\npaths:\n  /cards:\n    get:\n      responses: {'200': {description: ok}}\n");
  server = await startNegotiateServer(kdc, {
    '/calc.wsdl': { file: wsdlPath },
    '/moved.wsdl': { redirect: `${other.origin}/calc.wsdl` },
    '/openapi.yaml': { file: openapiPath, contentType: 'application/yaml' },
  });
});

afterAll(async () => {
  if (missing) return;
  await server?.close();
  await other?.close();
  await kdc?.stop();
  await rm(work, { recursive: true, force: true });
});

function parley(args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: 'pipe', env: { ...process.env, ...env, PARLEY_HOME: join(work, 'home') } });
  const done = finished(child);
  child.stdin.end('');
  return done;
}

async function apiOf(project: string): Promise<Api> {
  const { readdir } = await import('node:fs/promises');
  const [name] = await readdir(join(project, 'apis'));
  return parseYaml(await readFile(join(project, 'apis', name!, 'api.yaml'), 'utf8')) as Api;
}

describe.skipIf(missing !== null)(`parley import --kerberos${missing ? ` (skipped: ${missing})` : ''}`, SLOW, () => {
  it('imports a WSDL from a server requiring Negotiate with the signed-in ticket, and records Kerberos (no secret) as its source credentials', async () => {
    const project = join(work, 'ok');
    const run = await parley(['import', '--format', 'wsdl', '--kerberos', `${server.origin}/calc.wsdl`, '--new-project', project, '--json'], kdc.env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: 'wsdl-1.1', errors: [] });
    const accepted = server.seen.filter((s) => s.path === '/calc.wsdl' && s.user !== null);
    expect(accepted.map((s) => s.user)).toContain(kdc.user);
    const api = await apiOf(project);
    expect(api.definition!.source).toEqual({ kind: 'url', location: `${server.origin}/calc.wsdl`, credentials: { type: 'kerberos' } });
  });

  it('with --use-credentials-for-requests every interface of the WSDL gets Kerberos request auth (the SPN kept); without it, none', async () => {
    const { readdir } = await import('node:fs/promises');
    const authsOf = async (project: string) =>
      Promise.all((await readdir(join(project, 'apis'))).map(async (name) => (parseYaml(await readFile(join(project, 'apis', name, 'api.yaml'), 'utf8')) as Api).auth));
    const project = join(work, 'for-requests');
    const run = await parley(['import', '--format', 'wsdl', '--kerberos', '--spn', 'HTTP/127.0.0.1@PARLEY.TEST', '--use-credentials-for-requests', `${server.origin}/calc.wsdl`, '--new-project', project, '--json'], kdc.env);
    expect(run.code, run.stderr).toBe(0);
    expect(await authsOf(project)).toEqual([0, 1, 2].map(() => ({ type: 'kerberos', spn: 'HTTP/127.0.0.1@PARLEY.TEST' })));
    const without = join(work, 'not-for-requests');
    expect((await parley(['import', '--format', 'wsdl', '--kerberos', `${server.origin}/calc.wsdl`, '--new-project', without, '--json'], kdc.env)).code).toBe(0);
    expect(await authsOf(without)).toEqual([0, 1, 2].map(() => ({ type: 'none' })));
  });

  it('--use-credentials-for-requests without --auth-basic or --kerberos is a usage error', async () => {
    const run = await parley(['import', '--format', 'wsdl', '--use-credentials-for-requests', `${server.origin}/calc.wsdl`, '--new-project', join(work, 'usage'), '--json'], kdc.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--use-credentials-for-requests goes with --auth-basic <user> or --kerberos.');
  });

  it('without --kerberos the server is reported as needing authentication', async () => {
    const run = await parley(['import', '--format', 'wsdl', `${server.origin}/calc.wsdl`, '--new-project', join(work, 'none'), '--json'], kdc.env);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'auth-required' });
    expect(run.stderr).toContain('needs authentication (HTTP 401)');
  });

  it('a redirect to another origin does not get the token', async () => {
    other.saw.length = 0;
    const before = server.seen.length;
    const run = await parley(['import', '--format', 'wsdl', '--kerberos', `${server.origin}/moved.wsdl`, '--new-project', join(work, 'moved'), '--json'], kdc.env);
    expect(run.code, run.stderr).toBe(0);
    // The WSDL's own origin got the token and answered with the redirect...
    expect(server.seen.slice(before).filter((s) => s.path === '/moved.wsdl').map((s) => s.authorization)).toEqual([null, 'Negotiate']);
    // ...and the other origin got no Authorization at all.
    expect(other.saw.length).toBeGreaterThan(0);
    expect(other.saw.map((h) => h.authorization)).toEqual(other.saw.map(() => undefined));
  });

  it('a wrong SPN is a clear error naming the service', async () => {
    const run = await parley(['import', '--format', 'wsdl', '--kerberos', '--spn', 'HTTP@nosuch.parley.test', `${server.origin}/calc.wsdl`, '--new-project', join(work, 'spn'), '--json'], kdc.env);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'definition-auth-bad-spn' });
    expect(run.stderr).toContain('the Kerberos KDC does not know the service HTTP@nosuch.parley.test');
  });

  it('an OpenAPI definition imported with Kerberos is updated from its recorded source with Kerberos again (nothing from the keychain)', async () => {
    const project = join(work, 'openapi');
    const imported = await parley(['import', '--kerberos', `${server.origin}/openapi.yaml`, '--new-project', project, '--json'], kdc.env);
    expect(imported.code, imported.stderr).toBe(0);
    expect((await apiOf(project)).definition!.source!.credentials).toEqual({ type: 'kerberos' });
    const before = server.seen.length;
    const update = await parley(['update-definition', project, '--api', 'Kerb Board', '--json'], kdc.env);
    expect(update.code, update.stderr).toBe(0);
    expect(server.seen.slice(before).filter((s) => s.path === '/openapi.yaml').map((s) => s.user)).toContain(kdc.user);
    expect((await apiOf(project)).definition!.source!.credentials).toEqual({ type: 'kerberos' });
  });
});
