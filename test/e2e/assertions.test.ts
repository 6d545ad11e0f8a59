/**
 * Request assertions in real Chromium against a real server on 127.0.0.1: the Assertions tab
 * (add, choose the source, the path, the operator and the value, save: the request file becomes
 * version 2), then Send: the status line's "Assertions n/m" chip and the response's Assertions
 * view with each row passed or failed and why. Screenshots: test-results/screenshots/assertions-*.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi, loadApp } from '../support/ui-app.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('request assertions', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;
  let projectDir: string;

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 7, name: 'Rex', tags: ['good'] })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const home = await mkdtemp(join(tmpdir(), 'parley-e2e-assertions-'));
    projectDir = join(home, 'pets');
    const store = await ProjectStore.open(projectDir, { create: true, name: 'Pets' });
    const api = await store.createApi({ name: 'Pets API', baseUrl: base });
    await store.createRequest({ parent: api.id, name: 'Get pet', method: 'GET', url: '/pets/7' });
    await store.close();
    ({ app, browser, page } = await openUi([projectDir], { env: { PARLEY_HOME: home }, load: false }));
    await page.setViewportSize({ width: 1280, height: 800 });
    await loadApp(page, app.url);
    await page.getByRole('treeitem', { name: /Pets API/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  it('adds assertions in the Assertions tab, saves them, and shows each passed or failed after Send', async () => {
    await page.getByRole('treeitem', { name: /Get pet/ }).click();
    await page.getByRole('tab', { name: /^Assertions/ }).click();
    await expect(page.getByText('No assertions.').isVisible()).resolves.toBe(true);
    const add = page.getByRole('button', { name: 'Add assertion' });
    await add.click();
    await add.click();
    await page.getByLabel('Assertion 2 source').selectOption('body');
    await page.getByLabel('Assertion 2 JSONPath').fill('$.name');
    await page.getByLabel('Assertion 2 operator').selectOption('equals');
    await page.getByLabel('Assertion 2 value').fill('Max');
    await add.click();
    await page.getByLabel('Assertion 3 source').selectOption('body');
    await page.getByLabel('Assertion 3 JSONPath').fill('$.tags[0]');
    await page.getByLabel('Assertion 3 operator').selectOption('matches');
    await page.getByLabel('Assertion 3 value').fill('^go+d$');
    await add.click();
    await page.getByLabel('Assertion 4 source').selectOption('time');
    await page.getByLabel('Assertion 4 operator').selectOption('less');
    await page.getByLabel('Assertion 4 value').fill('60000');
    await expect(page.getByRole('tab', { name: /^Assertions/ }).innerText()).resolves.toMatch(/Assertions\s*4/);
    await screenshot(page, 'assertions-editor');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => {
      const dir = join(projectDir, 'apis', 'Pets API', 'requests');
      const file = (await readdir(dir)).find((f) => f.endsWith('.request.yaml'))!;
      return parseYaml(await readFile(join(dir, file), 'utf8')) as { version: number; assertions?: unknown[] };
    }).toMatchObject({ version: 2, assertions: [{ source: 'status', op: 'equals', value: '200' }, { source: 'body', path: '$.name', value: 'Max' }, {}, {}] });

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('status').waitFor();
    const chip = page.getByTestId('assertions-chip');
    await expect(chip.innerText()).resolves.toBe('Assertions 3/4');
    await chip.click();
    const rows = page.getByRole('list', { name: 'Assertion results' }).locator('li');
    await expect(rows.count()).resolves.toBe(4);
    const text = async (i: number) => (await rows.nth(i).innerText()).replace(/\s+/g, ' ').trim();
    await expect(text(0)).resolves.toBe('✓ status equals 200');
    await expect(text(1)).resolves.toBe('✗ $.name equals Max got "Rex"');
    await expect(text(2)).resolves.toBe('✓ $.tags[0] matches ^go+d$');
    await expect(text(3)).resolves.toBe('✓ response time (ms) less than 60000');
    await expect(page.getByRole('tab', { name: 'Assertions (3/4)' }).getAttribute('aria-selected')).resolves.toBe('true');
    await screenshot(page, 'assertions-results');
  });
});
