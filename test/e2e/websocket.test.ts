/**
 * WebSocket requests in real Chromium against the real app and a `ws` echo server on 127.0.0.1
 * (docs/websocket.md): a WebSocket request made with New request, connected with its
 * subprotocol, a JSON message with a variable typed, sent and echoed, saved and sent again from
 * the saved list, the messages filtered, disconnected with the close shown, an assertion for
 * `parley run` added, the request saved; a server flooding faster than the page draws, counted
 * exactly with the list a window and the page answering.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { parse as parseYaml } from 'yaml';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('WebSocket requests', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let wss: WebSocketServer;
  let wsUrl: string;
  let project: string;
  const seen: string[] = [];

  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (asked) => (asked.has('echo.v1') ? 'echo.v1' : false) });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/echo`;
    wss.on('connection', (socket) => socket.on('message', (data, isBinary) => (seen.push(String(data)), socket.send(data, { binary: isBinary }))));
    project = join(await mkdtemp(join(tmpdir(), 'parley-websocket-e2e-')), 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Sockets' });
    await store.createApi({ name: 'Live', baseUrl: '' });
    await store.setProperties([{ name: 'who', value: 'Ada', enabled: true }]);
    await store.close();
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    for (const client of wss?.clients ?? []) client.terminate();
    await new Promise((resolve) => wss?.close(resolve));
  });

  const messages = () => page.getByRole('table', { name: 'Events' }).locator('.ev-row');
  const rowTexts = async () => (await messages().allTextContents()).map((t) => t.replace(/^\d+\d\d:\d\d:\d\d\.\d{3}/, ''));

  it('makes a WebSocket request, connects, sends JSON with a variable, sees the echo, saves the message, and disconnects', async () => {
    await page.getByRole('treeitem', { name: /Live/ }).click();
    await page.keyboard.press('Control+Alt+N');
    const dialog = page.getByRole('dialog', { name: 'New request' });
    await dialog.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'WebSocket' });
    await expect(dialog.getByText('Method').count()).resolves.toBe(0);
    await dialog.getByRole('textbox', { name: 'Name' }).pressSequentially('Echo', { delay: 15 });
    await dialog.getByRole('textbox', { name: 'URL or path' }).pressSequentially(wsUrl, { delay: 5 });
    await dialog.getByRole('button', { name: 'Create request' }).click();
    await dialog.waitFor({ state: 'detached' });
    // In the tree as WS, with its own file.
    await page.getByRole('treeitem', { name: /WS\s*Echo/ }).waitFor();
    await until(async () => (await readFile(join(project, 'apis', 'Live', 'requests', 'Echo.websocket.yaml'), 'utf8').catch(() => '')).includes('kind: websocket'));

    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Subprotocols').fill('echo.v1');
    await page.getByLabel('Subprotocols').press('Tab');
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Messages/ }).click();

    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('button', { name: 'Disconnect', exact: true }).waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toMatch(/^101 Switching Protocols/);
    await expect(page.getByTestId('subprotocol').textContent()).resolves.toBe('subprotocol echo.v1');

    await page.getByRole('radio', { name: 'JSON' }).click();
    const editor = page.getByLabel('Message', { exact: true });
    await editor.click();
    await page.keyboard.type('{"hello": "${who}"', { delay: 25 });
    await page.getByRole('button', { name: 'Format' }).click();
    await page.getByRole('button', { name: 'Send message' }).click();
    await until(async () => (await messages().count()) === 2);
    const texts = await rowTexts();
    expect(texts[0]).toMatch(/^↑ sent\d+ B\{ ⏎ {3}"hello": "Ada" ⏎ \}$/);
    expect(texts[1]).toMatch(/^↓ received\d+ B\{ ⏎ {3}"hello": "Ada" ⏎ \}$/);
    expect(seen.at(-1)).toBe('{\n  "hello": "Ada"\n}');
    await screenshot(page, 'websocket-echo');

    // Saved, then sent again from the saved list.
    await page.getByRole('button', { name: 'Save as message' }).click();
    const form = page.getByRole('dialog', { name: 'Save this message' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Greeting');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Send Greeting' }).click();
    await until(async () => (await messages().count()) === 4);
    await page.getByLabel('Filter rows').fill('nothing like this');
    await until(async () => (await messages().count()) === 0);
    await page.getByLabel('Filter rows').fill('Ada');
    await until(async () => (await messages().count()) === 4);
    await expect(page.getByTestId('events-count').textContent()).resolves.toBe('4 messages');

    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await page.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    await expect(page.getByTestId('close').textContent()).resolves.toBe('closed by Parley: 1000 (normal closure)');
    // An assertion for `parley run` over the messages received.
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: 'Assertions' }).click();
    await page.getByRole('button', { name: 'Add assertion' }).click();
    await page.getByLabel('Assertion 1 source').selectOption('body');
    await page.getByLabel('Assertion 1 JSONPath').fill('$[0].json.hello');
    await page.getByLabel('Assertion 1 value').fill('Ada');
    await page.keyboard.press('Control+S');
    await until(async () => {
      const file = parseYaml(await readFile(join(project, 'apis', 'Live', 'requests', 'Echo.websocket.yaml'), 'utf8')) as {
        subprotocols: string[];
        messages: { name: string; format: string; text: string }[];
        assertions?: { path: string; value: string }[];
      };
      return file.subprotocols[0] === 'echo.v1' && file.messages[0]?.name === 'Greeting' && file.messages[0].format === 'json' && file.assertions?.[0]?.path === '$[0].json.hello';
    });
    await screenshot(page, 'websocket-closed');
  });

  it('keeps up with a server sending faster than the page draws: the true count, the list a window, the page answering', async () => {
    // A path of the same server that floods: 30,000 messages as fast as the socket takes them, then a close.
    wss.on('connection', (socket, req) => {
      if (req.url !== '/flood') return;
      let n = 0;
      const more = () => {
        while (n < 30_000) {
          socket.send(`{"n":${++n}}`);
          if (socket.bufferedAmount > 1024 * 1024) return void setTimeout(more, 1);
        }
        socket.close(1000, 'done');
      };
      more();
    });
    await page.getByRole('treeitem', { name: /Live/ }).click();
    await page.keyboard.press('Control+Alt+N');
    const dialog = page.getByRole('dialog', { name: 'New request' });
    await dialog.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'WebSocket' });
    await dialog.getByRole('textbox', { name: 'Name' }).pressSequentially('Flood', { delay: 15 });
    await dialog.getByRole('textbox', { name: 'URL or path' }).fill(wsUrl.replace('/echo', '/flood'));
    await dialog.getByRole('button', { name: 'Create request' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    // While it floods, the page still answers: its tabs switch and switch back.
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: 'Headers' }).click();
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Messages/ }).click();
    await until(async () => (await page.getByTestId('close').count()) > 0, 30_000);
    await expect(page.getByTestId('close').textContent()).resolves.toBe('closed by the server: 1000 (normal closure): "done"');
    await expect(page.getByTestId('events-count').textContent()).resolves.toBe('30,000 messages');
    await expect(page.getByTestId('rows-count').textContent()).resolves.toContain('30,001 rows in all');
    // A finished session keeps its first 400 and last 4,600 rows; the list draws only a window of them.
    await expect(page.getByTestId('rows-count').textContent()).resolves.toContain('25,001 not kept');
    const drawn = await messages().count();
    expect(drawn).toBeGreaterThan(5);
    expect(drawn).toBeLessThan(120);
  });
});
