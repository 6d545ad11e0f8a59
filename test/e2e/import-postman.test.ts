/**
 * The Import dialog with Postman exports, in Chromium against `parley ui --demo`: a collection
 * by file into the open project (badge, report with Things to look at and Notes, Copy report,
 * open a request), and an environment export by paste into the workspace, where it is listed
 * and not made active. Screenshots go to test-results/screenshots/import-postman-*.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { repoRoot } from '../../processes/supervisor/paths.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi, loadApp } from '../support/ui-app.js';
import { childrenOf } from '../support/processes.js';
import { until } from '../support/until.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();
const FIXTURES = join(repoRoot(), 'test', 'fixtures', 'importers', 'postman');
const STEP_MS = 30_000;

describe.skipIf(missing !== null)('import dialog with Postman exports', { timeout: 150_000 }, () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: STEP_MS, permissions: ['clipboard-read', 'clipboard-write'], load: false }));
  });
  beforeEach(() => loadApp(page, app.url));
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const importDialog = () => page.getByRole('dialog', { name: 'Import' });

  it('imports a Postman collection by file, shows the report, copies it, and opens a request', async () => {
    await page.keyboard.press('Control+I');
    const dialog = importDialog();
    const formats = await dialog.getByLabel('Format').locator('option').allTextContents();
    expect(formats).toEqual(['Auto-detect', 'OpenAPI (with its predecessor Swagger)', 'Postman collection (v2.0, v2.1)', 'Postman environment export', 'Postman globals export', 'HAR (recorded traffic)', '.http file', 'HTTP client environment file', 'WSDL (SOAP)', 'Protocol Buffers (gRPC)', 'Legacy SOAP project']);
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(join(FIXTURES, 'bruno', 'postman-with-scripts.json'));
    await dialog.getByRole('status', { name: 'Detected format' }).getByText('Postman collection v2.1').waitFor();
    // The OpenAPI options are for OpenAPI only.
    await expect(dialog.getByLabel('Name override').count()).resolves.toBe(0);
    await screenshot(page, 'import-postman-detected');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.getByRole('heading', { name: 'Imported Scripts Collection' }).waitFor();
    await expect(summary.getByRole('row', { name: /^Format/ }).textContent()).resolves.toMatch(/Postman collection v2\.1/);
    await summary.getByText('Things to look at').waitFor();
    await expect(summary.getByRole('region', { name: 'Not imported' }).textContent()).resolves.toMatch(/Scripts are not carried across/);
    await screenshot(page, 'import-postman-summary');
    await summary.getByRole('button', { name: 'Copy report' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^Import \(Postman collection v2\.1\)[\s\S]*Things to look at[\s\S]*Pre-request script/);
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByLabel('Filter requests').fill('Login');
    await page.getByRole('treeitem', { name: /Login/ }).first().click();
    await expect.poll(() => codeText(page.getByLabel('URL').first())).toBe('https://example.com/login');
    await screenshot(page, 'import-postman-request');
  });

  it('imports an environment export by paste into the workspace, where it is listed and not active', async () => {
    await page.keyboard.press('Control+I');
    const dialog = importDialog();
    await dialog.getByRole('tab', { name: 'Paste' }).click();
    const text = JSON.stringify({ name: 'Postman Staging', values: [{ key: 'host', value: '{{base}}/v1', enabled: true }, { key: 'debug', value: '1', enabled: false }], _postman_variable_scope: 'environment' });
    await dialog.getByLabel('Pasted document').fill(text);
    await dialog.getByRole('status', { name: 'Detected format' }).getByText('Postman environment').waitFor();
    await dialog.getByText('Environments and globals go into the workspace; no project is needed.').waitFor();
    await expect(dialog.getByRole('radiogroup', { name: 'Into project' }).count()).resolves.toBe(0);
    await screenshot(page, 'import-postman-environment');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.getByText('Into the workspace: see the Environments tab.').waitFor();
    await expect(summary.getByRole('row', { name: /^Environment/ }).textContent()).resolves.toMatch(/Postman Staging: 2 variables \(not active\)/);
    await screenshot(page, 'import-postman-environment-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.keyboard.press('Control+Alt+E');
    await page.getByRole('listbox', { name: 'Environments' }).getByText('Postman Staging').waitFor();
    const active = await page.getByLabel('Active environment').first().evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
    expect(active).not.toContain('Postman Staging');
    await screenshot(page, 'import-postman-environments-tab');
  });

  it('says so in the dialog when the importer process is killed mid-import, changes nothing, and imports again', async () => {
    // Big enough that the import is still converting when the test sees its first progress.
    const file = join(app.home, 'killed.postman_collection.json');
    const item = (i: number) => ({ name: `Killed ${i}`, request: { method: 'GET', url: `https://example.test/items/${i}?q=${'x'.repeat(200)}` } });
    await writeFile(file, JSON.stringify({ info: { name: 'Killed Collection', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: Array.from({ length: 5_000 }, (_, i) => item(i)) }));
    await page.keyboard.press('Control+I');
    const dialog = importDialog();
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(file);
    await dialog.getByRole('status', { name: 'Detected format' }).getByText('Postman collection v2.1').waitFor();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByRole('status', { name: 'Import progress' }).getByText(/Converted \d+ requests/).waitFor();
    const importer = await until(async () => (await childrenOf(app.child.pid!, 'importer.js'))[0], STEP_MS);
    process.kill(importer, 'SIGKILL');

    const error = dialog.getByRole('alert');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe('The importer process was stopped by SIGKILL. The import did not finish; nothing was changed.');
    await screenshot(page, 'import-postman-importer-killed');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.getByRole('treeitem', { name: /Killed Collection/ }).count()).resolves.toBe(0);

    // A new importer serves the next import.
    await page.keyboard.press('Control+I');
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(join(FIXTURES, 'bruno', 'postman-with-scripts.json'));
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByRole('region', { name: 'Import summary' }).getByRole('heading', { name: 'Imported Scripts Collection' }).waitFor();
  });
});
