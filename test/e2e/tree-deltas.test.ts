/**
 * A save reaches every window as what it changed, not as the tree (issue 12 item 7): two windows
 * on a project of 1,200 requests; a rename in one shows in the other's sidebar, and so does a file
 * edited on disk, each in a message of a few hundred bytes, where the tree is over 60 KB.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, launchBrowser, screenshot } from '../support/browser.js';
import { loadApp } from '../support/ui-app.js';
import { writeBigProject } from '../support/big-project.js';

const missing = chromiumMissing();
if (missing) console.warn(`Skipping browser tests: ${missing}`);

/** A page on the app whose WebSocket frames from the supervisor are counted by size from `mark()`. */
async function openWindow(browser: BrowserContext, url: string): Promise<{ page: Page; mark: () => void; largest: () => number }> {
  const page = await browser.newPage();
  let largest = 0;
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => (largest = Math.max(largest, payload.length))));
  await loadApp(page, url);
  return { page, mark: () => (largest = 0), largest: () => largest };
}

async function showInTree(page: Page, name: string) {
  await page.locator('.sidebar-search input').fill(name);
  return page.getByRole('treeitem', { name: new RegExp(name) });
}

describe.skipIf(missing !== null)('project tree deltas', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let folder: string;

  beforeAll(async () => {
    const home = await import('node:fs/promises').then((fs) => fs.mkdtemp(join(process.env.TMPDIR ?? '/tmp', 'parley-deltas-e2e-')));
    folder = join(home, 'big');
    await writeBigProject(folder, 1_200);
    app = await startApp([folder], { PARLEY_HOME: join(home, 'home') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('a rename saved in one window shows in the other, sent as a delta', async () => {
    const one = await openWindow(browser, app.url);
    const two = await openWindow(browser, app.url);
    // The tree each window read at the start was the big message.
    expect(two.largest()).toBeGreaterThan(60_000);
    two.mark();

    await (await showInTree(one.page, 'GET item 0007')).dblclick();
    await one.page.getByTitle('Rename').click();
    await one.page.getByLabel('Request name').fill('Renamed item seven');
    await one.page.keyboard.press('Enter');
    await one.page.keyboard.press('Control+S');

    await (await showInTree(two.page, 'Renamed item seven')).waitFor();
    await expect((await showInTree(two.page, 'GET item 0007')).count()).resolves.toBe(0);
    await showInTree(two.page, 'Renamed');
    await screenshot(two.page, 'tree-delta-rename');
    expect(two.largest()).toBeLessThan(2_000);
  });

  it('a file edited on disk shows in every window, sent as a delta', async () => {
    const one = await openWindow(browser, app.url);
    one.mark();
    const file = join(folder, 'apis', 'Items', 'requests', 'area-0', 'GET item 0009.request.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: GET item 0009', 'name: Edited on disk').replace('method: GET', 'method: DELETE'));
    const row = await showInTree(one.page, 'Edited on disk');
    await row.waitFor();
    // The sidebar's method badge abbreviates DELETE.
    await expect(row.textContent()).resolves.toMatch(/^DEL/);
    expect(one.largest()).toBeLessThan(2_000);
  });
});
