/**
 * History, recorded examples, Compare, Copy as cURL and Import cURL in real Chromium against the
 * real app and its demo API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { keyringMissing } from '../support/keyring.js';
import { codeText, typeInto } from '../support/code-editor.js';

const missing = chromiumMissing();
const noKeyring = await keyringMissing();

const responseTab = (page: Page, name: string) => page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: new RegExp(`^${name}`) });

describe.skipIf(missing !== null)('History, examples, Compare and cURL', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // Deleting an example or clearing History asks first: the tests say yes.
    ({ app, browser, page } = await openUi(['--demo'], { permissions: ['clipboard-read', 'clipboard-write'], acceptDialogs: true }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Opens a demo request, unfolding the tree when a reload folded it. */
  async function openRequest(name: RegExp): Promise<void> {
    const folder = page.getByRole('treeitem', { name: 'pets', exact: true });
    if (!(await folder.isVisible())) await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    const item = page.getByRole('treeitem', { name });
    if (!(await item.isVisible())) await folder.click();
    await item.dblclick();
  }

  async function send(): Promise<void> {
    const before = await page.getByTestId('status').count();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    if (before > 0) await page.locator('.sending').waitFor({ state: 'detached' });
    await page.getByTestId('status').waitFor();
  }

  it('saves a response as an example, shows it read-only under its banner, closes it and deletes it', async () => {
    await openRequest(/Get a pet/);
    await send();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
    await expect(page.getByRole('button', { name: /^Examples \(/ }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Save as example' }).click();
    await page.getByRole('button', { name: 'Examples (1)' }).waitFor();
    await expect(page.locator('.toast').last().textContent()).resolves.toContain('Saved 200 OK as an example');
    // Kept with the project: a fresh editor of the request has it before any send.
    await page.getByRole('button', { name: 'Close Get a pet' }).click();
    await openRequest(/Get a pet/);
    await page.getByRole('button', { name: 'Examples (1)' }).waitFor();
    await expect(page.getByTestId('status').count()).resolves.toBe(0);
    await screenshot(page, 'history-examples-before-send');
    await send();

    await page.getByRole('button', { name: 'Examples (1)' }).click();
    const item = page.getByRole('menuitem', { name: /^200 OK · / });
    await item.waitFor();
    await screenshot(page, 'history-examples-menu');
    await item.click();
    const banner = page.getByRole('note');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toContain('Recorded example, not a live response.');
    await expect(page.getByTestId('example-status').textContent()).resolves.toBe('200 OK');
    await expect(codeText(page.getByLabel('Response body'))).resolves.toContain('"Biscuit"');
    await screenshot(page, 'history-example-body');
    const exampleViews = page.getByRole('tablist', { name: 'Example views' });
    await expect(exampleViews.getByRole('tab').allTextContents()).resolves.toEqual(['Body', expect.stringMatching(/^Headers \(\d+\)$/)]);
    await exampleViews.getByRole('tab', { name: /^Headers/ }).click();
    await expect(page.locator('.kv-table').textContent()).resolves.toMatch(/content-type/i);
    await screenshot(page, 'history-example-headers');

    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await banner.waitFor({ state: 'detached' });
    await page.getByTestId('status').waitFor();
    await expect(page.getByRole('tablist', { name: 'Response views' }).isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Examples (1)' }).click();
    await page.getByRole('menuitem', { name: /^200 OK · / }).click();
    await page.getByRole('button', { name: 'Delete example' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Examples \(/ }).waitFor({ state: 'detached' });
  });

  it('lists sends in the request’s History, compares two side by side, and re-sends one', async () => {
    await openRequest(/List pets/);
    const url = page.getByLabel('URL', { exact: true });
    await typeInto(url, '/pets?limit=1');
    await send();
    await typeInto(url, '/pets?limit=3');
    await send();
    await responseTab(page, 'History').click();
    const list = page.getByRole('list', { name: 'History' });
    await list.waitFor();
    await expect(list.getByRole('listitem').count()).resolves.toBeGreaterThanOrEqual(2);
    await expect(list.getByRole('listitem').first().textContent()).resolves.toContain('limit=3');
    await screenshot(page, 'history-request-list');

    const picks = list.getByRole('checkbox');
    await picks.nth(0).check();
    await picks.nth(1).check();
    await page.getByRole('button', { name: 'Compare (2/2)' }).click();
    const compare = page.locator('.compare');
    await compare.waitFor();
    await expect(compare.locator('.compare-summary').textContent()).resolves.toMatch(/\d+ differences?/);
    const urlSection = compare.getByRole('region', { name: 'Method and URL' });
    await expect(urlSection.locator('.diff-change .left').textContent()).resolves.toContain('limit=1');
    await expect(urlSection.locator('.diff-change .right').textContent()).resolves.toContain('limit=3');
    const body = compare.getByRole('region', { name: 'Body (compared as JSON)' }).last();
    await expect(body.locator('.diff-add').count()).resolves.toBeGreaterThan(0);
    await screenshot(page, 'history-compare');

    // Back to the request: re-send the older entry; its response replaces the live one.
    await openRequest(/List pets/);
    await responseTab(page, 'History').click();
    const older = list.getByRole('listitem').filter({ hasText: 'limit=1' }).first();
    await older.getByRole('button', { expanded: false }).click();
    await older.getByRole('region', { name: 'Recorded request' }).waitFor();
    await expect(older.getByRole('region', { name: 'Recorded response' }).textContent()).resolves.toContain('200 OK');
    await screenshot(page, 'history-entry-open');
    await older.getByRole('button', { name: 'Re-send' }).click();
    await page.locator('.toast', { hasText: 'Re-sent this entry through the request.' }).waitFor();
    await responseTab(page, 'Raw').click();
    await expect(codeText(page.getByLabel('Raw exchange'))).resolves.toContain('GET /pets?limit=1');
  });

  it('shows every send of the project in the History view, searched by URL, method, status and chip', async () => {
    await page.keyboard.press('Control+Shift+H');
    const view = page.locator('.history-editor');
    await view.waitFor();
    const rows = view.getByRole('list', { name: 'History' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    await expect(view.locator('.history-name').allTextContents()).resolves.toEqual(expect.arrayContaining(['Get a pet', 'List pets']));
    await view.getByLabel('Search History').fill('pets/1');
    // The two sends of Get a pet (before and after its example was saved).
    await expect.poll(() => rows.count()).toBe(2);
    await expect(view.locator('.history-url').allTextContents()).resolves.toEqual([expect.stringContaining('/pets/1'), expect.stringContaining('/pets/1')]);
    await view.getByLabel('Search History').fill('');
    await view.getByLabel('Contract chip').selectOption('pass');
    await expect.poll(async () => (await view.locator('.chip').allTextContents()).every((t) => t === 'Contract ✓')).toBe(true);
    await view.getByLabel('Status').selectOption('4xx');
    await view.getByText('No sends match.').waitFor();
    await view.getByLabel('Status').selectOption('');
    await view.getByLabel('Contract chip').selectOption('');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    await screenshot(page, 'history-view');
  });

  it('sets how many entries History keeps per project in Preferences', async () => {
    const palette = async (command: string) => {
      await page.keyboard.press('Control+Shift+P');
      await page.getByRole('dialog', { name: 'Command palette' }).getByRole('textbox').fill(command);
      await page.keyboard.press('Enter');
    };
    await palette('Preferences');
    const limit = page.getByLabel('History entries kept per project');
    await expect(limit.inputValue()).resolves.toBe('500');
    await limit.fill('250');
    await limit.press('Tab');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await palette('Preferences');
    await expect.poll(() => page.getByLabel('History entries kept per project').inputValue()).toBe('250');
    await screenshot(page, 'history-preferences-limit');
  });

  it('copies a request as cURL', async () => {
    await openRequest(/Get a pet/);
    await page.getByRole('tab', { name: /^Headers/ }).first().click();
    await page.getByRole('button', { name: 'cURL', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Copy as cURL…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy as cURL' });
    const command = dialog.getByLabel('curl command');
    await expect.poll(() => command.inputValue()).toMatch(/^curl /);
    const text = await command.inputValue();
    expect(text).toMatch(/\/pets\/1/);
    expect(text).toContain("-H 'Accept: application/json'");
    await screenshot(page, 'history-copy-curl');
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(text);
  });

  // Import moves the password to the keychain: a real Secret Service (scripts/with-keyring) is needed.
  it.skipIf(noKeyring !== null)('imports a curl command with a live preview, opens it, names what it ignored, and copies it back with the secret masked until shown', async () => {
    await page.getByRole('treeitem', { name: /Pet Store/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Import cURL…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import cURL' });
    await expect(dialog.getByLabel('Import into').locator('option:checked').textContent()).resolves.toBe('Pet Store');
    const secret = 'pw-never-shown-42';
    await dialog
      .getByLabel('curl command')
      .fill(`curl -k -L --retry 3 -u bob:${secret} -H 'X-Trace: trace-value-9' -H 'Content-Type: application/json' -d '{"name":"Comet"}' ${app.demoUrl}/pets`);
    const preview = dialog.getByLabel('Preview');
    await preview.waitFor();
    const shown = (await preview.textContent()) ?? '';
    expect(shown).toContain('POST');
    expect(shown).toContain(`${app.demoUrl}/pets`);
    expect(shown).toContain('X-Trace');
    expect(shown).toContain('raw JSON');
    expect(shown).toContain('bob');
    expect(shown).toContain('-k, -L, --retry');
    expect(shown).not.toContain(secret);
    expect(shown).not.toContain('trace-value-9');
    await screenshot(page, 'history-import-curl');
    await dialog.getByLabel('Request name').fill('Create Comet');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.locator('.toast', { hasText: 'Imported Create Comet' }).textContent()).resolves.toContain('Ignored: -k, -L, --retry');
    await expect(page.getByLabel('Request name').or(page.locator('.crumb-name')).first().textContent()).resolves.toContain('Create Comet');
    await expect(codeText(page.getByLabel('URL', { exact: true }))).resolves.toBe(`${app.demoUrl}/pets`);
    await send();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('201');

    await page.getByRole('button', { name: 'cURL', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Copy as cURL…' }).click();
    const copy = page.getByRole('dialog', { name: 'Copy as cURL' });
    const command = copy.getByLabel('curl command');
    await expect.poll(() => command.inputValue()).toContain("-u 'bob:${secret:request/");
    expect(await command.inputValue()).not.toContain(secret);
    await copy.getByLabel('Show secrets').check();
    await expect.poll(() => command.inputValue()).toContain(`-u bob:${secret} `);
    expect(await command.inputValue()).toContain(`--data-raw '{"name":"Comet"}'`);
    await screenshot(page, 'history-copy-curl-secrets');
    await page.keyboard.press('Escape');
    await copy.waitFor({ state: 'detached' });
  });
});
