/** The shell in real Chromium against a real `parley ui --demo`: tree, palette, themes. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, launchBrowser, recordTexts, screenshot } from '../support/browser.js';
import { writeBigProject } from '../support/big-project.js';
import { TREE_PAGE_ITEMS } from '../../processes/supervisor/ui-api.js';

const missing = chromiumMissing();
if (missing) console.warn(`Skipping browser tests: ${missing}`);

describe.skipIf(missing !== null)('UI shell', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startApp(['--demo']);
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(app.url);
    await page.waitForSelector('body[data-ready="true"]');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('shows the demo project tree: project > API > folders > requests', async () => {
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await expect(page.getByRole('treeitem', { name: 'pets' }).isVisible()).resolves.toBe(true);
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /Get a pet/ }).waitFor();
    const names = await page.locator('.tree-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.name));
    expect(names).toEqual(expect.arrayContaining(['Demo', 'Pet Store', 'pets', 'store', 'List pets', 'Get a pet', 'Create a pet']));
    await screenshot(page, 'shell-tree');
  });

  it('opens the command palette with Ctrl+Shift+P and runs a command', async () => {
    await page.keyboard.press('Control+Shift+P');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.type('toggle theme');
    await screenshot(page, 'shell-palette');
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
    await screenshot(page, `shell-theme-${await page.evaluate(() => document.documentElement.dataset.theme)}`);
    await expect(palette.isVisible()).resolves.toBe(false);
  });

  it('opens a big project folder from the palette: its tree, sent in pages, shows requests from every page', async () => {
    const folder = join(app.home, 'big-project');
    // Sorted by name, "0000" comes in the first page, "0600" in the second, "1099" in the reply.
    await writeBigProject(folder, 2 * TREE_PAGE_ITEMS + 100);
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    await page.keyboard.type('Open project folder');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Folder' }).fill(folder);
    const statuses = await recordTexts(page, '.statusbar [role=status]');
    const buttons = await recordTexts(page, '[role=dialog] button[type=submit]');
    await page.keyboard.press('Enter');
    await page.getByRole('treeitem', { name: /^Items/ }).waitFor();
    // While it opened, the status bar and the dialog's button said so; once open, that is gone.
    expect(await statuses()).toContain('Opening big-project…');
    expect(await buttons()).toEqual(['Open', 'Opening…']);
    await page.locator('.statusbar [role=status]').waitFor({ state: 'detached' });
    const search = page.locator('.sidebar-search input');
    for (const name of ['GET item 0000', 'GET item 0600', 'GET item 1099']) {
      await search.fill(name.slice(4));
      await page.getByRole('treeitem', { name: new RegExp(name) }).waitFor();
    }
    await screenshot(page, 'shell-big-project');
    await search.fill('');

    // Closed, it is under Recent on the welcome page, and opens again from there, whole.
    await page.getByRole('treeitem', { name: /^Big/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Close project' }).click();
    await page.getByRole('treeitem', { name: /^Big/ }).waitFor({ state: 'detached' });
    for (const close of await page.locator('.tab-close').all()) await close.click();
    const reopening = await recordTexts(page, '.statusbar [role=status]');
    await page.getByRole('button', { name: /big-project/ }).click();
    await page.getByRole('treeitem', { name: /^Items/ }).waitFor();
    expect(await reopening()).toContain('Opening big-project…');
    await search.fill('item 0001');
    await page.getByRole('treeitem', { name: /GET item 0001/ }).waitFor();
    await search.fill('');
  });

  it('refuses the page without the token', async () => {
    const other = await browser.newPage();
    const response = await other.goto(app.url.replace(/token=[^&]+/, 'token=wrong'));
    expect(response?.status()).toBe(403);
    await other.close();
  });
});
