/**
 * MockService without child processes: New Mock from the demo API's cached definition (sampled
 * in-process by the same function the importer child runs), findings (computed in-process by the
 * same function the checker child runs), saves that keep the folder
 * loadable, load problems named with file and line, and hand edits picked up from disk.
 */
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import type { EventName, EventOf } from '../../../protocol/messages.js';
import type { Mock } from '../../../protocol/model/mock.js';
import { ProjectStore } from '../store/project-store.js';
import { ensureDemoProject } from '../../../demo/project.js';
import { mockFindings } from '../../mock-host/engine/mock-findings.js';
import { MockService, type MockServiceHost } from './mock-service.js';
import { mockDocuments } from './mock-documents.js';
import { DEFINITION_NOT_CACHED, NO_DEFINITION_TO_MOCK } from '../../../protocol/model/api.js';
import { loadDefinition } from '../checks/definitions.js';
import { until } from '../../../test/support/until.js';
import { inProcessNewMock } from '../../../test/support/new-mock-jobs.js';

interface Harness {
  dir: string;
  store: ProjectStore;
  service: MockService;
  events: { type: string; payload: unknown }[];
  apiId: string;
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function harness(): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-mocks-'));
  await ensureDemoProject(dir, 'http://127.0.0.1:9');
  const store = await ProjectStore.open(dir);
  const events: Harness['events'] = [];
  const host: MockServiceHost = {
    log: () => {},
    broadcast: <E extends EventName>(type: E, payload: EventOf<E>) => void events.push({ type, payload }),
    notify: (level, message) => void events.push({ type: 'notice', payload: { level, message } }),
    project: () => store,
    workspace: { get: () => ({ preferences: { mockListenAllInterfaces: false } }) },
    // The checker child runs exactly this function.
    checker: { call: (async (_type: string, payload: { mock: Mock; documents: Parameters<typeof mockFindings>[1]; definitionKey: string }) => mockFindings(payload.mock, payload.documents, payload.definitionKey)) as never },
    // The importer's job thread runs exactly this function for New Mock.
    ...inProcessNewMock,
  };
  const service = new MockService(host);
  cleanup.push(async () => {
    await service.stopAll();
    await store.close();
  });
  const apiId = store.listApis()[0]!.id;
  return { dir, store, service, events, apiId };
}

