/**
 * Folder settings in real Chromium (issue 28 item 4): a double click on a folder opens its
 * settings; its auth, a header and a variable are typed with real key events and saved to its
 * folder.yaml; a request inside with auth Inherit says where its auth and the header come from,
 * and its send carries them to a local server. The settings tab follows a rename of its folder.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText, variableHover, variableMarks } from '../support/code-editor.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';

const missing = chromiumMissing();
if (missing) console.warn(`Skipping browser tests: ${missing}`);

const row = (page: Page, name: string) => page.locator(`.tree-row[data-name="${name}"]`);

/** Types as a user does: a key event per character. */
async function typeInto(page: Page, label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.keyboard.type(text, { delay: 15 });
}

describe.skipIf(missing !== null)('folder settings', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let folder: string;
  let server: Server;
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push({ url: req.url!, headers: req.headers });
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    folder = join(await mkdtemp(join(tmpdir(), 'parley-folder-e2e-')), 'shop');
    const store = await ProjectStore.open(folder, { create: true, name: 'Shop project' });
    const api = await store.createApi({ name: 'Shop', baseUrl: base });
    const orders = await store.edits.createFolder(api.id, 'Orders');
    await store.createRequest({ parent: orders, name: 'List orders', method: 'GET', url: '/orders' });
    await store.close();
    ({ app, browser, page } = await openUi([folder], { stepMs: 15_000 }));
    await row(page, 'Shop').click();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  it('a double click on a folder opens its settings; auth, a header and a variable typed there are saved to folder.yaml', async () => {
    await row(page, 'Orders').dblclick();
    const editor = page.locator('.folder-editor');
    await editor.waitFor();
    await expect(editor.locator('h2').textContent()).resolves.toBe('Orders');
    // Nothing set yet: it inherits the API's (none).
    await expect(editor.getByLabel('Inherited auth').textContent()).resolves.toBe('Uses No auth, from API Shop.');

    await editor.getByLabel('Auth type').selectOption('bearer');
    await typeInto(page, 'Token', '${ordersToken}');
    await typeInto(page, 'Folder header name', 'X-Team');
    await typeInto(page, 'Folder header value of X-Team', 'orders');
    await typeInto(page, 'Folder variable name', 'ordersToken');
    await typeInto(page, 'Folder variable value of ordersToken', 'tok-from-folder');
    await screenshot(page, 'folder-settings-typed');
    await page.keyboard.press('Control+S');
    await until(async () => (await readFile(join(folder, 'apis/Shop/requests/Orders/folder.yaml'), 'utf8')).includes('tok-from-folder'));
    const text = await readFile(join(folder, 'apis/Shop/requests/Orders/folder.yaml'), 'utf8');
    expect(text).toMatch(/^order: a\w+$/m);
    expect(text).toContain('token: ${ordersToken}');
    expect(text).toMatch(/name: X-Team\n\s+value: orders/);
    await until(async () => (await editor.getByRole('button', { name: 'Save' }).isDisabled()));
  });

  it('a request inside with auth Inherit says "from folder Orders", lists the header, and its send carries both', async () => {
    await row(page, 'Orders').click();
    await row(page, 'List orders').dblclick();
    await page.getByRole('tab', { name: /^Auth/ }).click();
    await expect(page.getByLabel('Auth type').inputValue()).resolves.toBe('inherit');
    await until(async () => (await page.getByLabel('Inherited auth').textContent()) === 'Uses Bearer token, from folder Orders.');
    await page.getByRole('tab', { name: /^Headers/ }).click();
    const inherited = page.getByRole('table', { name: 'Inherited headers' });
    await expect(inherited.getByRole('row', { name: 'Header X-Team' }).textContent()).resolves.toBe('X-Teamordersfrom folder Orders');
    await screenshot(page, 'folder-settings-inherited-header');

    const before = seen.length;
    await page.getByRole('button', { name: 'Send' }).click();
    await until(() => seen.length > before);
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer tok-from-folder');
    expect(seen.at(-1)!.headers['x-team']).toBe('orders');

    // The request's own header of the same name replaces the folder's.
    await typeInto(page, 'Header name', 'x-team');
    await typeInto(page, 'Header value of x-team', 'mine');
    await expect(inherited.getByRole('row', { name: 'Header X-Team' }).textContent()).resolves.toBe('X-Teamordersreplaced here; from folder Orders');
    await page.getByRole('button', { name: 'Send' }).click();
    await until(() => seen.length > before + 1);
    expect(seen.at(-1)!.headers['x-team']).toBe('mine');
  });

  it('the settings tab follows a rename of its folder', async () => {
    await row(page, 'Orders').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Purchases', { delay: 15 });
    await page.keyboard.press('Enter');
    await row(page, 'Purchases').waitFor();
    await until(async () => (await page.getByRole('tab', { name: /Purchases/ }).count()) === 1);
    await page.getByRole('tab', { name: /Purchases/ }).click();
    await expect(page.locator('.folder-editor h2').textContent()).resolves.toBe('Purchases');
    // Its context menu opens the same tab, not a second one.
    await row(page, 'Purchases').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Folder settings…' }).click();
    await expect(page.getByRole('tab', { name: /Purchases/ }).count()).resolves.toBe(1);
    await expect(codeText(page.locator('.folder-editor').getByLabel('Token', { exact: true }))).resolves.toBe('${ordersToken}');
  });

  it("a request's fields know its folder's variables: marked resolved, hover and completion say \"from folder Purchases\"", async () => {
    await row(page, 'List orders').dblclick();
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Headers/ }).click();
    await page.getByLabel('Header name').last().click();
    await page.keyboard.type('X-Orders', { delay: 15 });
    const value = page.getByLabel('Header value of X-Orders', { exact: true });
    await value.click();
    await page.keyboard.type('${ordersTo', { delay: 15 });
    const options = page.locator('.cm-tooltip-autocomplete [role=option]');
    await until(async () => (await options.count()) === 1, 5_000, () => "typing ${ordersTo offered nothing: the folder's variable is not in scope");
    await expect(options.first().textContent()).resolves.toContain('folder Purchases');
    await options.first().click();
    await until(async () => JSON.stringify(await variableMarks(value)) === JSON.stringify([['${ordersToken}', true]]), 5_000, () => "the folder's variable was not marked as resolved");
    await expect(variableHover(value, '${ordersToken}')).resolves.toContain('tok-from-folder  from folder Purchases');
    await expect(page.getByRole('list', { name: 'Problems to fix before Send' }).count()).resolves.toBe(0);
  });

  it('the palette\'s Folder settings… opens the settings of the active request\'s folder, or of the folder selected in the sidebar', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Folder settings', { delay: 15 });
    await page.keyboard.press('Enter');
    await until(async () => (await page.locator('.folder-editor h2').textContent().catch(() => '')) === 'Purchases', 10_000, () => "the palette did not open the request's folder's settings");
    await expect(page.getByRole('tab', { name: /Purchases/ }).getAttribute('aria-selected')).resolves.toBe('true');

    // Another folder, selected in the sidebar: the palette opens its settings.
    await row(page, 'Shop').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'New folder…' }).click();
    await page.keyboard.type('Archive', { delay: 15 });
    await page.keyboard.press('Enter');
    await row(page, 'Archive').click();
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Folder settings', { delay: 15 });
    await page.keyboard.press('Enter');
    await until(async () => (await page.locator('.folder-editor h2').textContent().catch(() => '')) === 'Archive', 10_000, () => 'the palette did not open the selected folder\'s settings');
  });
});
