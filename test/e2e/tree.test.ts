/**
 * Tree management in real Chromium (issue 28): New folder, rename, duplicate, a request dragged
 * into another folder with the mouse (its open tab follows it), Alt+Down, delete in the app's own
 * dialog and Undo, then a reload shows the same tree; what lands on disk is read at every step.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi, loadApp } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { outline } from '../support/tree-outline.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';

const missing = chromiumMissing();
if (missing) console.warn(`Skipping browser tests: ${missing}`);

/** The sidebar's rows as shown, each name indented by its depth. */
async function sidebar(page: Page): Promise<string[]> {
  return page.locator('.tree-row').evaluateAll((rows) =>
    rows.map((r) => {
      const el = r as HTMLElement;
      const depth = Math.round((parseFloat(el.style.paddingLeft) - 8) / 14);
      return `${'  '.repeat(depth)}${el.dataset.name}`;
    }),
  );
}

const row = (page: Page, name: string) => page.locator(`.tree-row[data-name="${name}"]`);

async function contextMenu(page: Page, name: string, action: string): Promise<void> {
  await row(page, name).click({ button: 'right' });
  await page.getByRole('menuitem', { name: action }).click();
}

/** The project on disk as the store loads it, in the tree's order. */
async function onDisk(folder: string): Promise<string[]> {
  const store = await ProjectStore.open(folder);
  try {
    return outline(store.tree());
  } finally {
    await store.close();
  }
}

describe.skipIf(missing !== null)('tree management', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let folder: string;
  let ids: Record<string, string>;

  beforeAll(async () => {
    folder = join(await mkdtemp(join(tmpdir(), 'parley-tree-e2e-')), 'shop');
    const store = await ProjectStore.open(folder, { create: true, name: 'Shop project' });
    const api = await store.createApi({ name: 'Shop', baseUrl: 'http://127.0.0.1:9' });
    ids = {};
    // Made in this order, so it is the order they run in: not name order.
    for (const name of ['Login', 'Create order', 'Fetch order']) ids[name] = (await store.createRequest({ parent: api.id, name, method: 'POST', url: '/x' })).id;
    await store.close();
    ({ app, browser, page } = await openUi([folder], { stepMs: 15_000 }));
    await row(page, 'Shop').click();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('New folder, rename and duplicate from the context menu', async () => {
    expect(await sidebar(page)).toEqual(['Shop project', '  Shop', '    Login', '    Create order', '    Fetch order']);
    await contextMenu(page, 'Shop', 'New folder…');
    await page.keyboard.type('Orders', { delay: 20 });
    await page.keyboard.press('Enter');
    await row(page, 'Orders').waitFor();
    expect(await readFile(join(folder, 'apis/Shop/requests/Orders/folder.yaml'), 'utf8')).toMatch(/^version: 1\norder: a\w+\n$/);

    await contextMenu(page, 'Orders', 'Rename…');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Placed orders', { delay: 20 });
    await page.keyboard.press('Enter');
    await row(page, 'Placed orders').waitFor();
    expect(await readdir(join(folder, 'apis/Shop/requests'))).toContain('Placed orders');
    expect(await readdir(join(folder, 'apis/Shop/requests'))).not.toContain('Orders');

    await contextMenu(page, 'Login', 'Duplicate');
    await row(page, 'Login copy').waitFor();
    expect(await sidebar(page)).toEqual(['Shop project', '  Shop', '    Login', '    Login copy', '    Create order', '    Fetch order', '    Placed orders']);
  });

  it('drags a request into another folder with the mouse; its open tab follows it', async () => {
    await row(page, 'Create order').dblclick();
    await expect(page.locator('.breadcrumb').textContent()).resolves.toMatch(/^Shop project\/Shop\//);
    const from = (await row(page, 'Create order').boundingBox())!;
    const to = (await row(page, 'Placed orders').boundingBox())!;
    await page.mouse.move(from.x + 40, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 40, to.y + to.height / 2, { steps: 12 });
    // The folder is lit up as where the request would go.
    await page.locator('.tree-row.drop-inside[data-name="Placed orders"]').waitFor();
    await screenshot(page, 'tree-drag-into-folder');
    await page.mouse.up();
    await until(async () => (await readdir(join(folder, 'apis/Shop/requests/Placed orders')).catch(() => [] as string[])).includes('Create order.request.yaml'));
    expect(await readdir(join(folder, 'apis/Shop/requests'))).not.toContain('Create order.request.yaml');
    // Same request, same id: the file moved, the tab and its breadcrumb follow.
    expect(await readFile(join(folder, 'apis/Shop/requests/Placed orders/Create order.request.yaml'), 'utf8')).toContain(`id: ${ids['Create order']}`);
    await until(async () => /Placed orders\//.test((await page.locator('.breadcrumb').textContent()) ?? ''));
    await expect(page.getByRole('tab', { name: /Create order/ }).count()).resolves.toBeGreaterThan(0);
    await until(async () => (await sidebar(page)).includes('      Create order'));
  });

  it('Alt+Down moves the selected request one place down', async () => {
    await row(page, 'Login').click();
    await page.keyboard.press('Alt+ArrowDown');
    await until(async () => (await sidebar(page)).slice(2, 4).join() === '    Login copy,    Login', 10_000, () => 'Login did not move down');
    expect((await onDisk(folder)).slice(1, 3)).toEqual(['  Login copy', '  Login']);
  });

  it('deletes in the app\'s own dialog, and Undo puts back every byte', async () => {
    const file = join(folder, 'apis/Shop/requests/Fetch order.request.yaml');
    const before = await readFile(file, 'utf8');
    await contextMenu(page, 'Fetch order', 'Delete request…');
    const dialog = page.getByRole('dialog', { name: 'Delete request' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await row(page, 'Fetch order').waitFor({ state: 'detached' });
    await expect(readFile(file, 'utf8')).rejects.toThrow();
    await page.locator('.toast').getByRole('button', { name: 'Undo' }).click();
    await row(page, 'Fetch order').waitFor();
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('a reload shows the same tree, which is the one on disk', async () => {
    const shown = await sidebar(page);
    await loadApp(page, app.url);
    await row(page, 'Shop').click();
    await row(page, 'Placed orders').click();
    expect(await sidebar(page)).toEqual(shown);
    expect(shown).toEqual(['Shop project', '  Shop', '    Login copy', '    Login', '    Fetch order', '    Placed orders', '      Create order']);
    expect(await onDisk(folder)).toEqual(['<Shop>', '  Login copy', '  Login', '  Fetch order', '  [Placed orders]', '    Create order']);
  });

  it('Ctrl-click picks several rows, and Move to… from the palette moves them together', async () => {
    await row(page, 'Login copy').click();
    await row(page, 'Login').click({ modifiers: ['Control'] });
    await expect(page.locator('.tree-row.selected').count()).resolves.toBe(2);
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Move to', { delay: 20 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Move 2 requests to…' });
    await dialog.waitFor();
    await page.keyboard.type('Placed', { delay: 20 });
    await dialog.getByRole('option', { name: /Placed orders/ }).click();
    const moved = ['Shop project', '  Shop', '    Fetch order', '    Placed orders', '      Create order', '      Login copy', '      Login'];
    await until(async () => (await sidebar(page)).join() === moved.join(), 10_000, () => 'the two requests did not move');
    expect(await onDisk(folder)).toEqual(['<Shop>', '  Fetch order', '  [Placed orders]', '    Create order', '    Login copy', '    Login']);
  });
});