describe('MockService', () => {
  it('hands a mock an API\'s cached definition as the checker reads it: by its path in the API folder', async () => {
    const { store, apiId } = await harness();
    const api = store.getApi(apiId);
    const docs = await mockDocuments(store.apiDir(apiId), api);
    expect(docs).toEqual({ openapi: [{ uri: 'file:///api/definition/openapi.yaml', document: expect.objectContaining({ openapi: '3.1.0' }) }] });
    expect(docs).toEqual({ openapi: (await loadDefinition(store.apiDir(apiId), api)).documents });
  });

  it('never reads a cached definition named outside the API folder (a cloned api.yaml controls the names)', async () => {
    const { store, apiId } = await harness();
    const api = store.getApi(apiId);
    const soap: NonNullable<typeof api.soap> = { binding: 'B', namespace: 'urn:b', soapVersion: '1.1', sources: [] };
    for (const rel of ['../../../../../../etc/passwd', '/etc/passwd']) {
      const hostile = { ...api, soap, definition: { ...api.definition!, cached: [rel] } };
      await expect(mockDocuments(store.apiDir(apiId), hostile)).rejects.toMatchObject({ code: 'path-escape' });
      await expect(mockDocuments(store.apiDir(apiId), { ...hostile, soap: undefined })).rejects.toMatchObject({ code: 'path-escape' });
    }
  });

  it('makes a mock from the API with one operation per contract operation and no findings', async () => {
    const { dir, service, store, apiId, events } = await harness();
    const view = await service.create(store.root, apiId, 'Pets');
    expect(view.id).toBe('m:Pets');
    expect(view.problems).toEqual([]);
    expect(view.findings).toEqual([]);
    expect(view.blocked).toBeUndefined();
    expect(view.running).toBeUndefined();
    const names = view.mock!.operations.map((op) => `${op.method} ${op.path}`);
    expect(names).toEqual(expect.arrayContaining(['GET /pets', 'POST /pets', 'GET /pets/{petId}']));
    expect(view.mock!.operations.every((op) => op.responses.length === 1 && op.responses[0]!.name === 'Default')).toBe(true);
    expect(await readFile(join(dir, 'mocks', 'Pets', 'mock.yaml'), 'utf8')).toContain(`api: ${apiId}`);
    expect(store.tree().items).toContainEqual({ kind: 'mock', id: 'm:Pets', name: 'Pets' });
    expect(events.some((e) => e.type === 'project.changed')).toBe(true);
    await expect(service.create(store.root, apiId, 'Pets')).rejects.toMatchObject({ code: 'conflict' });
    await expect(service.create(store.root, apiId, '../x')).rejects.toMatchObject({ code: 'bad-input' });
  });

  it('refuses a mock name that cannot be a folder on every OS, or that clashes with another but for case', async () => {
    const { service, store, apiId } = await harness();
    await service.create(store.root, apiId, 'Pets');
    await expect(service.create(store.root, apiId, 'pets')).rejects.toMatchObject({ code: 'conflict' });
    await expect(service.create(store.root, apiId, 'NUL')).rejects.toMatchObject({ code: 'bad-input', message: expect.stringContaining('not a device name such as CON or NUL') });
    await expect(service.create(store.root, apiId, 'v1.')).rejects.toMatchObject({ code: 'bad-input' });
  });

  it('refuses an API that never had a definition saying so, and one imported without its documents cached with the words SPEC gives', async () => {
    const { service, store, apiId } = await harness();
    const bare = await store.createApi({ name: 'Bare', baseUrl: 'http://x' });
    await expect(service.create(store.root, bare.id, 'Nope')).rejects.toMatchObject({ code: 'no-definition', message: NO_DEFINITION_TO_MOCK });
    const imported = store.getApi(apiId);
    await store.saveApi({ ...imported, definition: { ...imported.definition!, cached: [] } });
    await expect(service.create(store.root, apiId, 'Nope')).rejects.toMatchObject({ code: 'no-definition', message: DEFINITION_NOT_CACHED });
  });

  it('saves an edit, lists the stubs the contract does not allow, and refuses a save that would not load', async () => {
    const { dir, service, store, apiId } = await harness();
    const created = await service.create(store.root, apiId, 'Pets');
    const mock = structuredClone(created.mock!);
    const getPet = mock.operations.find((op) => op.path === '/pets/{petId}' && op.method === 'GET')!;
    getPet.responses.push({ ...structuredClone(getPet.responses[0]!), id: 'teapot', name: 'Teapot', status: 418 });
    const saved = await service.save(store.root, mock);
    expect(saved.findings).toEqual([expect.objectContaining({ rule: 'undocumented-status', response: 'Teapot', operation: getPet.name })]);
    const files = await readdir(join(dir, 'mocks', 'Pets', 'operations', getPet.name));
    expect(files).toContain('Teapot.response.yaml');

    const broken = structuredClone(saved.mock!);
    broken.operations[0]!.responses[0]!.headers.push({ name: 'X-Bad', value: 'line\nbreak' });
    const refusal = await service.save(store.root, broken).then(
      () => null,
      (err: Error) => err,
    );
    expect(refusal).toMatchObject({ code: 'mock-invalid' });
    // It says which file once, then what is wrong in it.
    expect(refusal!.message).toMatch(/^Not saved: mocks\/Pets\/operations\/[^ ]+\.response\.yaml( line \d+)?: .*X-Bad/);
    expect(refusal!.message.match(/\.response\.yaml/g)).toHaveLength(1);
    const again = await service.get(store.root, 'm:Pets');
    expect(again.mock).toEqual(saved.mock);
  });

  it('names a hand-broken file and its line, refuses to save over it, and loads it again once fixed', async () => {
    const { dir, service, store, apiId } = await harness();
    const created = await service.create(store.root, apiId, 'Pets');
    const op = created.mock!.operations[0]!;
    const file = join(dir, 'mocks', 'Pets', 'operations', op.name, 'Default.response.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('status:', 'stauts:'));
    const view = await service.get(store.root, 'm:Pets');
    expect(view.mock).toBeUndefined();
    expect(view.problems[0]).toMatchObject({ file: `mocks/Pets/operations/${op.name}/Default.response.yaml`, rule: 'schema' });
    expect(view.problems[0]!.line).toBeGreaterThan(1);
    await expect(service.save(store.root, created.mock!)).rejects.toMatchObject({ code: 'conflict' });
    await expect(service.start(store.root, 'm:Pets')).rejects.toMatchObject({ code: 'mock-invalid' });
    await writeFile(file, text);
    expect((await service.get(store.root, 'm:Pets')).mock).toEqual(created.mock);
  });

  it('picks up a hand edit of a body file and tells the UI', async () => {
    const { dir, service, store, apiId, events } = await harness();
    const created = await service.create(store.root, apiId, 'Pets');
    const op = created.mock!.operations.find((o) => o.method === 'GET' && o.path === '/pets')!;
    await new Promise((r) => setTimeout(r, 300));
    await writeFile(join(dir, 'mocks', 'Pets', 'operations', op.name, 'Default.body.json'), '[{"id": 7, "name": "Edited", "species": "cat"}]\n');
    const state = await until(() =>
      events.find((e) => e.type === 'mock.state' && JSON.stringify(e.payload).includes('Edited')),
    );
    expect((state.payload as { mock: string }).mock).toBe('m:Pets');
  });

  it('reports a project YAML edit to a mock through onProjectChanged', async () => {
    const { dir, service, store, apiId, events } = await harness();
    const created = await service.create(store.root, apiId, 'Pets');
    await store.watch((changed) => service.onProjectChanged(store, changed));
    const op = created.mock!.operations[0]!;
    const file = join(dir, 'mocks', 'Pets', 'operations', op.name, 'Default.response.yaml');
    const doc = parseDocument(await readFile(file, 'utf8'));
    doc.set('status', 299);
    await writeFile(file, doc.toString());
    const state = await until(() => events.find((e) => e.type === 'mock.state' && JSON.stringify(e.payload).includes('"status":299')));
    expect(JSON.stringify(state.payload)).toContain('undocumented-status');
  });
});
