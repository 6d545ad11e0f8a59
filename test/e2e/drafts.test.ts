/**
 * Unsaved edits in real Chromium: every editor (API, Environments, Project, request) keeps its
 * draft across tab switches; closing or quitting with edits asks first; an open tab follows its
 * file when it changes on disk, and a tab with edits offers Reload / Keep mine instead.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { parseDocument } from 'yaml';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText, typeInto } from '../support/code-editor.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('unsaved edits', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  const project = () => join(app.home, 'demo-project');
  const getAPetFile = () => join(project(), 'apis', 'Pet Store', 'requests', 'pets', 'Get a pet.request.yaml');

  beforeAll(async () => {
    ({ app, browser, page } = await openUi(['--demo']));
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const tab = (name: string | RegExp) => page.getByRole('tablist', { name: 'Open tabs' }).getByRole('tab', { name });
  const dirty = (name: string | RegExp) => tab(name).locator('.dirty-dot');
  const palette = async (command: string) => {
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type(command);
    await page.keyboard.press('Enter');
  };

  it('keeps an edit in the API, Environments and Project editors across tab switches', async () => {
    await page.getByRole('treeitem', { name: 'Pet Store', exact: true }).dblclick();
    await typeInto(page.getByLabel('Base URL'), 'http://127.0.0.1:9/edited');
    await palette('Environments and globals');
    await page.getByRole('button', { name: '+ New environment' }).click();
    await page.getByRole('dialog', { name: 'New environment' }).getByRole('textbox').fill('Staging');
    await page.getByRole('dialog', { name: 'New environment' }).getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Variable name').last().fill('host');
    await page.getByRole('treeitem', { name: 'Demo', exact: true }).dblclick();
    await page.getByLabel('Property name').last().fill('region');
    await page.getByRole('treeitem', { name: /List pets/ }).dblclick();

    // Back to each: the edit is there and the tab says it is unsaved.
    await tab(/Pet Store/).click();
    await expect(codeText(page.getByLabel('Base URL'))).resolves.toBe('http://127.0.0.1:9/edited');
    await tab('Environments').click();
    await page.getByRole('option', { name: 'Staging' }).waitFor();
    await expect(page.getByLabel('Variable name').first().inputValue()).resolves.toBe('host');
    await tab(/^Demo/).click();
    await expect(page.getByLabel('Property name').first().inputValue()).resolves.toBe('region');
    for (const name of [/Pet Store/, 'Environments', /^Demo/]) await dirty(name).waitFor();
    await screenshot(page, 'drafts-kept');
  });

  it('asks Save / Don\'t save / Cancel when a tab with edits closes', async () => {
    await tab(/Pet Store/).getByRole('button', { name: /^Close/ }).click();
    const ask = page.getByRole('dialog', { name: 'Save changes to Pet Store?' });
    await ask.waitFor();
    await screenshot(page, 'drafts-close-asks');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await dirty(/Pet Store/).waitFor();
    await tab(/Pet Store/).getByRole('button', { name: /^Close/ }).click();
    await ask.getByRole('button', { name: "Don't save" }).click();
    await tab(/Pet Store/).waitFor({ state: 'detached' });
    await page.getByRole('treeitem', { name: 'Pet Store', exact: true }).dblclick();
    await expect(codeText(page.getByLabel('Base URL'))).resolves.not.toBe('http://127.0.0.1:9/edited');

    await tab('Environments').click();
    await page.keyboard.press('Control+Alt+W');
    await page.getByRole('dialog', { name: 'Save changes to Environments?' }).getByRole('button', { name: 'Save', exact: true }).click();
    await tab('Environments').waitFor({ state: 'detached' });
    await until(async () => (await readFile(join(app.home, 'workspace.yaml'), 'utf8')).includes('name: Staging'));

    await tab(/^Demo/).getByRole('button', { name: /^Close/ }).click();
    await page.getByRole('dialog', { name: /^Save changes to Demo/ }).getByRole('button', { name: 'Save', exact: true }).click();
    await until(async () => (await readFile(join(project(), 'parley.yaml'), 'utf8')).includes('region'));
  });

  it('asks before the page is left with an unsaved edit the session cannot bring back (a typed secret)', async () => {
    // Other edits come back with the session (session-restore.test.ts); a typed token never is kept there.
    await page.getByRole('treeitem', { name: /Get a pet/ }).dblclick();
    await typeInto(page.getByLabel('Path parameter value of petId'), '77');
    await dirty(/Get a pet/).waitFor();
    await page.getByRole('tab', { name: /^Auth/ }).click();
    await page.getByLabel('Auth type').selectOption('bearer');
    await page.getByLabel('Token', { exact: true }).fill('typed-token');
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    await expect(asked).resolves.toBe('beforeunload');
    expect(page.isClosed()).toBe(false);
    await page.getByLabel('Auth type').selectOption('inherit');
    await page.getByRole('tab', { name: /^Params/ }).click();
    await typeInto(page.getByLabel('Path parameter value of petId'), '1');
    await page.locator('.tabbar .dirty-dot').waitFor({ state: 'detached' });
  });

  it('follows a file changed on disk: a clean tab reloads, a tab with edits offers Reload or Keep mine', async () => {
    const url = page.getByLabel('URL', { exact: true });
    const rewrite = async (path: string) => {
      const doc = parseDocument(await readFile(getAPetFile(), 'utf8'));
      doc.set('url', path);
      await writeFile(getAPetFile(), doc.toString());
    };
    await page.getByRole('treeitem', { name: /Get a pet/ }).dblclick();
    await rewrite('/pets/{petId}/from-disk');
    await until(async () => (await codeText(url)) === '/pets/{petId}/from-disk');
    await expect(page.locator('.tabbar .dirty-dot').count()).resolves.toBe(0);

    // With an edit: the edit stays, the banner offers the file's version.
    await typeInto(url, '/pets/{petId}/mine');
    await rewrite('/pets/{petId}/disk-2');
    const banner = page.locator('.draft-banner');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toContain('Get a pet changed on disk');
    await expect(codeText(url)).resolves.toBe('/pets/{petId}/mine');
    await screenshot(page, 'drafts-changed-on-disk');
    await banner.getByRole('button', { name: 'Keep mine' }).click();
    await banner.waitFor({ state: 'detached' });
    await dirty(/Get a pet/).waitFor();
    await page.keyboard.press('Control+S');
    await until(async () => (await readFile(getAPetFile(), 'utf8')).includes('url: /pets/{petId}/mine'));

    await typeInto(url, '/pets/{petId}/mine-again');
    await rewrite('/pets/{petId}/disk-3');
    await banner.getByRole('button', { name: 'Reload' }).click();
    await until(async () => (await codeText(url)) === '/pets/{petId}/disk-3');
    await expect(page.locator('.tabbar .dirty-dot').count()).resolves.toBe(0);
  });

  it('after Apply of a definition update, an open tab shows the request as the update left it', async () => {
    const source = join(app.home, 'boxes-source', 'boxes.yaml');
    const doc = (withShelf: boolean) => `openapi: 3.0.3
info: { title: Boxes, version: 1.0.0 }
servers: [{ url: 'http://127.0.0.1:9' }]
paths:
  /boxes:
    get: { operationId: listBoxes, summary: List boxes, responses: { '200': { description: OK } } }
${withShelf ? "  /shelves:\n    get: { operationId: listShelves, summary: List shelves, responses: { '200': { description: OK } } }\n" : ''}`;
    await mkdir(join(app.home, 'boxes-source'), { recursive: true });
    await writeFile(source, doc(true));
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(source);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByRole('region', { name: 'Import summary' }).getByRole('button', { name: 'Close' }).click();

    await page.getByLabel('Filter requests').fill('List shelves');
    await page.getByRole('treeitem', { name: /List shelves/ }).dblclick();
    await page.getByLabel('Filter requests').fill('');
    const crumb = page.locator('.breadcrumb');
    await expect(crumb.textContent()).resolves.not.toContain('orphaned');

    await writeFile(source, doc(false));
    await page.getByRole('treeitem', { name: 'Boxes', exact: true }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Update definition…' }).click();
    const update = page.getByRole('dialog', { name: 'Update definition of Boxes' });
    await update.getByRole('region', { name: 'Definition changes' }).waitFor();
    await update.getByRole('button', { name: 'Apply' }).click();
    await update.waitFor({ state: 'detached' });
    // The open tab was clean: it shows the orphaned request without being opened again.
    await crumb.getByText('orphaned').waitFor();
    await expect(tab(/List shelves/).locator('.dirty-dot').count()).resolves.toBe(0);
    await screenshot(page, 'drafts-after-apply');
  }, 60_000);
});
