/**
 * Mocks end to end on real processes: the supervisor makes a mock from the demo API's cached
 * definition, a mock-host child serves it on 127.0.0.1, a hand edit on disk reaches it on the
 * same port, a runaway dispatch.ts is stopped while other requests keep being answered, kill -9
 * of the mock host is reported and loses nothing, and `parley mock check` exits 0 / 1 / 2.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { parseDocument } from 'yaml';
import type { Peer } from '../../protocol/peer.js';
import type { Mock, MockLogEntry } from '../../protocol/model/mock.js';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { ensureDemoProject } from '../../demo/project.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { ChildProcessHandle } from '../../processes/supervisor/children/child-process.js';
import { definitionKey, mockDocuments } from '../../processes/supervisor/mocks/mock-documents.js';
import { commandLine } from '../support/processes.js';
import { until } from '../support/until.js';

let sup: Supervisor;
let project: string;
let apiId: string;
const events: { type: string; payload: unknown }[] = [];

beforeAll(async () => {
  const home = await mkdtemp(join(tmpdir(), 'parley-mock-it-'));
  project = join(home, 'project');
  await ensureDemoProject(project, 'http://127.0.0.1:9');
  sup = await Supervisor.start({ dataDir: home, log: () => {} });
  // Stands in for a UI: records what the supervisor tells every UI.
  sup.attachUi({ emit: (type: string, payload: unknown) => events.push({ type, payload }), onClose: () => () => {}, close: () => {} } as unknown as Peer);
  const store = await sup.openProject(project);
  apiId = store.listApis()[0]!.id;
}, 30_000);

afterAll(async () => {
  await sup?.shutdown();
});

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

function parley(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot(), 'dist', 'cli.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const operationOf = (mock: Mock, method: string, path: string) => mock.operations.find((op) => op.method === method && op.path === path)!;

describe('a mock served by its own mock-host process', () => {
  let url = '';
  let port = 0;
  let mock: Mock;

  it('is made from the API, never started by itself, and serves the contract\'s example once started', async () => {
    const created = await sup.mocks.create(project, apiId, 'Pets');
    expect(created.running).toBeUndefined();
    mock = created.mock!;
    const view = await sup.mocks.start(project, 'm:Pets');
    expect(view.running).toBeDefined();
    ({ url, port } = view.running!);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    const pets = await get(`${url}/pets/1`);
    expect(pets.status).toBe(200);
    expect(JSON.parse(pets.text)).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
    // The log reaches the supervisor, and every UI, in batches.
    const logged = await until(() => sup.mocks.log(project, 'm:Pets').entries.find((e) => e.path === '/pets/1'));
    expect(logged).toMatchObject({ method: 'GET', status: 200, operation: operationOf(mock, 'GET', '/pets/{petId}').name, responseName: 'Default' });
    expect(events.some((e) => e.type === 'mock.logged' && (e.payload as { mock: string }).mock === 'm:Pets')).toBe(true);
  });

  it('refuses a request for another host, and masks credentials in its log', async () => {
    const refused = await get(`${url}/pets`, { host: 'evil.example' });
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'mock-host-refused' });
    await get(`${url}/pets?api_key=hunter2`, { authorization: 'Bearer s3cret' });
    const entry = await until(() => sup.mocks.log(project, 'm:Pets').entries.find((e) => e.path.startsWith('/pets?')));
    expect(JSON.stringify(entry)).not.toMatch(/hunter2|s3cret/);
  });

  it('applies a hand edit of a response file at once, on the same port', async () => {
    const listPets = operationOf(mock, 'GET', '/pets');
    const file = join(project, 'mocks', 'Pets', 'operations', listPets.name, 'Default.response.yaml');
    const doc = parseDocument(await readFile(file, 'utf8'));
    doc.set('headers', [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'X-Edited', value: 'by hand' },
    ]);
    await writeFile(file, doc.toString());
    const edited = await until(async () => {
      const res = await get(`${url}/pets`);
      return res.headers['x-edited'] === 'by hand' && res;
    });
    expect(edited.status).toBe(200);
    const view = await sup.mocks.get(project, 'm:Pets');
    expect(view.running?.port).toBe(port);
    mock = view.mock!;
  });

  it('stops a runaway dispatch.ts at its limit while other requests keep being answered', async () => {
    const next = structuredClone(mock);
    const getPet = operationOf(next, 'GET', '/pets/{petId}');
    getPet.dispatch = 'script';
    getPet.script = 'while (true) {}\n';
    // Without a dispatch.ts the host keeps Node's start-up snapshot; the first script moves the
    // mock to a host without it (isolated-vm's need), on the same port.
    const before = sup.mocks.processId(project, 'm:Pets')!;
    expect(await commandLine(before)).not.toContain('--no-node-snapshot');
    const saved = await sup.mocks.save(project, next);
    mock = saved.mock!;
    expect(saved.running?.port).toBe(port);
    const after = sup.mocks.processId(project, 'm:Pets')!;
    expect(after).not.toBe(before);
    expect(await commandLine(after)).toContain('--no-node-snapshot');

    const order: string[] = [];
    const runaway = get(`${url}/pets/1`).then((res) => {
      order.push('runaway');
      return res;
    });
    const meanwhile: number[] = [];
    // Answered while the script spins: the listener never waits on the sandbox.
    while (!order.includes('runaway') && meanwhile.length < 200) {
      meanwhile.push((await get(`${url}/pets`)).status);
      if (meanwhile.length === 3) order.push('others answered');
    }
    const answer = await runaway;
    expect(order[0]).toBe('others answered');
    expect(meanwhile.every((s) => s === 200)).toBe(true);
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'mock-script-timeout', operation: getPet.name });
    expect((await get(`${url}/pets`)).status).toBe(200);
    const entry = await until(() => sup.mocks.log(project, 'm:Pets').entries.find((e) => e.status === 500));
    expect(entry.notes.join(' ')).toMatch(/ran past 1000 ms/);
  });

  it('reports a mock host killed with -9 as stopped, loses nothing stored, and starts again on the same port', async () => {
    const pid = sup.mocks.processId(project, 'm:Pets');
    expect(pid).toBeGreaterThan(0);
    events.length = 0;
    process.kill(pid!, 'SIGKILL');
    const state = await until(() =>
      events.find((e) => e.type === 'mock.state' && !(e.payload as { view: { running?: unknown } }).view.running),
    );
    expect((state.payload as { mock: string }).mock).toBe('m:Pets');
    const notice = events.find((e) => e.type === 'notice');
    expect((notice?.payload as { message: string }).message).toMatch(/Pets stopped: .*SIGKILL.*port \d+/);
    const after = await sup.mocks.get(project, 'm:Pets');
    expect(after.running).toBeUndefined();
    expect(after.mock).toEqual(mock);

    const again = await sup.mocks.start(project, 'm:Pets');
    expect(again.running?.port).toBe(port);
    expect((await get(`${url}/pets`)).status).toBe(200);
    await sup.mocks.stop(project, 'm:Pets');
    await expect(get(`${url}/pets`)).rejects.toThrow();
  });

  it('moves to a new port on an edit, and stops saying why when that port is taken', async () => {
    await sup.mocks.start(project, 'm:Pets');
    const free = await listenAnywhere();
    free.close();
    const moved = await sup.mocks.save(project, { ...mock, port: free.port });
    expect(moved.running?.port).toBe(free.port);
    expect((await get(`http://127.0.0.1:${free.port}/pets`)).status).toBe(200);

    const taken = await listenAnywhere();
    events.length = 0;
    const view = await sup.mocks.save(project, { ...moved.mock!, port: taken.port });
    taken.close();
    expect(view.running).toBeUndefined();
    expect(view.mock?.port).toBe(taken.port);
    const notice = events.find((e) => e.type === 'notice')?.payload as { message: string };
    expect(notice.message).toMatch(/stopped: the edit could not be applied \(Port \d+ is already in use/);
    mock = (await sup.mocks.save(project, { ...view.mock!, port: 0 })).mock!;
  });

  it('Reset state sends the In order turn back to the first response', async () => {
    const next = structuredClone(mock);
    const listPets = operationOf(next, 'GET', '/pets');
    listPets.responses.push({ ...structuredClone(listPets.responses[0]!), id: 'second', name: 'Second', status: 203 });
    await sup.mocks.save(project, next);
    const { running } = await sup.mocks.start(project, 'm:Pets');
    const statuses = async () => [(await get(`${running!.url}/pets`)).status, (await get(`${running!.url}/pets`)).status];
    expect(await statuses()).toEqual([200, 203]);
    expect((await get(`${running!.url}/pets`)).status).toBe(200);
    await sup.mocks.reset(project, 'm:Pets');
    expect(await statuses()).toEqual([200, 203]);
    await sup.mocks.stop(project, 'm:Pets');
  });
});

/** A listener on a free port of 127.0.0.1, to hold that port. */
async function listenAnywhere(): Promise<{ port: number; close(): void }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => void server.close() };
}

