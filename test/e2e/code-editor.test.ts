/**
 * The code editor (CodeMirror 6) as a person uses it, in Chromium: a body typed key by key with
 * highlighting, line numbers and brackets closed; a parse error marked at its line and named with
 * its column; Format keeping every `${...}`; one toast however often Format fails; search and
 * replace with Ctrl+F; soft wrap kept across a reload; what Save writes to disk; a 10 MB response
 * opened, searched and scrolled to its end.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, expandTree } from '../support/browser.js';
import { loadApp, openUi, type UiUnderTest } from '../support/ui-app.js';
import { codeText, typeInto } from '../support/code-editor.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('code editor', () => {
  let ui: UiUnderTest;
  let page: Page;
  let server: Server;
  let bigUrl = '';
  const items = 120_000;

  beforeAll(async () => {
    // A 10 MB JSON array, the last item recognisable.
    const big = Buffer.from(JSON.stringify(Array.from({ length: items }, (_, i) => ({ id: i, name: `item number ${i}`, tags: ['alpha', 'beta'], price: i / 100 }))));
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': big.length }).end(big));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    bigUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big`;
    ui = await openUi(['--demo'], { stepMs: 15_000 });
    page = ui.page;
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
  });
  afterAll(async () => {
    await ui?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  const body = () => page.getByLabel('Body', { exact: true });

  it('types a JSON body key by key: highlighted, numbered, brackets closed, expansions kept by Format, saved to disk', async () => {
    await page.getByRole('treeitem', { name: /Create a pet/ }).click();
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Body/ }).click();
    await body().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // Brackets and quotes close themselves; typing the closing one steps over it.
    await page.keyboard.type('{"name": "${petName}", "n": ${count}}', { delay: 15 });
    await expect(codeText(body())).resolves.toBe('{"name": "${petName}", "n": ${count}}');
    // Highlighted: the property name and the string are tokens of their own.
    await until(async () => (await body().locator('span').count()) >= 2, 5_000, () => 'the JSON was not highlighted');
    await expect(page.locator('.body-code .cm-lineNumbers').textContent()).resolves.toContain('1');

    await page.keyboard.press('Shift+Alt+F');
    await expect(codeText(body())).resolves.toBe('{\n  "name": "${petName}",\n  "n": ${count}\n}');
    await screenshot(page, 'code-editor-formatted');

    await page.keyboard.press('Control+S');
    const file = join(ui.app.home, 'demo-project', 'apis', 'Pet Store', 'requests', 'pets', 'Create a pet.request.yaml');
    await until(async () => (await readFile(file, 'utf8')).includes('${petName}'), 10_000, () => 'Save did not write the body');
  });

  it('marks a parse error at its line, names its column, and keeps one toast however often Format fails', async () => {
    await body().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // Typed as a person would, Enter indenting the next line.
    await page.keyboard.type('{"a": 1,', { delay: 15 });
    await page.keyboard.press('Enter');
    await page.keyboard.type('"b": ', { delay: 15 });
    const typed = await codeText(body());
    expect(typed).toMatch(/^\{"a": 1,\n\s*"b": \}$/);
    const column = typed.split('\n')[1]!.indexOf('}') + 1;
    await until(async () => (await page.locator('.body-code .cm-lint-marker-error').count()) === 1, 5_000, () => 'the error was not marked in the gutter');
    await until(async () => (await page.locator('.body-code .cm-lintRange-error').count()) === 1, 5_000, () => 'the error was not underlined');

    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Alt+F');
    const toasts = page.locator('.toast');
    let seen = 0;
    await until(async () => (seen = await toasts.count()) === 1, 5_000, () => `expected one toast, saw ${seen}`);
    await expect(toasts.textContent()).resolves.toContain(`A value is expected (line 2, column ${column})`);
    await expect(codeText(body())).resolves.toBe(typed); // left as it was
    await screenshot(page, 'code-editor-parse-error');

    // Fixed, it formats, and the toast about it goes.
    await page.keyboard.type('2', { delay: 15 });
    await page.keyboard.press('Shift+Alt+F');
    await expect(codeText(body())).resolves.toBe('{\n  "a": 1,\n  "b": 2\n}');
    await until(async () => (await toasts.count()) === 0, 5_000, () => 'the format toast stayed after the body formatted');
  });

  it('finds and replaces with Ctrl+F, and soft wrap stays on across a reload', async () => {
    await body().click();
    await page.keyboard.press('Control+F');
    const find = page.getByRole('textbox', { name: 'Find' });
    await find.waitFor();
    await page.keyboard.type('"b"', { delay: 15 });
    await page.getByRole('textbox', { name: 'Replace' }).click();
    await page.keyboard.type('"beta"', { delay: 15 });
    await page.getByRole('button', { name: 'replace all' }).click();
    await expect(codeText(body())).resolves.toBe('{\n  "a": 1,\n  "beta": 2\n}');
    await screenshot(page, 'code-editor-search');
    await page.keyboard.press('Escape');

    const wrap = page.locator('.body-editor').getByRole('button', { name: 'Wrap' });
    await expect(wrap.getAttribute('aria-pressed')).resolves.toBe('false');
    await wrap.click();
    await until(async () => (await page.locator('.body-code .cm-lineWrapping').count()) === 1, 5_000, () => 'Wrap did not wrap the lines');
    await until(async () => (await readFile(join(ui.app.home, 'workspace.yaml'), 'utf8')).includes('wrapLines: true'), 10_000, () => 'the choice was not kept');
    await page.keyboard.press('Control+S');
    await loadApp(page, ui.app.url);
    await expandTree(page, /Pet Store/, 'pets');
    await page.getByRole('treeitem', { name: /Create a pet/ }).click();
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Body/ }).click();
    await until(async () => (await page.locator('.body-code .cm-lineWrapping').count()) === 1, 10_000, () => 'Wrap was off after a reload');
    await page.locator('.body-editor').getByRole('button', { name: 'Wrap' }).click();
    await until(async () => (await page.locator('.body-code .cm-lineWrapping').count()) === 0, 5_000, () => 'Wrap did not turn off');
  });

  it('opens a 10 MB JSON response, finds in it and scrolls to its last line', async () => {
    await page.getByRole('treeitem', { name: /List pets/ }).click();
    const url = page.getByLabel('URL', { exact: true });
    await typeInto(url, bigUrl);
    await page.keyboard.press('Control+Enter');
    const viewer = page.getByLabel('Response body');
    await until(async () => (await viewer.count()) === 1, 60_000, () => 'the response body did not open');
    const text = await codeText(viewer);
    expect(text.length).toBeGreaterThan(10_000_000);
    // Only the lines in view are drawn, not the million of the document.
    expect(await viewer.locator('.cm-line').count()).toBeLessThan(500);
    await viewer.click();
    await page.keyboard.press('Control+End');
    await until(async () => (await viewer.textContent())?.includes(`item number ${items - 1}`), 10_000, () => 'the last item was not drawn after Ctrl+End');
    await page.keyboard.press('Control+F');
    await page.getByRole('textbox', { name: 'Find' }).waitFor();
    await page.keyboard.type('item number 4242"', { delay: 10 });
    await page.keyboard.press('Enter');
    await until(async () => (await viewer.textContent())?.includes('item number 4242"'), 10_000, () => 'the search did not bring its match into view');
    await screenshot(page, 'code-editor-big-response');
  }, 120_000);
});
