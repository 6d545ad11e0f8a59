/**
 * Keys act on the active tab wherever focus is (issue 27, item 6), in real Chromium against a
 * real `parley ui --demo`: Ctrl+Enter right after a click on a request in the sidebar sends it;
 * from the tab strip Ctrl+S saves (on disk) and Ctrl+Alt+W closes; the palette opens from the
 * tree; and every command with a key runs from the tree, the tab strip and the response pane.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { codeText } from '../support/code-editor.js';
import { until } from '../support/until.js';
import { typeInto } from '../support/code-editor.js';

/** A palette key as Playwright presses it: "Ctrl+Alt+W" -> "Control+Alt+W". */
const pressable = (keys: string) => keys.replace(/\bCtrl\b/g, 'Control').replace(/\bCmd\b/g, 'Meta');

const missing = chromiumMissing();

describe.skipIf(missing !== null)('keys act on the active tab wherever focus is', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  const getAPetFile = () => join(app.home, 'demo-project', 'apis', 'Pet Store', 'requests', 'pets', 'Get a pet.request.yaml');

  beforeAll(async () => {
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: 10_000 }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const tree = (name: RegExp) => page.getByRole('treeitem', { name });
  const strip = () => page.getByRole('tablist', { name: 'Open tabs' });
  const activeTab = () => strip().locator('[role=tab][aria-selected=true]');
  const focusIsIn = (selector: string) => page.evaluate((s) => !!document.activeElement?.closest(s), selector);

  async function showPets(): Promise<void> {
    if ((await tree(/List pets/).count()) > 0) return;
    if ((await tree(/^pets$/).count()) === 0) await tree(/Pet Store/).click();
    await tree(/^pets$/).click();
    await tree(/List pets/).waitFor();
  }

  async function closeDialogs(): Promise<void> {
    for (let i = 0; i < 3 && (await page.locator('.overlay').count()) > 0; i++) await page.keyboard.press('Escape');
  }

  it('Ctrl+Enter right after clicking a request in the sidebar sends it', async () => {
    await showPets();
    await tree(/Get a pet/).click();
    expect(await focusIsIn('[role=tree]')).toBe(true);
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
    await screenshot(page, 'keys-send-from-tree');
  });

  it('from the tab strip: Ctrl+S saves the active tab to disk, Ctrl+Alt+W closes it', async () => {
    await tree(/Get a pet/).dblclick();
    const value = page.getByLabel('Path parameter value of petId');
    await typeInto(value, '42', 20);
    await activeTab().locator('.dirty-dot').waitFor();
    await activeTab().click();
    expect(await focusIsIn('[role=tablist]')).toBe(true);
    await page.keyboard.press('Control+S');
    await activeTab().locator('.dirty-dot').waitFor({ state: 'detached' });
    await until(async () => (await readFile(getAPetFile(), 'utf8')).includes('value: "42"'));

    expect(await focusIsIn('[role=tablist]')).toBe(true);
    await page.keyboard.press('Control+Alt+W');
    await strip().getByRole('tab', { name: /Get a pet/ }).waitFor({ state: 'detached' });
  });

  it('opens the palette from the tree', async () => {
    await tree(/List pets/).click();
    expect(await focusIsIn('[role=tree]')).toBe(true);
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('runs every command that has a key from the tree, the tab strip and the response pane', async () => {
    await closeDialogs();
    await showPets();
    await tree(/Get a pet/).dblclick();
    await page.keyboard.press('Control+Shift+P');
    const listed = await page
      .getByRole('dialog', { name: 'Command palette' })
      .getByRole('option')
      .evaluateAll((lis) => lis.map((li) => ({ id: (li as HTMLElement).dataset.command!, keys: li.querySelector('kbd')?.textContent ?? '' })));
    await page.keyboard.press('Escape');
    // The tree's own commands (Move up, Duplicate, Delete…) act only with the sidebar focused, by design: tree.test.ts presses them there.
    const bound = listed.filter((c) => c.keys && !c.id.startsWith('tree.'));
    expect(bound.map((c) => c.id)).toEqual(expect.arrayContaining(['file.save', 'request.send', 'tab.close', 'request.new', 'palette.toggle']));

    // Each key is pressed with a request tab active (sent once, so the response pane shows) and focus in `place`.
    const places: [string, string, () => Promise<void>][] = [
      ['the tree', '[role=tree]', () => tree(/Get a pet/).click()],
      ['the tab strip', '[role=tablist][aria-label="Open tabs"]', () => activeTab().click()],
      ['the response pane', '.response-pane', () => page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: /^Headers/ }).click()],
    ];
    for (const [where, selector, focus] of places) {
      for (const command of bound) {
        await closeDialogs();
        if ((await page.locator('.sidebar').count()) === 0) await page.keyboard.press('Control+B');
        await showPets();
        await tree(/Get a pet/).dblclick();
        if ((await page.getByTestId('status').count()) === 0) {
          await page.getByRole('button', { name: 'Send' }).click();
          await page.getByTestId('status').waitFor();
        }
        await focus();
        expect(await focusIsIn(selector), `focus in ${where}`).toBe(true);
        await page.evaluate(() => delete document.body.dataset.lastCommand);
        await page.keyboard.press(pressable(command.keys));
        await until(
          () => page.evaluate((id) => document.body.dataset.lastCommand === id, command.id),
          5_000,
          () => `${command.keys} from ${where} did not run ${command.id}`,
        );
      }
    }
  }, 180_000);

  it('leaves a key whose command does not apply to the focused element: Alt+Down in the body editor moves its line', async () => {
    await closeDialogs();
    await showPets();
    // Alt+Down is the tree's Move down, which acts only with the sidebar focused; elsewhere the key is the editor's.
    await tree(/Create a pet/).dblclick();
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Body/ }).click();
    const body = page.getByLabel('Body', { exact: true });
    await body.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('first', { delay: 15 });
    await page.keyboard.press('Enter');
    await page.keyboard.type('second', { delay: 15 });
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Alt+ArrowDown');
    await until(async () => (await codeText(body)) === 'second\nfirst', 5_000, () => 'Alt+Down did not move the line in the body editor');
  });
});