describe('a mock host started without script support', () => {
  it('answers a dispatch.ts with a 500 saying why, rather than risking isolated-vm on Node\'s snapshot', async () => {
    const store = sup.project(project);
    const api = store.getApi(apiId);
    const saved = (await sup.mocks.get(project, 'm:Pets')).mock!;
    const next = structuredClone(saved);
    const getPet = operationOf(next, 'GET', '/pets/{petId}');
    getPet.dispatch = 'script';
    getPet.script = "respond('Default');\n";
    const host = new ChildProcessHandle({ name: 'bare mock host', entry: join(repoRoot(), 'dist', 'mock-host.js'), restart: false });
    try {
      await host.start();
      const logged: MockLogEntry[] = [];
      host.currentPeer!.on('mockHost.logged', ({ entries }) => void logged.push(...entries));
      const address = await host.call('mockHost.start', { mock: { ...next, port: 0 }, documents: await mockDocuments(store.apiDir(apiId), api), definitionKey: definitionKey(api), listenAllInterfaces: false });
      expect((await get(`${address.url}/pets`)).status).toBe(200);
      const refused = await get(`${address.url}/pets/1`);
      expect(refused.status).toBe(500);
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'mock-script-failed' });
      const entry = await until(() => logged.find((e) => e.status === 500));
      expect(entry.notes.join(' ')).toMatch(/started without --no-node-snapshot/);
    } finally {
      await host.stop();
    }
  });
});

