/**
 * A .http file with an http-client.env.json beside it in the app, in Chromium against
 * `parley ui --demo`: the Import dialog's File tab recognises the file (badge) and offers "Also
 * import 2 environments found beside the file", ticked; the import into the open project makes
 * an API whose requests are in the tree in file order (not alphabetical), and both environments
 * are in the Environments view, neither active. Screenshots: test-results/screenshots/import-http-*.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, expandTree, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();
const STEP_MS = 30_000;

// File order is List, Create, Delete: alphabetical order would differ.
const HTTP = `@host = https://shop.example.test

### List orders
GET {{host}}/orders?page=1
Accept: application/json

### Create an order
POST {{host}}/orders
Content-Type: application/json

{"item": "book", "region": "{{region}}"}

### Delete an order
DELETE {{host}}/orders/1
`;
const ENVIRONMENTS = JSON.stringify({ 'Shop dev': { region: 'eu-dev' }, 'Shop staging': { region: 'eu-staging' } });

describe.skipIf(missing !== null)('.http import with its environments', { timeout: 150_000 }, () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-http-e2e-'));
    await writeFile(join(work, 'shop-orders.http'), HTTP);
    await writeFile(join(work, 'http-client.env.json'), ENVIRONMENTS);
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: STEP_MS }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('imports a picked .http file and the environments beside it: requests in file order, environments listed and not active', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(join(work, 'shop-orders.http'));
    const badge = dialog.getByRole('status', { name: 'Detected format' });
    await badge.getByText('.http file').waitFor();
    const also = dialog.getByRole('group', { name: '.http file' }).getByLabel('Also import 2 environments found beside the file');
    await also.waitFor();
    await expect(also.isChecked()).resolves.toBe(true);
    await screenshot(page, 'import-http-dialog');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.getByRole('heading', { name: 'Imported shop-orders' }).waitFor();
    await expect(summary.textContent()).resolves.toMatch(/Shop dev: 1 variable \(not active\)/);
    await expect(summary.textContent()).resolves.toMatch(/Shop staging: 1 variable \(not active\)/);
    await screenshot(page, 'import-http-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await expandTree(page, 'shop-orders');
    const rows = page.getByRole('treeitem');
    await rows.filter({ hasText: 'Delete an order' }).waitFor();
    const names = (await rows.allTextContents()).filter((t) => /List orders|Create an order|Delete an order/.test(t)).map((t) => /List orders|Create an order|Delete an order/.exec(t)![0]);
    expect(names).toEqual(['List orders', 'Create an order', 'Delete an order']);
    await rows.filter({ hasText: 'List orders' }).click();
    await expect.poll(() => codeText(page.getByLabel('URL').first())).toBe('${host}/orders?page=1');
    await screenshot(page, 'import-http-tree');

    await page.keyboard.press('Control+Alt+E');
    const list = page.getByRole('listbox', { name: 'Environments' });
    await list.getByText('Shop dev').waitFor();
    await list.getByText('Shop staging').waitFor();
    const active = await page.getByLabel('Active environment').first().evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
    expect(active).not.toMatch(/Shop (dev|staging)/);
    await screenshot(page, 'import-http-environments');
  });
});
