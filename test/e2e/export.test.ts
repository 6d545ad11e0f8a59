/**
 * Export… in real Chromium against the real app (issue 31 item 9): a folder exported as a Postman
 * collection from its context menu, the file read from disk (its requests in the folder's order,
 * the API's base URL joined, assertions as a test script, a secret only as its reference); an
 * existing file is never replaced; and the palette's "Export an API or folder…".
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { assertion, writeRunProject } from '../support/run-project.js';

const missing = chromiumMissing();
if (missing) console.warn(`Skipping browser tests: ${missing}`);

interface Collection {
  info: { name: string; schema: string };
  item: { name: string; event?: { listen: string; script: { exec: string[] } }[]; request: { method: string; url: { raw: string }; header: { key: string; value: string }[] } }[];
}

describe.skipIf(missing !== null)('Export…', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-export-e2e-'));
    const project = join(work, 'shop');
    // Made in this order, which is the folder's order (not name order).
    await writeRunProject(project, [
      {
        name: 'Shop',
        baseUrl: 'http://127.0.0.1:9/api',
        requests: [
          { folder: 'Orders', name: 'Login', method: 'POST', url: '/login', assertions: [assertion({ source: 'status', value: '200' })] },
          { folder: 'Orders', name: 'Create order', method: 'POST', url: '/orders', edit: (r) => void (r.headers = [{ name: 'X-Api-Key', value: '${secret:shop/key}', enabled: true }]) },
          { folder: 'Orders', name: 'Cancel', method: 'DELETE', url: '/orders/{id}', edit: (r) => void (r.pathParams = [{ name: 'id', value: '7' }]) },
          { name: 'Health', url: '/health' },
        ],
      },
    ]);
    ({ app, browser, page } = await openUi([project], { stepMs: 15_000 }));
    await page.locator('.tree-row[data-name="Shop"]').click();
    await page.locator('.tree-row[data-name="Orders"]').waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await rm(work, { recursive: true, force: true });
  });

  const toasts = () => page.locator('.toast').allInnerTexts();

  it('exports a folder as a Postman collection from its context menu, and never replaces a file', async () => {
    await page.locator('.tree-row[data-name="Orders"]').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export the folder Orders' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Format').inputValue()).toBe('Postman collection v2.1');
    expect(await dialog.getByLabel('Save as').inputValue()).toBe('Orders.postman_collection.json');
    const file = join(work, 'orders.postman_collection.json');
    await dialog.getByLabel('Save as').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(file, { delay: 5 });
    await screenshot(page, 'export-dialog');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await until(async () => (await toasts()).some((t) => t.includes(`Exported 3 requests to ${file}`)));

    const collection = JSON.parse(await readFile(file, 'utf8')) as Collection;
    expect(collection.info).toEqual({ name: 'Orders', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' });
    expect(collection.item.map((i) => `${i.request.method} ${i.request.url.raw}`)).toEqual(['POST http://127.0.0.1:9/api/login', 'POST http://127.0.0.1:9/api/orders', 'DELETE http://127.0.0.1:9/api/orders/:id']);
    expect(collection.item[0]!.event![0]!.script.exec).toContain('pm.test("status equals 200", () => pm.expect(pm.response.code).to.eql(200));');
    expect(collection.item[1]!.request.header).toEqual([{ key: 'X-Api-Key', value: '{{secret:shop/key}}' }]);

    // The same name again: refused in the dialog, the file as it was.
    const before = await readFile(file, 'utf8');
    await page.locator('.tree-row[data-name="Orders"]').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Export…' }).click();
    const again = page.getByRole('dialog', { name: 'Export the folder Orders' });
    await again.getByLabel('Save as').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(file, { delay: 5 });
    await again.getByRole('button', { name: 'Export', exact: true }).click();
    await until(async () => (await again.innerText()).includes(`${file} already exists: choose another name.`));
    expect(await readFile(file, 'utf8')).toBe(before);
    await page.keyboard.press('Escape');
    await again.waitFor({ state: 'hidden' });
  });

  it('exports the API chosen in the palette', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Export an API or folder', { delay: 10 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Export an API or folder' });
    await dialog.waitFor();
    await dialog.getByRole('combobox').first().selectOption('API Shop');
    const file = join(work, 'shop.postman_collection.json');
    await dialog.getByLabel('Save as').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(file, { delay: 5 });
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await until(async () => (await toasts()).some((t) => t.includes(`Exported 4 requests to ${file}`)));
    const collection = JSON.parse(await readFile(file, 'utf8')) as { info: { name: string }; item: { name: string }[] };
    expect(collection.info.name).toBe('Shop');
    expect(collection.item.map((i) => i.name)).toEqual(['Orders', 'Health']);
  });
});
