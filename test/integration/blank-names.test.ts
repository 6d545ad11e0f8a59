/**
 * A name the loader would refuse is refused before anything is written: `request.create` with an
 * empty or blank name (which wrote a file the loader then refused, answered `not-found` and left a
 * schema problem in the project for good), a rename to a blank name, an API or environment named
 * with nothing, a method the request schema refuses. Over the real UI bus: each call answers a
 * typed error, no file is written, and the project opens again clean.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Peer } from '../../protocol/peer.js';
import { validateInterpreted } from '../../protocol/validate-browser.js';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { startUiServer, webSocketTransport, type UiServer } from '../../processes/supervisor/ui-server.js';

let home: string;
let project: string;
let sup: Supervisor;
let server: UiServer;
let page: Peer;

/** Every file under the project (and the workspace file), with its text: what a refused call must leave as it was. */
async function snapshot(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const rel of (await readdir(project, { recursive: true })).sort()) {
    const text = await readFile(join(project, rel), 'utf8').catch(() => null);
    if (text !== null) files.set(rel, text);
  }
  files.set('<workspace>', await readFile(join(home, 'workspace.yaml'), 'utf8').catch(() => ''));
  return files;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-blank-names-'));
  project = join(home, 'project');
  await mkdir(join(project, 'apis', 'shop', 'requests'), { recursive: true });
  await writeFile(join(project, 'parley.yaml'), 'version: 1\nname: Shop\nproperties: []\n');
  await writeFile(join(project, 'apis', 'shop', 'api.yaml'), 'version: 1\nid: a_shop\nname: Shop API\nbaseUrl: https://shop.example.com\nauth:\n  type: none\n');
  sup = await Supervisor.start({ dataDir: home, log: () => {} });
  server = await startUiServer({ uiDir: home, handlers: uiHandlers(sup), onConnect: () => {} });
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/bus?token=${server.token}`, { headers: { origin: `http://127.0.0.1:${server.port}` } });
  page = new Peer(webSocketTransport(ws), { role: 'ui', validate: validateInterpreted });
  await page.ready;
}, 60_000);

afterAll(async () => {
  page?.close();
  await server?.close();
  await sup?.shutdown();
  await rm(home, { recursive: true, force: true });
});

describe('names the loader would refuse', () => {
  it('are refused before writing: request.create, a rename, api.create, environments; nothing written, the project opens clean', async () => {
    await page.call('project.open', { path: project });
    const kept = await page.call('request.create', { project, parent: 'a_shop', name: 'Kept', method: 'GET', url: '/kept' });
    const before = await snapshot();

    for (const name of ['', ' ', '\t \n']) {
      await expect(page.call('request.create', { project, parent: 'a_shop', name, method: 'GET', url: '/x' }), JSON.stringify(name)).rejects.toMatchObject({
        code: 'bad-input',
        message: 'A request needs a name: the name given is empty.',
      });
      await expect(page.call('request.create', { project, parent: 'a_shop/folder', name, method: 'GET', url: '/x' })).rejects.toMatchObject({ code: 'bad-input' });
      await expect(page.call('api.create', { project, name, baseUrl: '' })).rejects.toMatchObject({ code: 'bad-input', message: 'An API needs a name: the name given is empty.' });
    }
    // A rename to a blank name (the schema's minLength lets spaces through; the loader's rule is not all there is).
    await expect(page.call('request.save', { project, request: { ...kept, name: '   ' } })).rejects.toMatchObject({ code: 'bad-input', message: 'A request needs a name: the name given is empty.' });
    // Anything else the loader's schema refuses, refused by the same check before the write.
    await expect(page.call('request.create', { project, parent: 'a_shop', name: 'No method', method: '', url: '/x' })).rejects.toMatchObject({
      code: 'schema-violation',
      message: expect.stringMatching(/^The request "No method" was not saved: \/method /),
    });
    await expect(page.call('request.create', { project, parent: 'a_shop', name: 'Long method', method: 'M'.repeat(33), url: '/x' })).rejects.toMatchObject({ code: 'schema-violation' });
    await expect(page.call('environments.save', { environments: [{ id: 'e1', name: '  ', variables: [] }], globals: [] })).rejects.toMatchObject({
      code: 'bad-input',
      message: 'An environment needs a name: the name given is empty.',
    });

    expect(await snapshot()).toEqual(before);
    await page.call('project.close', { project });
    const reopened = await page.call('project.open', { path: project });
    expect(reopened.problems).toEqual([]);
    expect(reopened.items.filter((i) => i.kind === 'request').map((i) => i.name)).toEqual(['Kept']);
    await expect(page.call('request.get', { project, id: kept.id })).resolves.toMatchObject({ name: 'Kept' });
  });
});
