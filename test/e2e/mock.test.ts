/**
 * Mocks in real Chromium: New Mock… on the demo API, Start, call it from a request, watch the log
 * entry arrive, make a response a template by editing its files on disk and see it served, and
 * see the dispatch.ts editor's diagnostics. Screenshots go to test-results/screenshots/mock-*.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { parseDocument } from 'yaml';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText, typeInto } from '../support/code-editor.js';
import { busCaller } from '../support/ui-calls.js';
import { LOG_PAGE_ENTRIES } from '../../protocol/mock-log-bounds.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('mock services', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let mockUrl = '';

  beforeAll(async () => {
    ({ app, browser, page } = await openUi(['--demo']));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const mockTab = () => page.getByRole('tab', { name: /Pet Store mock/ });
  const operation = (path: RegExp) => page.getByRole('listbox', { name: 'Operations' }).getByRole('option', { name: path });

  it('makes a mock from the demo API with New Mock… and starts it', async () => {
    await page.getByRole('treeitem', { name: /Pet Store/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'New Mock…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Mock of Pet Store' });
    await expect(dialog.getByRole('textbox').inputValue()).resolves.toBe('Pet Store mock');
    await dialog.getByRole('button', { name: 'Create mock' }).click();
    await page.getByRole('listbox', { name: 'Operations' }).waitFor();
    await expect(page.getByTestId('mock-state').textContent()).resolves.toContain('Stopped');
    await expect(page.getByRole('treeitem', { name: 'Pet Store mock' }).count()).resolves.toBe(1);
    // A REST mock refuses with a 400 problem (a SOAP mock's choice names its fault: mock-soap.test.ts).
    await expect(page.getByLabel('Contract check').locator('option[value=refuse]').textContent()).resolves.toBe('Refuse requests that break the contract (400)');
    await screenshot(page, 'mock-new');

    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByTestId('mock-url').waitFor();
    mockUrl = (await page.getByTestId('mock-url').textContent())!.trim();
    expect(mockUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(page.getByTestId('mock-state').textContent()).resolves.toContain('Running');
    await operation(/getPet/).click();
    await screenshot(page, 'mock-running');
  });

  it('answers a request sent from Parley, and the log shows it', async () => {
    await page.getByRole('treeitem', { name: 'Pet Store', exact: true }).click();
    const section = page.getByRole('region', { name: 'Mock service' });
    await section.getByRole('button', { name: 'Pet Store mock' }).waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'mock-api-section');
    await page.getByRole('treeitem', { name: 'pets', exact: true }).click();
    await page.getByRole('treeitem', { name: /Get a pet/ }).click();
    // Typed over key by key, the URL loses {petId} on the way, and with it the parameter's value.
    await typeInto(page.getByLabel('URL', { exact: true }), `${mockUrl}/pets/{petId}`);
    await typeInto(page.getByLabel('Path parameter value of petId'), '1');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
    await mockTab().click();
    const row = page.getByRole('table', { name: 'Mock log' }).getByRole('row', { name: /GET \/pets\/1/ });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/getPet.*Default.*200/);
    await row.click();
    await page.getByRole('complementary', { name: 'Log entry' }).waitFor();
    await screenshot(page, 'mock-log');
  });

  it('serves a response made a template by editing its files on disk', async () => {
    const dir = join(app.home, 'demo-project', 'mocks', 'Pet Store mock', 'operations', 'getPet');
    await writeFile(join(dir, 'Default.body.json'), '{\n  "id": 1,\n  "name": "Pet number {{petId}}",\n  "tag": "{{tag}}"\n}\n');
    const file = join(dir, 'Default.response.yaml');
    const doc = parseDocument(await readFile(file, 'utf8'));
    doc.set('version', 2);
    doc.set('values', { petId: { from: 'path', name: 'petId' }, tag: { from: 'query', name: 'tag' } });
    await writeFile(file, doc.toString());

    // The open tab follows the files: the response now shows as a template, values read-only.
    const values = page.getByRole('region', { name: 'Template values' });
    await values.waitFor();
    await expect(values.textContent()).resolves.toContain('unavailable: edit the response file directly');
    await values.scrollIntoViewIfNeeded();
    await screenshot(page, 'mock-template');

    await page.getByRole('treeitem', { name: /Get a pet/ }).click();
    await typeInto(page.getByLabel('URL', { exact: true }), `${mockUrl}/pets/{petId}?tag=fluffy`);
    await typeInto(page.getByLabel('Path parameter value of petId'), '42');
    await page.getByRole('button', { name: 'Send' }).click();
    await until(async () => (await codeText(page.getByLabel('Response body'))).includes('Pet number 42'), 15_000, () => 'the mock did not answer with its template filled');
    await expect(codeText(page.getByLabel('Response body'))).resolves.toContain('fluffy');
    await screenshot(page, 'mock-template-served');
  });

  it('checks dispatch.ts as it is typed and lists stubs the contract does not allow', async () => {
    await mockTab().click();
    await operation(/listPets/).click();
    await page.getByRole('radio', { name: 'By script' }).click();
    const script = page.getByRole('textbox', { name: 'Dispatch script' });
    await script.fill("const n = request.qurey['limit'];\nrespond('Nope');\n");
    await page.getByRole('list', { name: 'Script problems' }).waitFor();
    const problems = await page.getByRole('list', { name: 'Script problems' }).textContent();
    expect(problems).toMatch(/qurey/);
    expect(problems).toMatch(/Nope/);
    await screenshot(page, 'mock-script-diagnostics');

    await page.getByRole('radio', { name: 'In order' }).click();
    await page.getByLabel('Status', { exact: true }).fill('418');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('tab', { name: /Against the contract/ }).click();
    await page.locator('.findings-list li').filter({ hasText: 'undocumented-status' }).waitFor();
    await screenshot(page, 'mock-findings');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.getByRole('tab', { name: /^Log/ }).click();
    await page.getByRole('table', { name: 'Mock log' }).getByRole('row').nth(1).click();
    await screenshot(page, 'mock-dark');
   // The first diagnostics load the TypeScript compiler: 10-20 s alone on a loaded 2-core machine.
  }, 90_000);

  it('opens a long log at its newest page and loads older entries when asked', async () => {
    // 260 requests while the tab is closed: opened again, it reads the newest page of the log, then the rest on request.
    await mockTab().getByRole('button', { name: /^Close/ }).click();
    await until(async () => (await mockTab().count()) === 0);
    for (let i = 0; i < 260; i++) await (await fetch(`${mockUrl}/pets/${1000 + i}`)).arrayBuffer();
    const bus = await busCaller(app.url);
    try {
      await until(async () => (await bus.call('mocks.log', { project: join(app.home, 'demo-project'), id: 'm:Pet Store mock' })).entries.some((e) => e.path === '/pets/1259'), 20_000);
    } finally {
      bus.close();
    }
    await page.getByRole('treeitem', { name: 'Pet Store mock' }).click();
    const rows = page.getByRole('table', { name: 'Mock log' }).locator('tbody tr');
    await until(async () => (await rows.count()) === LOG_PAGE_ENTRIES, 10_000, () => 'the log did not open at one page');
    await expect(page.getByTestId('log-count').textContent()).resolves.toBe(`${LOG_PAGE_ENTRIES}+`);
    await expect(rows.first().textContent()).resolves.toContain('/pets/1259');
    await screenshot(page, 'mock-log-older');
    await page.getByRole('button', { name: 'Load older entries' }).click();
    // While the page loads the button reads Loading…: only once neither shows is the older page in.
    await page.locator('.log-more').waitFor({ state: 'detached' });
    // Every entry the supervisor keeps: these 260 and the earlier tests' few, the oldest the first request of all.
    const all = await rows.count();
    expect(all).toBeGreaterThan(260);
    await expect(page.getByTestId('log-count').textContent()).resolves.toBe(String(all));
    await expect(rows.last().textContent()).resolves.toMatch(/GET \/pets\/1(?!\d)/);
  });

  it('resizes the log panel by drag and by keys, and keeps an unsaved edit of the mock across tab switches', async () => {
    await mockTab().click();
    const panel = page.locator('.mock-bottom');
    const height = async () => Math.round((await panel.boundingBox())!.height);
    const before = await height();
    const handle = page.getByRole('separator', { name: 'Resize the mock log' });
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + 300, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 300, box.y + box.height / 2 - 80, { steps: 5 });
    await page.mouse.up();
    await until(async () => (await height()) === before + 80, 5_000, () => 'dragging the handle up did not grow the log by 80 px');
    await handle.focus();
    await page.keyboard.press('ArrowDown');
    await until(async () => (await height()) === before + 64);
    await until(async () => (await readFile(join(app.home, 'workspace.yaml'), 'utf8')).includes(`mockLog: ${before + 64}`));
    await screenshot(page, 'mock-log-resized');

    await page.getByLabel('Port').fill('0');
    await page.getByLabel('Path', { exact: true }).fill('/edited');
    await page.getByRole('treeitem', { name: /Get a pet/ }).dblclick();
    await mockTab().click();
    await expect(page.getByLabel('Path', { exact: true }).inputValue()).resolves.toBe('/edited');
    await mockTab().locator('.dirty-dot').waitFor();
  });
});
