/**
 * The response pane as a person uses it, in Chromium: copy the body, save it to a file, read JSON
 * as a folding tree, Raw with the body under the head, HTML laid out, the split following a small
 * window, and the response beside the request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi, type UiUnderTest } from '../support/ui-app.js';
import { codeText, typeInto } from '../support/code-editor.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();

const JSON_BODY = { owner: { name: 'Ann', pets: [{ id: 1, name: 'Biscuit' }, { id: 2, name: 'Comet' }] }, total: 2 };
const HTML_BODY = '<html><head><title>Hi</title></head><body><div><p>One</p><ul><li>a</li><li>b</li></ul></div></body></html>';

describe.skipIf(missing !== null)('response pane', () => {
  let ui: UiUnderTest;
  let page: Page;
  let server: Server;
  let origin = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end(HTML_BODY);
      res.writeHead(200, { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="owner.json"' }).end(JSON.stringify(JSON_BODY));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ui = await openUi(['--demo'], { stepMs: 15_000, permissions: ['clipboard-read', 'clipboard-write'] });
    page = ui.page;
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /List pets/ }).click();
  });
  afterAll(async () => {
    await ui?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  const send = async (path: string) => {
    await typeInto(page.getByLabel('URL', { exact: true }), `${origin}${path}`);
    await page.keyboard.press('Control+Enter');
    await until(async () => (await page.getByTestId('status').count()) === 1, 15_000, () => 'no response');
  };
  const views = () => page.getByRole('tablist', { name: 'Response views' });

  it('copies the body and saves it to a file named by the server', async () => {
    await send('/owner');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(JSON.stringify(JSON_BODY));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save…' }).click()]);
    expect(download.suggestedFilename()).toBe('owner.json');
    const path = await download.path();
    await expect(readFile(path, 'utf8')).resolves.toBe(JSON.stringify(JSON_BODY));
  });

  it('shows JSON as a folding tree, opened a level at a time', async () => {
    await page.getByRole('group', { name: 'JSON view' }).getByRole('button', { name: 'Tree' }).click();
    const tree = page.getByRole('tree', { name: 'Response body tree' });
    await expect(tree.textContent()).resolves.toContain('"owner": {2 keys}');
    await expect(tree.textContent()).resolves.not.toContain('Biscuit');
    await tree.getByText('"owner"').click();
    await tree.getByText('"pets"').click();
    await tree.getByText('[2 items]').waitFor();
    await tree.getByText('0', { exact: true }).click();
    await expect(tree.textContent()).resolves.toContain('"name": "Biscuit"');
    await screenshot(page, 'response-json-tree');
    await page.getByRole('group', { name: 'JSON view' }).getByRole('button', { name: 'Pretty' }).click();
    await expect(codeText(page.getByLabel('Response body'))).resolves.toContain('"name": "Comet"');
  });

  it('Raw shows the body under the response head', async () => {
    await views().getByRole('tab', { name: 'Raw' }).click();
    const raw = await codeText(page.getByLabel('Raw exchange'));
    expect(raw).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/owner\n/);
    expect(raw).toMatch(/HTTP\/1\.1 200 OK[\s\S]*content-disposition: attachment[\s\S]*\n\n\{"owner":\{"name":"Ann"/);
  });

  it('lays HTML out an element a line', async () => {
    await send('/page');
    await views().getByRole('tab', { name: 'Body' }).click();
    const text = await codeText(page.getByLabel('Response body'));
    expect(text).toContain('<ul>\n');
    expect(text).toMatch(/\n {6}<li>a<\/li>\n {6}<li>b<\/li>\n/);
  });

  it('on a 1024x640 window the split still leaves the body room; the response can sit beside the request', async () => {
    await send('/owner');
    await page.setViewportSize({ width: 1024, height: 640 });
    const body = page.locator('.response-code');
    // More than five lines of the body: the split follows the window.
    let height = 0;
    await until(async () => (height = (await body.boundingBox())?.height ?? 0) >= 150, 5_000, () => `the body had ${height} px`);
    await screenshot(page, 'response-small-window');

    await page.getByRole('button', { name: 'Response beside' }).click();
    const request = page.locator('.request-top');
    const response = page.locator('.response-pane');
    await until(async () => {
      const [a, b] = [await request.boundingBox(), await response.boundingBox()];
      return a !== null && b !== null && b.x >= a.x + a.width - 1 && Math.abs(a.y - b.y) < 2;
    }, 5_000, () => 'the response did not move beside the request');
    await until(async () => (await readFile(`${ui.app.home}/workspace.yaml`, 'utf8')).includes('responseBeside: true'), 10_000, () => 'the layout was not kept');
    // Dragging the handle moves the split, kept as a share of the width.
    await page.setViewportSize({ width: 1440, height: 900 });
    const handle = page.getByRole('separator', { name: 'Resize the request and response panes' });
    await until(async () => (await request.boundingBox())!.width > 500, 5_000, () => 'the request did not widen with the window');
    const box = (await handle.boundingBox())!;
    const before = (await request.boundingBox())!.width;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 80, box.y + 200, { steps: 5 });
    await page.mouse.up();
    await until(async () => Math.abs((await request.boundingBox())!.width - (before - 80)) <= 2, 5_000, () => 'dragging did not narrow the request');
    await screenshot(page, 'response-beside');
    const dragged = (await request.boundingBox())!.width;
    // At a narrower window the request keeps its share, not its pixels.
    await page.setViewportSize({ width: 1280, height: 800 });
    await until(async () => (await request.boundingBox())!.width < dragged - 40, 5_000, () => 'the split did not follow the narrower window');
    await page.getByRole('button', { name: 'Response below' }).click();
    await until(async () => (await readFile(`${ui.app.home}/workspace.yaml`, 'utf8')).includes('responseBeside: false'), 10_000, () => 'the layout was not kept');
  });
});
