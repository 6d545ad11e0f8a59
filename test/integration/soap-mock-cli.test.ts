/**
 * SOAP mocks from the command line, end to end: `parley import` reads a WSDL fixture (with two
 * levels of xsd:include) into a new project, `parley mock new` makes a mock of its binding,
 * `parley mock check` finds it clean, and `parley mock serve` hosts it with its real mock-host
 * child. A real SOAP client (the `soap` package) builds itself from the mock's `?wsdl` (every
 * address rewritten to the mock, the included schemas fetched from the mock too) and gets the
 * Default answers; under --check refuse a request that breaks the schema gets a SOAP fault.
 * dist/ must be built first (`npm run build`).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import * as soap from 'soap';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { finished, type Run } from '../support/processes.js';
import { until } from '../support/until.js';

const root = repoRoot();
const cli = join(root, 'dist', 'cli.js');
const wsdl = join(root, 'test', 'fixtures', 'wsdl', 'mock', 'test1', 'TestService.wsdl');

let home = '';
let project = '';
const started: Array<{ child: ChildProcessWithoutNullStreams; exited: Promise<number | null> }> = [];

const env = () => ({ ...process.env, PARLEY_HOME: join(home, 'data') });
const parley = (args: string[]): Promise<Run> => finished(spawn(process.execPath, [cli, ...args], { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'] }));

async function serve(args: string[]): Promise<{ url: string; out: () => string; child: ChildProcessWithoutNullStreams; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [cli, 'mock', 'serve', ...args], { cwd: root, env: env(), stdio: 'pipe' });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  started.push({ child, exited });
  const url = await until(() => /is serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 30_000, () => `no URL printed; output so far:\n${out}`);
  return { url, out: () => out, child, exited };
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-soap-mock-'));
  project = join(home, 'project');
  const imported = await parley(['import', wsdl, '--new-project', project]);
  expect(imported.code, imported.stderr + imported.stdout).toBe(0);
}, 60_000);

afterAll(async () => {
  for (const s of started.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await s.exited;
  }
  if (home) await rm(home, { recursive: true, force: true });
});

describe('SOAP mock from the command line', () => {
  it('parley mock new makes one operation per WSDL operation, and parley mock check finds it clean', async () => {
    const made = await parley(['mock', 'new', project, '--api', 'TestServiceSoap', '--name', 'Soap']);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/GetPage +POST \/ +→ 200 text\/xml/);
    expect(made.stdout).toMatch(/Ping +POST \/ +→ 200 text\/xml/);
    const check = await parley(['mock', 'check', project, '--mock', 'Soap']);
    expect(check.stdout).toContain('mocks/Soap: clean');
    expect(check.code).toBe(0);
  }, 60_000);

  it('a soap client built from ?wsdl gets the Default answers; under --check refuse a broken request is a SOAP fault', async () => {
    const s = await serve([project, '--mock', 'Soap', '--port', '0', '--check', 'refuse']);
    const port = new URL(s.url).port;

    const served = await request(`${s.url}/?wsdl`);
    const text = await served.body.text();
    expect(served.statusCode).toBe(200);
    expect(text).toContain(`<soap:address location="http://127.0.0.1:${port}/"/>`);
    expect(text).not.toContain('www.eviware.com/webservices');
    expect(text).toMatch(new RegExp(`schemaLocation="http://127\\.0\\.0\\.1:${port}/\\?wsdl=[^"]*testservice1\\.xsd"`));

    const client = await soap.createClientAsync(`${s.url}/?wsdl`);
    // The client posts to the address the WSDL gives: the mock's own, rewritten.
    expect(client.describe()).toHaveProperty('TestService.TestServiceSoap.GetPage');
    const [pong] = (await client.PingAsync({})) as [Record<string, unknown>];
    expect(pong).toHaveProperty('PingResult');
    const [page] = (await client.GetPageAsync({ pageLink: { ID: 1, WorkID: 2, LoadRawPageData: true } })) as [Record<string, unknown>];
    expect(page).toHaveProperty('GetPageResult');

    const refused = await client.GetPageAsync({ pageLink: { ID: 'not a number' } }).then(
      () => undefined,
      (err: { response?: { status: number }; root?: { Envelope?: { Body?: { Fault?: { faultcode?: string; faultstring?: string } } } } }) => err,
    );
    expect(refused?.response?.status).toBe(500);
    expect(refused?.root?.Envelope?.Body?.Fault?.faultcode).toBe('soap:Client');
    expect(refused?.root?.Envelope?.Body?.Fault?.faultstring).toMatch(/does not match operation GetPage/);

    // Still answering after the refusal.
    const [again] = (await client.PingAsync({})) as [Record<string, unknown>];
    expect(again).toHaveProperty('PingResult');
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
  }, 90_000);
});
