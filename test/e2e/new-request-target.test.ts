/**
 * New request asks where it goes (issue 27, item 7), in real Chromium: Ctrl+Alt+N with a request
 * of the second API active opens the dialog aimed at that request's API and folder, and the
 * request lands there (tree and disk); another target picked in the dialog is where it lands; a
 * folder selected in the sidebar is the default; Import cURL shows the same picker and default.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('New request asks where it goes', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let project: string;
  const requestsOf = (api: string, folder = '') => readdir(join(project, 'apis', api, 'requests', folder)).catch(() => [] as string[]);

  beforeAll(async () => {
    project = join(await mkdtemp(join(tmpdir(), 'parley-new-request-e2e-')), 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Targets' });
    const alpha = await store.createApi({ name: 'Alpha', baseUrl: 'http://127.0.0.1:9/a' });
    const beta = await store.createApi({ name: 'Beta', baseUrl: 'http://127.0.0.1:9/b' });
    await store.createRequest({ parent: `${alpha.id}/one`, name: 'Alpha req', method: 'GET', url: '/a' });
    await store.createRequest({ parent: `${beta.id}/inner`, name: 'Beta req', method: 'GET', url: '/b' });
    await store.close();
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const tree = (name: RegExp) => page.getByRole('treeitem', { name });
  const dialog = () => page.getByRole('dialog', { name: 'New request' });
  const into = () => dialog().getByRole('combobox', { name: 'Into' });
  const chosenLabel = (select: ReturnType<Page['getByRole']>) => select.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
  const create = async (name: string) => {
    await dialog().getByRole('textbox', { name: 'Name' }).pressSequentially(name, { delay: 15 });
    await dialog().getByRole('button', { name: 'Create request' }).click();
    await dialog().waitFor({ state: 'detached' });
    await page.getByRole('tablist', { name: 'Open tabs' }).getByRole('tab', { name: new RegExp(name) }).waitFor();
  };

  it('defaults to the API and folder of the active tab (a request of the second API), and the request lands there', async () => {
    await tree(/^Beta$/).click();
    await tree(/^inner$/).click();
    await tree(/Beta req/).click();
    await page.getByRole('tablist', { name: 'Open tabs' }).getByRole('tab', { name: /Beta req/ }).waitFor();
    await page.keyboard.press('Control+Alt+N');
    await dialog().waitFor();
    await expect(chosenLabel(into())).resolves.toBe('Beta / inner');
    await expect(into().locator('option').allTextContents()).resolves.toEqual(['Alpha', 'Alpha / one', 'Beta', 'Beta / inner']);
    await screenshot(page, 'new-request-target');
    await create('Made here');
    await until(async () => (await requestsOf('Beta', 'inner')).includes('Made here.request.yaml'));
    expect(parseYaml(await readFile(join(project, 'apis', 'Beta', 'requests', 'inner', 'Made here.request.yaml'), 'utf8'))).toMatchObject({ name: 'Made here', method: 'GET' });
    // In the tree under Beta / inner, selected, as the active tab.
    const row = tree(/Made here/);
    await row.waitFor();
    await expect(row.getAttribute('data-key')).resolves.toMatch(/::r_/);
    const rows = await page.locator('.tree-row').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name));
    expect(rows.indexOf('Made here')).toBeGreaterThan(rows.indexOf('inner'));
    expect(rows.indexOf('Made here')).toBeGreaterThan(rows.indexOf('Beta'));
  });

  it('puts the request where the picker says when the user changes it', async () => {
    await page.keyboard.press('Control+Alt+N');
    await dialog().waitFor();
    await expect(chosenLabel(into())).resolves.toBe('Beta / inner');
    await into().selectOption({ label: 'Alpha' });
    await create('Made in Alpha');
    await until(async () => (await requestsOf('Alpha')).includes('Made in Alpha.request.yaml'));
    expect(await requestsOf('Beta', 'inner')).not.toContain('Made in Alpha.request.yaml');
    await tree(/Made in Alpha/).waitFor();
  });

  it('defaults to a folder selected in the sidebar, and Import cURL shows the same picker and default', async () => {
    await tree(/^Alpha$/).click();
    if ((await tree(/^one$/).count()) === 0) await tree(/^Alpha$/).click();
    await tree(/^one$/).click();
    await page.keyboard.press('Control+Alt+N');
    await dialog().waitFor();
    await expect(chosenLabel(into())).resolves.toBe('Alpha / one');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });

    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Import cURL');
    await page.keyboard.press('Enter');
    const curl = page.getByRole('dialog', { name: 'Import cURL' });
    await curl.waitFor();
    await expect(chosenLabel(curl.getByRole('combobox', { name: 'Import into' }))).resolves.toBe('Alpha / one');
    await page.keyboard.press('Escape');
  });
});
