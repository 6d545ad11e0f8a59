/**
 * A legacy SoapUI project in the app, in Chromium against `parley ui --demo`: the Import
 * dialog's File tab recognises the project (badge), the Legacy SOAP project format offers no
 * Paste tab and a pasted project is refused with a message naming the File tab; the import into
 * a new project named in New project name shows the counts (interfaces, requests, operations,
 * scripts), Things to look at and Notes; a saved request opens on its envelope.
 * Screenshots: test-results/screenshots/import-soapui-*.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { repoRoot } from '../../processes/supervisor/paths.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();
const STEP_MS = 30_000;
const FIXTURE = join(repoRoot(), 'test', 'fixtures', 'soapui', 'maven-plugin-tester', 'test-soapui-project.xml');

describe.skipIf(missing !== null)('SoapUI project import', { timeout: 180_000 }, () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let work: string;
  let file: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-soapui-e2e-'));
    file = join(work, 'maven-plugin-test-soapui-project.xml');
    await copyFile(FIXTURE, file);
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: STEP_MS }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('a pasted project is refused; the Legacy SOAP project format offers the File tab only', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('tab', { name: 'Paste' }).click();
    await dialog.getByLabel('Pasted document').fill(await readFile(FIXTURE, 'utf8'));
    await dialog.getByRole('status', { name: 'Detected format' }).getByText('Legacy SOAP project (SoapUI)').waitFor();
    await dialog.getByRole('radio', { name: 'A new project' }).check();
    await dialog.getByLabel('New project folder').fill(join(work, 'pasted'));
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog.getByRole('alert').textContent()).resolves.toMatch(/Legacy SOAP project cannot be imported from pasted text: use the File tab/);
    await screenshot(page, 'import-soapui-paste-refused');
    await dialog.getByLabel('Format', { exact: true }).selectOption('soapui');
    await expect(dialog.getByRole('tab', { name: 'Paste' }).count()).resolves.toBe(0);
    await expect(dialog.getByRole('tab', { name: 'URL' }).count()).resolves.toBe(0);
    await expect(dialog.getByRole('tab', { name: 'File' }).getAttribute('aria-selected')).resolves.toBe('true');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('imports a project file into a new project named in the dialog, shows the counts, and opens a saved request on its envelope', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByLabel('Format', { exact: true }).selectOption('auto');
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(file);
    const badge = dialog.getByRole('status', { name: 'Detected format' });
    await badge.getByText('Legacy SOAP project (SoapUI)').waitFor();
    await expect(badge.textContent()).resolves.toMatch(/by its file name/);
    await dialog.getByRole('group', { name: 'SoapUI project' }).getByText(/never run/).waitFor();
    await dialog.getByRole('radio', { name: 'A new project' }).check();
    await dialog.getByLabel('New project folder').fill(join(work, 'maven'));
    await expect(dialog.getByLabel('New project name').getAttribute('placeholder')).resolves.toMatch(/SoapUI project’s name/);
    await dialog.getByLabel('New project name').fill('Maven SOAP');
    await screenshot(page, 'import-soapui-dialog');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.getByText(/Into the new project Maven SOAP, now open in the sidebar/).waitFor();
    await expect(summary.getByRole('row', { name: /^Format/ }).textContent()).resolves.toMatch(/SoapUI project \(SoapUI 4\.6\.0\)/);
    await expect(summary.getByRole('row', { name: /^Interfaces/ }).textContent()).resolves.toMatch(/1$/);
    await expect(summary.getByRole('row', { name: /^Requests/ }).textContent()).resolves.toMatch(/9$/);
    await expect(summary.getByRole('row', { name: /^Operations/ }).textContent()).resolves.toMatch(/8$/);
    await expect(summary.getByRole('row', { name: /^Scripts kept/ }).textContent()).resolves.toMatch(/2$/);
    // The project's one property is counted once, as added; no second "Properties" line.
    await expect(summary.getByRole('row', { name: /^Project properties added/ }).textContent()).resolves.toMatch(/1$/);
    await expect(summary.getByRole('row', { name: /^Properties/ }).count()).resolves.toBe(0);
    // The mock service's row names the menu that makes a SOAP mock (checked below to exist).
    const mocks = summary.getByRole('region', { name: 'Not imported' }).getByRole('listitem').filter({ hasText: 'mock service' });
    await expect(mocks.textContent()).resolves.toMatch(/New Mock… on its row in the sidebar \(right-click\), on its API tab, or in the command palette/);
    await expect(summary.textContent()).resolves.not.toContain('Mocks > New mock');
    await summary.getByText('Things to look at').waitFor();
    await summary.getByText(/2 test suites \(3 test cases\)/).waitFor();
    await summary.getByText(/saved as text in imported-scripts/).waitFor();
    await summary.getByRole('button', { name: 'Copy report' }).waitFor();
    await screenshot(page, 'import-soapui-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('treeitem', { name: 'Maven SOAP', exact: true }).waitFor();
    await page.getByRole('treeitem', { name: /Service4TestPortBinding/ }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'New Mock…' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByLabel('Filter requests').fill('failed login');
    await page.getByRole('treeitem', { name: /failed login/ }).first().click();
    const bar = page.getByLabel('SOAP operation');
    await bar.waitFor();
    await expect(bar.textContent()).resolves.toMatch(/SOAP 1\.1\s*Service4TestPortBinding \/ login/);
    await expect(codeText(page.getByLabel('Body', { exact: true }))).resolves.toMatch(/<ws:login>/);
    await screenshot(page, 'import-soapui-request');
  });
});
