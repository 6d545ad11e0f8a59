/**
 * Save as example in real Chromium, against a real server on 127.0.0.1 that reflects the
 * request's Authorization and the jar's cookies in echo headers and in its JSON body: the example
 * files written into the project hold neither the token typed into the Auth tab nor a cookie
 * value (masked as History masks them), nor do the HTTP Log and its HAR export read over the
 * app's bus, nor any file under the workspace or the project.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { MASK } from '../../protocol/credentials/index.js';
import type { RunningApp } from '../support/app.js';
import { codeText } from '../support/code-editor.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { busCaller } from '../support/ui-calls.js';

const missing = chromiumMissing();

const TOKEN = 'tok-typed-5e0d9c21aa';
const SID = 'sid-e2e-83b1f0c4d2';
let seenAuthorization = '';

async function echoServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/login') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': [`sid=${SID}; Path=/; Max-Age=3600`, 'lang=en; Path=/'] }).end('{"ok":true}');
      return;
    }
    seenAuthorization = req.headers.authorization ?? '';
    res
      .writeHead(200, { 'Content-Type': 'application/json', 'X-Echo-Cookie': req.headers.cookie ?? '', 'X-Echo-Bearer': seenAuthorization.replace(/^Bearer /, '') })
      .end(JSON.stringify({ authorization: seenAuthorization, bearer: seenAuthorization.replace(/^Bearer /, ''), cookie: req.headers.cookie ?? null, note: 'lang en' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** Every file under `dir`, read one character per byte. */
async function everyFile(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), (await readFile(join(entry.parentPath, entry.name))).toString('latin1'));
  }
  return files;
}

describe.skipIf(missing !== null)('Save as example redacts what History redacts', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;
  let home: string;
  let projectDir: string;

  beforeAll(async () => {
    const peer = await echoServer();
    server = peer.server;
    home = await mkdtemp(join(tmpdir(), 'parley-e2e-redaction-'));
    projectDir = join(home, 'shop');
    const store = await ProjectStore.open(projectDir, { create: true, name: 'Shop' });
    const api = await store.createApi({ name: 'Shop API', baseUrl: peer.base });
    for (const [name, url] of [['Log in', '/login'], ['Echo', '/echo']] as const) {
      const request = await store.createRequest({ parent: api.id, name, method: 'GET', url });
      await store.saveRequest({ ...request, settings: { ...request.settings, sendCookies: true } });
    }
    await store.close();
    ({ app, browser, page } = await openUi([projectDir], { env: { PARLEY_HOME: home } }));
    await page.getByRole('treeitem', { name: /Shop API/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  const send = async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('status').waitFor();
  };

  it('keeps neither the typed token nor the jar cookie in the example files', async () => {
    await page.getByRole('treeitem', { name: /Log in/ }).dblclick();
    await send();
    await page.getByRole('treeitem', { name: /Echo/ }).dblclick();
    await page.getByRole('tab', { name: /^Auth/ }).click();
    await page.getByLabel('Auth type').selectOption('bearer');
    await page.getByLabel('Token', { exact: true }).click();
    await page.keyboard.type(TOKEN, { delay: 15 });
    seenAuthorization = '';
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await until(() => seenAuthorization === `Bearer ${TOKEN}`);
    await page.getByTestId('status').waitFor();
    // The live response shows what the server reflected, as it must.
    await until(async () => (await codeText(page.getByLabel('Response body'))).includes(SID), 10_000, () => 'the response body does not show the reflected session id');

    await page.getByRole('button', { name: 'Save as example' }).click();
    await page.getByRole('button', { name: 'Examples (1)' }).waitFor();
    await expect(page.locator('.toast').last().textContent()).resolves.toContain('credential values were masked');
    await screenshot(page, 'redaction-example-saved');

    const files = await everyFile(projectDir);
    const bodyFile = [...files.keys()].find((p) => p.endsWith(join('Echo.examples', '200.body.json')));
    const yamlFile = [...files.keys()].find((p) => p.endsWith(join('Echo.examples', '200.example.yaml')));
    expect({ bodyFile: bodyFile !== undefined, yamlFile: yamlFile !== undefined }).toEqual({ bodyFile: true, yamlFile: true });
    const body = JSON.parse(Buffer.from(files.get(bodyFile!)!, 'latin1').toString('utf8')) as Record<string, unknown>;
    // "authorization" is a credential name: masked whole; the bare token is the secret it was.
    expect(body).toEqual({ authorization: MASK, bearer: '${secret:unsaved-token}', cookie: `sid=${MASK}; lang=en`, note: 'lang en' });
    const yaml = Buffer.from(files.get(yamlFile!)!, 'latin1').toString('utf8');
    expect(yaml).toContain(`value: sid=${MASK}; lang=en`);
    expect(yaml).toContain('value: ${secret:unsaved-token}');

    // The example opens in the app as written.
    await page.getByRole('button', { name: 'Examples (1)' }).click();
    await page.getByRole('menuitem', { name: /^200 OK · / }).click();
    await page.getByRole('note').waitFor();
    await expect(codeText(page.getByLabel('Response body'))).resolves.toContain(`sid=${MASK}`);

    // The HTTP Log and its HAR export, over the app's own bus, hold neither.
    const bus = await busCaller(app.url);
    try {
      const { rows } = await bus.call('httpLog.list', {});
      expect(rows.map((r) => r.requestName)).toEqual(['Echo', 'Log in']);
      const logged = await Promise.all(rows.map((r) => bus.call('httpLog.get', { id: r.id })));
      expect(logged[0]!.response!.headers).toContainEqual(['X-Echo-Cookie', `sid=${MASK}; lang=en`]);
      const pieces: string[] = [];
      await bus.peer.call('httpLog.har', { ids: rows.map((r) => r.id) }, { onChunk: (c) => pieces.push(c.text) });
      const har = pieces.join('');
      expect((JSON.parse(har) as { log: { entries: unknown[] } }).log.entries).toHaveLength(2);
      const text = JSON.stringify(rows) + JSON.stringify(logged) + har;
      expect([TOKEN, SID].filter((v) => text.includes(v))).toEqual([]);
    } finally {
      bus.close();
    }

    // Nothing written under the workspace (History, the sealed jar) or the project holds either value.
    const everything = await everyFile(home);
    const found = [...everything].flatMap(([path, text]) => [TOKEN, SID].filter((v) => text.includes(v)).map((v) => `${v} in ${path}`));
    expect(found).toEqual([]);
    expect([...everything.keys()].some((p) => p.endsWith('.jsonl'))).toBe(true);
  });
});
