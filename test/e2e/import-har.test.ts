/**
 * The Import dialog with a HAR capture, in Chromium against `parley ui --demo`: pasted, recognised
 * (badge), with its options (Save as examples), imported into the open project; the report's
 * Things to look at (the Bearer token not carried across) and Notes (what was skipped); then a
 * request opened, with the examples it was given. Screenshots: test-results/screenshots/import-har-*.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();
const STEP_MS = 30_000;

const exchange = (url: string, status: number, extra: Record<string, unknown> = {}, mimeType = 'application/json', text = '{"items": []}') => ({
  startedDateTime: '2026-11-01T10:00:00.000Z',
  time: 20,
  request: { method: 'GET', url, httpVersion: 'HTTP/1.1', headers: [{ name: 'Authorization', value: 'Bearer recorded-token' }, { name: 'Accept', value: 'application/json' }], queryString: [], cookies: [], ...extra },
  response: { status, statusText: status === 200 ? 'OK' : 'Not Found', headers: [{ name: 'Content-Type', value: mimeType }], cookies: [], content: { size: text.length, mimeType, text } },
});
const CAPTURE = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'Firefox', version: '120' },
    entries: [
      exchange('https://shop.example.test/orders?page=1', 200),
      exchange('https://shop.example.test/orders?page=2', 404, {}, 'application/json', '{"error": "no page"}'),
      exchange('https://shop.example.test/logo.png', 200, {}, 'image/png', ''),
      exchange('https://auth.example.test/me', 200),
    ],
  },
});

describe.skipIf(missing !== null)('import dialog with a HAR capture', { timeout: 150_000 }, () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: STEP_MS }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('imports a pasted HAR, shows the report, and opens a request with its examples', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('tab', { name: 'Paste' }).click();
    await dialog.getByLabel('Pasted document').fill(CAPTURE);
    await dialog.getByRole('status', { name: 'Detected format' }).getByText('HAR 1.2').waitFor();
    // HAR's options, not OpenAPI's.
    await expect(dialog.getByLabel('Name override').count()).resolves.toBe(0);
    await expect(dialog.getByLabel('Include static assets').isChecked()).resolves.toBe(false);
    await dialog.getByLabel('Recorded responses').selectOption('examples');
    await dialog.getByText('Up to 5 responses per request, one per status code, credentials masked.').waitFor();
    await screenshot(page, 'import-har-options');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.getByRole('heading', { name: 'Imported shop.example.test' }).waitFor();
    await expect(summary.getByRole('row', { name: /^Format/ }).textContent()).resolves.toMatch(/HAR 1\.2/);
    await expect(summary.getByRole('row', { name: /^APIs/ }).textContent()).resolves.toMatch(/shop\.example\.test \(1\), auth\.example\.test \(1\)/);
    await summary.getByText('Things to look at').waitFor();
    await expect(summary.getByRole('region', { name: 'Warnings' }).textContent()).resolves.toMatch(/2 requests \(shop\.example\.test GET \/orders, auth\.example\.test GET \/me\): the recorded Bearer token was not imported/);
    await expect(summary.getByRole('region', { name: 'Notes' }).textContent()).resolves.toMatch(/Skipped 1 static asset/);
    await expect(summary.textContent()).resolves.not.toContain('recorded-token');
    await screenshot(page, 'import-har-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByLabel('Filter requests').fill('orders');
    await page.getByRole('treeitem', { name: /GET \/orders/ }).first().click();
    await expect.poll(() => codeText(page.getByLabel('URL').first())).toMatch(/^\/orders\?page=1$/);
    // The two recorded statuses became examples.
    await page.getByRole('button', { name: 'Examples (2)' }).waitFor();
    await screenshot(page, 'import-har-request');
  });

  // Issue 27 item 13: such an API never had a definition; "imported again with definitions cached" was wrong.
  it('says an API made from a capture has no definition to mock, on its tab and from New Mock…', async () => {
    await page.getByLabel('Filter requests').fill('');
    const api = page.getByRole('treeitem', { name: 'shop.example.test', exact: true });
    await api.click();
    const section = page.getByRole('region', { name: 'Mock service' });
    await section.scrollIntoViewIfNeeded();
    await expect(section.textContent()).resolves.toContain('No definition: a mock answers from an imported OpenAPI document or WSDL, and this API was not imported from one.');
    await expect(section.textContent()).resolves.not.toContain('imported again');
    await expect(section.getByRole('button', { name: 'New Mock…' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'import-har-no-definition');

    await api.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'New Mock…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Mock of shop.example.test' });
    await dialog.getByRole('button', { name: 'Create mock' }).click();
    await expect(dialog.getByRole('alert').textContent()).resolves.toMatch(/^No definition: a mock answers from an imported OpenAPI document or WSDL/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