describe('parley mock check', () => {
  it('exits 0 on a clean mock, 1 on findings, 2 on a mock that does not load', async () => {
    await sup.mocks.create(project, apiId, 'Clean');
    const clean = await parley(['mock', 'check', project, '--mock', 'Clean']);
    expect(clean.out).toContain('mocks/Clean: clean');
    expect(clean.code).toBe(0);

    const view = await sup.mocks.create(project, apiId, 'Stubby');
    const stubby = structuredClone(view.mock!);
    stubby.operations[0]!.responses[0]!.status = 418;
    await sup.mocks.save(project, stubby);
    const findings = await parley(['mock', 'check', project, '--mock', 'Stubby', '--json']);
    expect(findings.code).toBe(1);
    const report = JSON.parse(findings.out) as { exitCode: number; mocks: { findings: { rule: string }[] }[] };
    expect(report.exitCode).toBe(1);
    expect(report.mocks[0]!.findings.map((f) => f.rule)).toContain('undocumented-status');

    await mkdir(join(project, 'mocks', 'Broken'), { recursive: true });
    await writeFile(join(project, 'mocks', 'Broken', 'mock.yaml'), 'version: 1\nid: broken\napi: x\nport: lots\n');
    const broken = await parley(['mock', 'check', project, '--mock', 'Broken']);
    expect(broken.code).toBe(2);
    expect(broken.out).toMatch(/mocks\/Broken\/mock\.yaml:4 +schema/);
    expect((await parley(['mock', 'check', project, '--mock', 'Nope'])).code).toBe(2);
  }, 30_000);
});
