/** The shell in real Chromium against a real `parley ui --demo`: tree, palette, themes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, launchBrowser, screenshot } from '../support/browser.js';

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

  it('refuses the page without the token', async () => {
    const other = await browser.newPage();
    const response = await other.goto(app.url.replace(/token=[^&]+/, 'token=wrong'));
    expect(response?.status()).toBe(403);
    await other.close();
  });
});
