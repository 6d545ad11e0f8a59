/**
 * Update definition… of a WSDL interface in real Chromium against `parley ui --demo`: a WSDL v1
 * imported from a file, one envelope edited and saved, the file replaced by v2 (an operation
 * added, one removed, an input element and an action changed, the endpoint moved), then the
 * preview (added, removed, changed with reasons, the endpoint, the kept edit) and Apply: the
 * new operation's request in the tree, the removed one badged orphaned, the edited envelope
 * kept, an unedited request's action updated; then a WSDL without the API's binding is refused
 * with a message naming it. Fixtures: test/fixtures/wsdl/parley/update.
 * Screenshots: test-results/screenshots/update-wsdl-*.
 */
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { repoRoot } from '../../processes/supervisor/paths.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();
const FIXTURES = join(repoRoot(), 'test', 'fixtures', 'wsdl', 'parley', 'update');
const STEP_MS = 30_000;

describe.skipIf(missing !== null)('Update definition of a WSDL interface', { timeout: 180_000 }, () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-update-wsdl-e2e-'));
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: STEP_MS }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Whether a saved request file of that name, in any API of the demo project, holds `text`. */
  const savedRequestHolds = async (name: string, text: string) => {
    const apis = join(app.home, 'demo-project', 'apis');
    const files = (await readdir(apis, { recursive: true })).filter((f) => f.endsWith(`/${name}.request.yaml`));
    const texts = await Promise.all(files.map((f) => readFile(join(apis, f), 'utf8')));
    return texts.some((t) => t.includes(text));
  };
  const showInTree = async (text: string) => {
    await page.getByLabel('Filter requests').fill(text);
    return page.getByRole('treeitem', { name: new RegExp(text) });
  };

  it('previews the WSDL’s changes, applies them, adds the new operation and keeps an edited envelope', async () => {
    const wsdl = join(work, 'calc.wsdl');
    await writeFile(wsdl, await readFile(join(FIXTURES, 'calc-v1.wsdl')));
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(wsdl);
    await dialog.getByRole('status', { name: 'Detected format' }).getByText('WSDL 1.1').waitFor();
    await dialog.getByLabel('Name override').fill('Calc service');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByRole('region', { name: 'Import summary' }).getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The user edits Divide's envelope and saves it.
    await (await showInTree('Divide')).first().click();
    const body = page.getByLabel('Body', { exact: true });
    await expect.poll(() => codeText(body)).toMatch(/<c:dividend>0<\/c:dividend>/);
    await body.fill((await codeText(body)).replace('<c:dividend>0</c:dividend>', '<c:dividend>84</c:dividend>'));
    await page.keyboard.press('Control+S');
    await until(() => savedRequestHolds('Divide', '<c:dividend>84'), STEP_MS, () => 'the edited Divide was not saved');

    // v2 is published in place of v1.
    await writeFile(join(work, 'calc-v2-types.xsd'), await readFile(join(FIXTURES, 'calc-v2-types.xsd')));
    await writeFile(wsdl, await readFile(join(FIXTURES, 'calc-v2.wsdl')));

    await page.getByLabel('Filter requests').fill('Calc service');
    await page.getByRole('treeitem', { name: 'Calc service', exact: true }).and(page.locator('.kind-api')).click();
    const definition = page.getByRole('region', { name: 'Definition' });
    await definition.getByText('CalcSoap11').waitFor();
    await definition.getByRole('button', { name: 'Update definition…' }).click();
    const update = page.getByRole('dialog', { name: 'Update definition of Calc service' });
    const changes = update.getByRole('region', { name: 'Definition changes' });
    await changes.waitFor();
    await expect(changes.getByRole('list', { name: 'Added operations' }).textContent()).resolves.toBe('+SOAP Modulo');
    await expect(changes.getByRole('list', { name: 'Removed operations' }).textContent()).resolves.toBe('−SOAP Subtract');
    const changed = changes.getByRole('list', { name: 'Changed operations' });
    await expect(changed.getByRole('listitem').nth(0).textContent()).resolves.toMatch(/SOAP Add\s*SOAP action/);
    await expect(changed.getByRole('listitem').nth(1).textContent()).resolves.toMatch(/SOAP Divide\s*input message/);
    await expect(changes.getByRole('list', { name: 'Kept edits' }).textContent()).resolves.toMatch(/Divide\s*of\s*SOAP Divide/);
    await expect(changes.getByLabel('API-wide changes').textContent()).resolves.toContain('endpoint http://127.0.0.1:8080/calc → http://127.0.0.1:8080/v2/calc');
    await expect(changes.textContent()).resolves.toContain('WSDL 1.1');
    await screenshot(page, 'update-wsdl-preview');

    await update.getByRole('button', { name: 'Apply' }).click();
    await page.locator('.toast').filter({ hasText: 'Definition updated: 1 added, 3 rewritten, 1 orphaned, 0 restored, 1 edited kept' }).waitFor();
    await update.waitFor({ state: 'detached' });

    // The new operation's request is in the tree; the removed one's is kept, badged orphaned.
    await (await showInTree('Modulo')).first().waitFor();
    await (await showInTree('Subtract')).filter({ hasText: 'orphaned' }).waitFor();
    await screenshot(page, 'update-wsdl-tree');

    // The edited envelope is kept; Add (not edited) follows the new action and endpoint.
    await (await showInTree('Divide')).first().click();
    await expect.poll(() => codeText(page.getByLabel('Body', { exact: true }))).toContain('<c:dividend>84</c:dividend>');
    await expect(codeText(page.getByLabel('Body', { exact: true }))).resolves.not.toContain('<c:scale>');
    await (await showInTree('Add')).first().click();
    const bar = page.getByLabel('SOAP operation');
    await expect.poll(() => bar.getByLabel('SOAPAction').inputValue()).toBe('urn:parley:calc:v2#Add');
    await expect(codeText(page.getByLabel('Endpoint'))).resolves.toBe('http://127.0.0.1:8080/v2/calc');
    await screenshot(page, 'update-wsdl-applied');

    // A WSDL that no longer has the API's binding: the dialog says which, and what the WSDL has.
    await writeFile(wsdl, (await readFile(join(FIXTURES, 'calc-v2.wsdl'), 'utf8')).replaceAll('CalcSoap11', 'CalcV3'));
    await page.getByLabel('Filter requests').fill('Calc service');
    await page.getByRole('treeitem', { name: 'Calc service', exact: true }).and(page.locator('.kind-api')).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Update definition…' }).click();
    const again = page.getByRole('dialog', { name: 'Update definition of Calc service' });
    await again.getByRole('alert').getByText(/no SOAP binding named CalcSoap11, which Calc service was imported from; it has CalcV3/).waitFor();
    await screenshot(page, 'update-wsdl-binding-gone');
    await again.getByRole('button', { name: 'Cancel' }).click();
    await again.waitFor({ state: 'detached' });
  });
});
