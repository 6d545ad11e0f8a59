/**
 * The sidebar as a user meets it with two projects open, in Chromium against `parley ui --demo`:
 * the filter lists only projects (and APIs, folders) holding a match, typed a key at a time; and
 * the tree follows the active tab wherever the tab was made active (a click on a tab, Alt+PageDown,
 * a request opened from History): its row is selected, its folders expanded, and it is on screen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { writeBigProject } from '../support/big-project.js';
import { openUi, type UiUnderTest } from '../support/ui-app.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 25;
const STEP_MS = 15_000;

describe.skipIf(missing !== null)('sidebar filter and the tree following the active tab', { timeout: 120_000 }, () => {
  let ui: UiUnderTest;
  let page: Page;
  let work: string;

  const rowNames = () => page.locator('.tree-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.name));
  const row = (name: string | RegExp) => page.getByRole('treeitem', { name, exact: typeof name === 'string' });
  const selected = () => page.locator('.tree-row[aria-selected="true"]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.name));
  const tab = (name: string) => page.getByRole('tablist', { name: 'Open tabs' }).getByRole('tab', { name: new RegExp(name) });

  async function filter(text: string): Promise<void> {
    const input = page.getByLabel('Filter requests');
    await input.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    if (text) await page.keyboard.type(text, { delay: TYPING_DELAY_MS });
  }

  /** True when the row is within the tree's visible box (the tree is virtualized and scrolls). */
  const onScreen = (name: string) =>
    page.locator(`.tree-row[data-name="${name}"]`).evaluate((el) => {
      const tree = el.closest('[role=tree]')!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      // Within a pixel: the tree's height is fractional, its scroll offsets whole pixels.
      return box.top >= tree.top - 1 && box.bottom <= tree.bottom + 1;
    });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-sidebar-e2e-'));
    // A second project: 300 requests in three folders, so a row can be far below the fold.
    await writeBigProject(join(work, 'big'), 300);
    ui = await openUi(['--demo'], { stepMs: STEP_MS });
    page = ui.page;
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    await page.keyboard.type('Open project folder', { delay: TYPING_DELAY_MS });
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Folder' }).fill(join(work, 'big'));
    await page.keyboard.press('Enter');
    await row('Big').waitFor();
  });
  afterAll(async () => {
    await ui?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('while a filter is typed, lists only the projects, APIs and folders that hold a match', async () => {
    await filter('get a pet');
    await row(/Get a pet/).waitFor();
    await expect.poll(rowNames).toEqual(['Demo', 'Pet Store', 'pets', 'Get a pet']);
    await screenshot(page, 'sidebar-filter-demo-only');
    await filter('item 0299');
    await expect.poll(rowNames).toEqual(['Big', 'Items', 'area-2', 'GET item 0299']);
    await filter('no such request');
    await expect.poll(rowNames).toEqual([]);
    await filter('');
    await expect.poll(rowNames).toEqual(expect.arrayContaining(['Demo', 'Big']));
  });

  it('selects, expands and scrolls to the active tab’s item when a tab is clicked, on Alt+PageDown, and when a request is opened from History', async () => {
    // Two kept tabs: one in the demo, one deep in the big project.
    await row('Demo').click();
    await row('Pet Store').click();
    await row('pets').click();
    await row(/Get a pet/).dblclick();
    await filter('item 0298');
    await row(/GET item 0298/).dblclick();
    await filter('');
    // Fold both away: the tree now shows neither row.
    await row('Demo').locator('.twisty').click();
    await row('Big').locator('.twisty').click();
    await expect.poll(rowNames).toEqual(['Demo', 'Big']);

    await tab('Get a pet').click();
    await expect.poll(selected).toEqual(['Get a pet']);
    await expect.poll(() => onScreen('Get a pet')).toBe(true);

    await page.keyboard.press('Alt+PageDown');
    await expect.poll(selected).toEqual(['GET item 0298']);
    await expect.poll(() => onScreen('GET item 0298')).toBe(true);
    await screenshot(page, 'sidebar-follows-tab');

    // Sent once, then opened again from the project's History after its tab is closed and its folder folded.
    await tab('Get a pet').click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('status').waitFor();
    await page.keyboard.press('Control+Shift+H');
    const view = page.locator('.history-editor');
    await view.waitFor();
    await page.getByRole('button', { name: 'Close Get a pet' }).click();
    await row('pets').locator('.twisty').click();
    await expect(row(/Get a pet/).count()).resolves.toBe(0);
    await view.getByRole('list', { name: 'History' }).getByRole('listitem').first().click();
    await view.getByRole('button', { name: 'Open request' }).click();
    await expect.poll(selected).toEqual(['Get a pet']);
    await expect.poll(() => onScreen('Get a pet')).toBe(true);
  });
});
