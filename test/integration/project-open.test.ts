/**
 * `project.open` over the real UI bus (the supervisor's WebSocket server, a msgpack Peer as the
 * page has): a big project's tree arrives in pages ahead of the reply, and put back together it
 * is exactly the tree the store has, every item once and in order.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { Peer } from '../../protocol/peer.js';
import { validateInterpreted } from '../../protocol/validate-browser.js';
import { withPages, type TreePage } from '../../protocol/model/project.js';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { TREE_PAGE_ITEMS, uiHandlers } from '../../processes/supervisor/ui-api.js';
import { startUiServer, webSocketTransport, type UiServer } from '../../processes/supervisor/ui-server.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { writeBigProject } from '../support/big-project.js';

const REQUESTS = 2 * TREE_PAGE_ITEMS + 100;

let sup: Supervisor;
let server: UiServer;
let page: Peer;
let project: string;

beforeAll(async () => {
  const home = await mkdtemp(join(tmpdir(), 'parley-open-'));
  project = join(home, 'big');
  await writeBigProject(project, REQUESTS);

  sup = await Supervisor.start({ dataDir: home, log: () => {} });
  server = await startUiServer({ uiDir: home, handlers: uiHandlers(sup), onConnect: () => {} });
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/bus?token=${server.token}`, { headers: { origin: `http://127.0.0.1:${server.port}` } });
  // Checked as the page checks what it receives (no compiled code on the page).
  page = new Peer(webSocketTransport(ws), { role: 'ui', validate: validateInterpreted });
  await page.ready;
}, 60_000);

afterAll(async () => {
  page?.close();
  await server?.close();
  await sup?.shutdown();
});

describe('project.open', () => {
  it('sends a big tree in pages ahead of the reply, which put together are the whole tree in order', async () => {
    const pages: TreePage[] = [];
    const reply = await page.call('project.open', { path: project }, { onChunk: (p) => void pages.push(p) });
    expect(pages.map((p) => p.items.length)).toEqual([TREE_PAGE_ITEMS, TREE_PAGE_ITEMS]);
    expect(reply.items.length).toBeLessThanOrEqual(TREE_PAGE_ITEMS);

    const whole = withPages(pages, reply);
    const stored = sup.project(project).tree();
    expect(whole).toEqual(stored);
    expect(whole.items.filter((i) => i.kind === 'request')).toHaveLength(REQUESTS);
    expect(new Set(whole.items.map((i) => i.id)).size).toBe(whole.items.length);
  });

  it('answers a project already open the same way, and a small tree in the reply alone', async () => {
    const pages: TreePage[] = [];
    const again = withPages(pages, await page.call('project.open', { path: project }, { onChunk: (p) => void pages.push(p) }));
    expect(pages).toHaveLength(2);
    expect(again).toEqual(sup.project(project).tree());

    const small = join(project, '..', 'small');
    const writer = await ProjectStore.open(small, { create: true, name: 'Small' });
    await writer.createApi({ name: 'Only', baseUrl: '' });
    await writer.close();
    const smallPages: TreePage[] = [];
    const tree = await page.call('project.open', { path: small }, { onChunk: (p) => void smallPages.push(p) });
    expect(smallPages).toEqual([]);
    expect(tree.items.map((i) => i.name)).toEqual(['Only']);
  });

  it('opens a folder asked for twice at once a single time: one load, one store (one writer), the same tree to both', async () => {
    const other = join(project, '..', 'twice');
    await writeBigProject(other, 50);
    const loads = vi.spyOn(ProjectStore, 'open');
    try {
      const first = page.call('project.open', { path: other });
      const second = page.call('project.open', { path: other });
      await vi.waitUntil(() => sup.loadingProjects.includes(other), { timeout: 10_000, interval: 1 });
      const [a, b] = await Promise.all([first, second]);
      expect(loads.mock.calls.filter(([root]) => root === other)).toHaveLength(1);
      expect(a).toEqual(b);
      expect(sup.openProjects().filter((store) => store.root === other)).toHaveLength(1);
      expect(sup.loadingProjects).toEqual([]);
    } finally {
      loads.mockRestore();
    }
  });

  it('tells a page that connects while the command line loads a folder that it is opening, and the page joins that load', async () => {
    const cli = join(project, '..', 'from-cli');
    await writeBigProject(cli, TREE_PAGE_ITEMS + 10);
    const loads = vi.spyOn(ProjectStore, 'open');
    try {
      const loading = sup.openProject(cli); // as `parley ui <folder>` does, before its URL is printed
      const info = await page.call('app.info', {});
      expect(info.opening).toEqual([cli]);
      expect(info.projects).not.toContain(cli);
      await expect(page.call('project.tree', { project: cli })).rejects.toThrow(/still opening: project.open waits for it/);
      const pages: TreePage[] = [];
      const tree = withPages(pages, await page.call('project.open', { path: cli }, { onChunk: (p) => void pages.push(p) }));
      expect(tree).toEqual((await loading).tree());
      expect(loads.mock.calls.filter(([root]) => root === cli)).toHaveLength(1);
      expect((await page.call('app.info', {})).opening).toEqual([]);
    } finally {
      loads.mockRestore();
    }
  });
});
