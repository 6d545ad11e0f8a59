/**
 * The REST client in real Chromium: build a request with path and query params and a JSON
 * body, send it to the demo API, look at every response tab.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, launchBrowser, screenshot } from '../support/browser.js';

const missing = chromiumMissing();

const responseTab = (page: Page, name: string) => page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: new RegExp(`^${name}`) });

describe.skipIf(missing !== null)('REST client', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    app = await startApp(['--demo']);
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(app.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('sends a request with a path parameter and shows the response, the contract chip and every tab', async () => {
    await page.getByRole('treeitem', { name: /Get a pet/ }).click();
    const url = page.getByLabel('URL', { exact: true });
    await expect(url.inputValue()).resolves.toBe('/pets/{petId}');
    await expect(page.getByLabel('Path parameter value of petId').inputValue()).resolves.toBe('1');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
    await expect(page.locator('.code-lines').textContent()).resolves.toContain('"Biscuit"');
    await page.locator('[data-verdict="pass"]').waitFor();
    await screenshot(page, 'request-get-pet');

    for (const tab of ['Headers', 'Cookies', 'Redirects', 'Timing', 'Raw']) {
      await responseTab(page, tab).click();
      await screenshot(page, `request-tab-${tab.toLowerCase()}`);
    }
    await expect(page.locator('.kv-table, .waterfall, .raw, .muted').first().isVisible()).resolves.toBe(true);
    await responseTab(page, 'Raw').click();
    await expect(page.locator('.raw').textContent()).resolves.toMatch(/GET \/pets\/1 HTTP\/1\.1[\s\S]*HTTP\/1\.1 200 OK/);
    await responseTab(page, 'Timing').click();
    await expect(page.locator('.wf-row').count()).resolves.toBe(7);
  });

  it('keeps the query string and the query rows in step, sends enabled rows only', async () => {
    await page.getByRole('treeitem', { name: /List pets/ }).click();
    const url = page.getByLabel('URL', { exact: true });
    await expect(url.inputValue()).resolves.toBe('/pets?limit=20');
    await url.fill('/pets?limit=2&tag=cat');
    await expect(page.getByLabel('Query parameter value of tag').inputValue()).resolves.toBe('cat');
    await page.getByLabel('Send limit').uncheck();
    await expect(url.inputValue()).resolves.toBe('/pets?tag=cat');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('status').waitFor();
    const body = await page.locator('.code-lines').textContent();
    expect(body).toContain('Pixel');
    expect(body).not.toContain('Biscuit');
    await screenshot(page, 'request-query-rows');
  });

  it('sends a JSON body, reports a body that does not parse instead of rewriting it', async () => {
    await page.getByRole('treeitem', { name: /Create a pet/ }).click();
    await page.getByRole('tab', { name: /^Body/ }).click();
    const body = page.getByLabel('Body', { exact: true });
    await body.fill('{"name": "Comet", "tag": "bird"');
    await page.getByRole('button', { name: 'Format' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('does not parse');
    await expect(body.inputValue()).resolves.toBe('{"name": "Comet", "tag": "bird"');
    await body.fill('{"name":"Comet","tag":"bird"}');
    await page.getByRole('button', { name: 'Format' }).click();
    await expect(body.inputValue()).resolves.toBe('{\n  "name": "Comet",\n  "tag": "bird"\n}');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('201');
    await expect(page.locator('.code-lines').textContent()).resolves.toContain('Comet');
    await screenshot(page, 'request-post-json');
  });

  it('refuses to send with an unresolved path parameter or expansion, and says which', async () => {
    await page.getByRole('treeitem', { name: /Get a pet/ }).click();
    await page.getByLabel('Path parameter value of petId').fill('');
    await page.getByLabel('URL', { exact: true }).fill('/pets/{petId}?key=${missingKey}');
    await page.getByRole('button', { name: 'Send' }).click();
    const alert = page.locator('.response-error');
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain('Not sent');
    expect(text).toContain('{petId}');
    expect(text).toContain('${missingKey}');
    await screenshot(page, 'request-refused');
  });
});
