/**
 * HAR export true to the wire (issue 27, item 10), in real Chromium against the real app and a
 * real server on 127.0.0.1: a request typed into the URL bar meets a 302 -> 301 -> 200 chain whose
 * first hop sets a cookie; the HTTP Log view's Export HAR downloads a file with one entry per
 * hop, the jar's Cookie on the later hops (masked), each hop's status and Location, the body on
 * the last, and `time` the sum of each entry's timings.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { blankRequest } from '../../protocol/model/request.js';
import { MASK } from '../../protocol/credentials/index.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 25;
const SESSION = 'ck-e2e-session-61d0a9f3';

interface HarEntry {
  time: number;
  request: { method: string; url: string; headers: { name: string; value: string }[] };
  response: { status: number; redirectURL: string; content: { size: number; text?: string } };
  timings: Record<string, number>;
}

describe.skipIf(missing !== null)('HAR export from the HTTP Log', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;
  let origin = '';
  const cookiesReceived: (string | undefined)[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      cookiesReceived.push(req.headers.cookie);
      if (req.url === '/login') res.writeHead(302, { Location: '/moved', 'Set-Cookie': `session=${SESSION}; Path=/` }).end();
      else if (req.url === '/moved') res.writeHead(301, { Location: '/home' }).end();
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"home":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const project = join(await mkdtemp(join(tmpdir(), 'parley-har-e2e-')), 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Wire' });
    const api = await store.createApi({ name: 'Site', baseUrl: origin });
    const request = blankRequest({ id: 'r_login', name: 'Login', method: 'GET', url: '' });
    await store.commit([store.newRequestChange(api.id, '', { ...request, settings: { ...request.settings, sendCookies: true } })]);
    await store.close();
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /Site/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    server?.close();
  });

  it('downloads one entry per hop, with the jar’s Cookie masked on the hops that sent it', async () => {
    await page.getByRole('treeitem', { name: /Login/ }).click();
    await page.getByLabel('URL', { exact: true }).click();
    await page.keyboard.type(`${origin}/login`, { delay: TYPING_DELAY_MS });
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
    expect(cookiesReceived).toEqual([undefined, `session=${SESSION}`, `session=${SESSION}`]);

    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'HTTP Log' }).click();
    const log = page.getByRole('list', { name: 'HTTP Log' });
    await log.waitFor();
    await until(async () => (await log.getByRole('listitem').count()) === 1);
    await log.getByRole('listitem').first().getByRole('checkbox').check();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export HAR (1)' }).click();
    const download = await downloading;
    const text = await readFile((await download.path())!, 'utf8');
    const entries = (JSON.parse(text) as { log: { entries: HarEntry[] } }).log.entries;

    expect(entries.map((e) => [e.request.method, e.request.url, e.response.status, e.response.redirectURL])).toEqual([
      ['GET', `${origin}/login`, 302, '/moved'],
      ['GET', `${origin}/moved`, 301, '/home'],
      ['GET', `${origin}/home`, 200, ''],
    ]);
    const cookie = (e: HarEntry) => e.request.headers.find((h) => h.name.toLowerCase() === 'cookie')?.value;
    expect(entries.map(cookie)).toEqual([undefined, `session=${MASK}`, `session=${MASK}`]);
    expect(text).not.toContain(SESSION);
    expect(entries[0]!.response.content).toMatchObject({ size: 0 });
    expect(entries[2]!.response.content.text).toBe('{"home":true}');
    for (const entry of entries) {
      const t = entry.timings;
      const sum = ['blocked', 'dns', 'connect', 'send', 'wait', 'receive'].map((k) => t[k]!).filter((ms) => ms >= 0).reduce((a, b) => a + b, 0);
      expect(Math.abs(entry.time - sum)).toBeLessThan(0.002);
    }
    await screenshot(page, 'har-export-hops');
  });
});
