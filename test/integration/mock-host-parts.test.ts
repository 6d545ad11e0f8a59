/**
 * A mock whose start is larger than one bus frame goes to its mock host in parts (Peer
 * `maxMessage`; here the link's frame is made 16 KB so a 6 MB mock is some 400 parts). The host
 * killed with -9 while the parts are still going out: the start fails with `child-died` naming the
 * call, nothing stored is lost, and the next start serves the whole mock from a new host.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { MockService } from '../../processes/supervisor/mocks/mock-service.js';
import { ensureDemoProject } from '../../demo/project.js';
import { until } from '../support/until.js';
import { quietMockHost } from '../support/new-mock-jobs.js';

let dir: string;
let project: string;
let store: ProjectStore;
let service: MockService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-mock-parts-'));
  project = join(dir, 'project');
  await ensureDemoProject(project, 'http://127.0.0.1:9');
  store = await ProjectStore.open(project);
  service = new MockService(quietMockHost(store), { busFrameBytes: 16 * 1024 });
}, 30_000);

afterAll(async () => {
  await service?.stopAll();
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a mock host killed while a start in parts is on its way', () => {
  it('fails the start saying so, loses nothing stored, and a new host serves the whole mock', async () => {
    const created = await service.create(project, store.listApis()[0]!.id, 'Big');
    const mock = structuredClone(created.mock!);
    const listPets = mock.operations.find((op) => op.method === 'GET' && op.path === '/pets')!;
    const big = JSON.stringify([{ id: 1, name: 'x'.repeat(6 * 1024 * 1024) }]);
    for (const response of listPets.responses) response.body = { kind: 'json', text: big };
    const saved = (await service.save(project, mock)).mock!;

    const starting = service.start(project, created.id).then(
      () => null,
      (err: unknown) => err,
    );
    // Parts are on their way: the host has the start's beginning, not its end.
    await until(() => service.sendingTo(project, created.id) > 0, 10_000, () => 'the start never went in parts');
    const pid = service.processId(project, created.id)!;
    process.kill(pid, 'SIGKILL');
    const failure = await starting;
    expect(failure).toMatchObject({ code: 'child-died', message: expect.stringMatching(/SIGKILL.*mockHost\.start was in flight/) });

    const after = await service.get(project, created.id);
    expect(after.running).toBeUndefined();
    expect(after.mock).toEqual(saved);

    const again = await service.start(project, created.id);
    expect(again.running).toBeDefined();
    expect(service.processId(project, created.id)).not.toBe(pid);
    const res = await request(`${again.running!.url}/pets`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe(big);
    await service.stop(project, created.id);
  }, 60_000);
});
