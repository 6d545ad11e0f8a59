/** The shell in real Chromium against a real `parley ui --demo`: tree, palette, themes. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, recordTexts, screenshot, expandTree } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { writeBigProject } from '../support/big-project.js';
import { TREE_PAGE_ITEMS } from '../../processes/supervisor/ui-api.js';
import { until } from '../support/until.js';
import { typeInto } from '../support/code-editor.js';

/** A palette key as Playwright presses it: "Ctrl+Alt+W" -> "Control+Alt+W". */
const pressable = (keys: string) => keys.replace(/\bCtrl\b/g, 'Control').replace(/\bCmd\b/g, 'Meta');

const missing = chromiumMissing();
if (missing) console.warn(`Skipping browser tests: ${missing}`);

describe.skipIf(missing !== null)('UI shell', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ app, browser, page } = await openUi(['--demo']));
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

  /** The demo's pets folder open in the tree, the filter empty. */
  async function showPets(): Promise<void> {
    await page.locator('.sidebar-search input').fill('');
    if ((await page.getByRole('treeitem', { name: /List pets/ }).count()) > 0) return;
    if ((await page.getByRole('treeitem', { name: /^pets$/ }).count()) === 0) await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: /^pets$/ }).click();
    await page.getByRole('treeitem', { name: /List pets/ }).waitFor();
  }

  /** Closes every tab, answering Don't save for any with edits. */
  async function closeAllTabs(): Promise<void> {
    if ((await page.locator('[role=tab]').count()) === 0) return;
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Close all tabs');
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog', { name: /^Save changes/ });
    if (await ask.isVisible().catch(() => false)) await ask.getByRole('button', { name: "Don't save" }).click();
    await page.locator('[role=tab]').first().waitFor({ state: 'detached' }).catch(() => {});
  }

  it('lists every action in the palette with its key, and every key shown runs its command', async () => {
    const tree = (name: RegExp) => page.getByRole('treeitem', { name });
    let edits = 0;
    // Each key is pressed from the same place: two request tabs, the active one with an unsaved edit.
    const baseline = async () => {
      for (let i = 0; i < 3 && (await page.locator('.overlay').count()) > 0; i++) await page.keyboard.press('Escape');
      if ((await page.locator('.sidebar').count()) === 0) await page.keyboard.press('Control+B');
      await showPets();
      await tree(/List pets/).dblclick();
      await tree(/Get a pet/).dblclick();
      await typeInto(page.getByLabel('Path parameter value of petId'), String(100 + ++edits));
      await page.evaluate(() => delete document.body.dataset.lastCommand);
    };
    await closeAllTabs();
    await baseline();

    await page.keyboard.press('Control+Shift+P');
    const items = page.getByRole('dialog', { name: 'Command palette' }).getByRole('option');
    const listed = await items.evaluateAll((lis) =>
      lis.map((li) => ({ id: (li as HTMLElement).dataset.command!, title: li.querySelector('span')!.textContent!, keys: li.querySelector('kbd')?.textContent ?? '' })),
    );
    await screenshot(page, 'shell-palette-all');
    await page.keyboard.press('Escape');
    const titles = listed.map((c) => c.title);
    for (const wanted of ['Save', 'Send request (or stop it)', 'New Mock…', 'Environments and globals', 'Import…', 'Update definition…', 'Close tab', 'New request…', 'Preferences', 'Open project folder…', 'Show / hide the sidebar']) {
      expect(titles).toContain(wanted);
    }
    const keyOf = (id: string) => listed.find((c) => c.id === id)?.keys;
    expect([keyOf('file.save'), keyOf('request.send'), keyOf('tab.close'), keyOf('import.open'), keyOf('palette.toggle')]).toEqual(['Ctrl+S', 'Ctrl+Enter', 'Ctrl+Alt+W', 'Ctrl+I', 'Ctrl+Shift+P']);

    const activeTitle = () => page.locator('[role=tab][aria-selected=true] .tab-title').textContent();
    const dialog = (name: string | RegExp) => page.getByRole('dialog', { name }).waitFor();
    // What each key must visibly do, beyond running its command.
    const effects: Record<string, () => Promise<unknown>> = {
      'palette.toggle': () => dialog('Command palette'),
      'file.save': () => page.locator('[role=tab][aria-selected=true] .dirty-dot').waitFor({ state: 'detached' }),
      'file.saveAll': () => page.locator('.tabbar .dirty-dot').waitFor({ state: 'detached' }),
      'request.send': () => page.getByTestId('status').waitFor(),
      'request.new': () => dialog('New request'),
      'project.open': () => dialog('Open project folder'),
      'import.open': () => page.getByRole('dialog').first().waitFor(),
      'environments.open': () => until(async () => (await activeTitle()) === 'Environments'),
      'preferences.open': () => until(async () => (await activeTitle()) === 'Preferences'),
      'httpLog.open': () => until(async () => (await activeTitle()) === 'HTTP Log'),
      // The active tab has an edit: closing it asks first (Escape then cancels).
      'tab.close': () => dialog('Save changes to Get a pet?'),
      'tab.next': () => until(async () => (await activeTitle()) !== 'Get a pet'),
      'tab.previous': () => until(async () => (await activeTitle()) !== 'Get a pet'),
      'sidebar.toggle': () => page.locator('.sidebar').waitFor({ state: 'detached' }),
      'sidebar.filter': () => until(() => page.evaluate(() => document.activeElement?.matches('.sidebar-search input'))),
    };
    const bound = listed.filter((c) => c.keys);
    expect(bound.length).toBeGreaterThanOrEqual(Object.keys(effects).length);
    for (const command of bound) {
      await baseline();
      await page.keyboard.press(pressable(command.keys));
      await until(
        () => page.evaluate((id) => document.body.dataset.lastCommand === id, command.id),
        5_000,
        () => `${command.keys} did not run "${command.title}"`,
      );
      await effects[command.id]?.();
    }
    await baseline();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
  }, 120_000);

  it('opens a sidebar click in one preview tab that the next click replaces; a double click or an edit keeps it', async () => {
    await closeAllTabs();
    await showPets();
    const tree = (name: RegExp) => page.getByRole('treeitem', { name });
    const strip = page.getByRole('tablist', { name: 'Open tabs' });
    const tabTitles = () => strip.locator('.tab-title').allTextContents();
    await tree(/List pets/).click();
    await tree(/Get a pet/).click();
    expect(await tabTitles()).toEqual(['Get a pet']);
    const preview = strip.getByRole('tab', { name: /Get a pet/ });
    await expect(preview.getAttribute('class')).resolves.toContain('preview');
    await expect(preview.locator('.tab-title').evaluate((el) => getComputedStyle(el).fontStyle)).resolves.toBe('italic');
    await screenshot(page, 'shell-preview-tab');

    await tree(/Create a pet/).dblclick();
    expect(await tabTitles()).toEqual(['Create a pet']);
    await expect(strip.getByRole('tab', { name: /Create a pet/ }).getAttribute('class')).resolves.not.toContain('preview');
    await tree(/List pets/).click();
    expect(await tabTitles()).toEqual(['Create a pet', 'List pets']);
    // The first edit keeps it: the next click opens beside it.
    await typeInto(page.getByLabel('URL', { exact: true }), '/pets?limit=3');
    await tree(/Get a pet/).click();
    expect(await tabTitles()).toEqual(['Create a pet', 'List pets', 'Get a pet']);
    // Double-clicking a preview tab keeps it too.
    await strip.getByRole('tab', { name: /Get a pet/ }).dblclick();
    await tree(/Delete a pet/).click();
    expect(await tabTitles()).toEqual(['Create a pet', 'List pets', 'Get a pet', 'Delete a pet']);
    await closeAllTabs();
  }, 60_000);

  it('scrolls a full tab strip, with the wheel too, and keeps the active tab in view', async () => {
    await closeAllTabs();
    await showPets();
    await page.setViewportSize({ width: 900, height: 700 });
    try {
      for (const name of [/List pets/, /Get a pet/, /Create a pet/, /Delete a pet/, /^Pet Store/, /^Demo/]) await page.getByRole('treeitem', { name }).dblclick();
      for (const command of ['Environments and globals', 'Preferences']) {
        await page.keyboard.press('Control+Shift+P');
        await page.keyboard.type(command);
        await page.keyboard.press('Enter');
      }
      const strip = page.getByRole('tablist', { name: 'Open tabs' });
      const inView = () =>
        strip.evaluate((el) => {
          const tab = el.querySelector('[aria-selected=true]')!.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return tab.left >= box.left - 1 && tab.right <= box.right + 1;
        });
      const sizes = await strip.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(sizes.scroll).toBeGreaterThan(sizes.client);
      await until(inView);
      const end = await strip.evaluate((el) => el.scrollLeft);
      expect(end).toBeGreaterThan(0);
      await screenshot(page, 'shell-tab-strip-scrolled');
      // The first tab, by key: the strip scrolls back to show it.
      await page.keyboard.press('Alt+PageDown');
      await until(async () => (await strip.evaluate((el) => el.scrollLeft)) < end && (await inView()));
      // A vertical wheel over the strip scrolls it sideways.
      const box = (await strip.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 300);
      await until(async () => (await strip.evaluate((el) => el.scrollLeft)) > 0);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    await closeAllTabs();
  }, 60_000);

  it('resizes the sidebar and the request / response split by drag and by keys, and the workspace remembers them', async () => {
    await showPets();
    const sidebar = page.locator('.sidebar');
    const width = async () => (await sidebar.boundingBox())!.width;
    const before = await width();
    const handle = page.getByRole('separator', { name: 'Resize the sidebar' });
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + 200, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + 200, { steps: 4 });
    await page.mouse.up();
    await until(async () => Math.round(await width()) === Math.round(before + 120), 5_000, () => `the sidebar is not ${before + 120} px wide after the drag`);
    await handle.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await until(async () => Math.round(await width()) === Math.round(before + 88), 5_000, () => 'the arrow keys did not narrow the sidebar');
    await expect(handle.getAttribute('aria-valuenow')).resolves.toBe(String(Math.round(before + 88)));

    await page.getByRole('treeitem', { name: /Get a pet/ }).dblclick();
    const top = page.locator('.request-top');
    const height = async () => (await top.boundingBox())!.height;
    const split = page.getByRole('separator', { name: 'Resize the request and response panes' });
    const tall = await height();
    await split.focus();
    await page.keyboard.press('Shift+ArrowDown');
    // The split is kept as a share of the editor (thousandths), so a px size comes back within a pixel.
    await until(async () => Math.abs((await height()) - (tall + 64)) <= 1, 5_000, () => `the request pane is not 64 px taller than ${tall}`);
    const resized = await height();
    await screenshot(page, 'shell-resized-panes');

    // Saved in this workspace's preferences, and there again after a reload.
    await until(async () => (await readFile(join(app.home, 'workspace.yaml'), 'utf8')).includes(`sidebar: ${Math.round(before + 88)}`));
    await until(async () => /requestShare: \d+/.test(await readFile(join(app.home, 'workspace.yaml'), 'utf8')), 5_000, () => 'workspace.yaml has no requestShare');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await until(async () => Math.round(await width()) === Math.round(before + 88));
    await expandTree(page, /Pet Store/, 'pets');
    await page.getByRole('treeitem', { name: /Get a pet/ }).dblclick();
    await until(async () => Math.abs((await height()) - resized) <= 1, 5_000, () => `the request pane is not ${resized} px high after a reload`);
  }, 60_000);
});
