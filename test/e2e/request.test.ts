/**
 * The REST client in real Chromium: build a request with path and query params and a JSON
 * body, send it to the demo API, look at every response tab.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { expectContractPass } from '../support/contract-chip.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText, typeInto } from '../support/code-editor.js';

const missing = chromiumMissing();

const responseTab = (page: Page, name: string) => page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: new RegExp(`^${name}`) });

describe.skipIf(missing !== null)('REST client', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ app, browser, page } = await openUi(['--demo']));
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
    await expect(codeText(url)).resolves.toBe('/pets/{petId}');
    await expect(codeText(page.getByLabel('Path parameter value of petId'))).resolves.toBe('1');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
    await expect(codeText(page.getByLabel('Response body'))).resolves.toContain('"Biscuit"');
    await expectContractPass(page);
    await screenshot(page, 'request-get-pet');

    for (const tab of ['Headers', 'Cookies', 'Redirects', 'Timing', 'Raw']) {
      await responseTab(page, tab).click();
      await screenshot(page, `request-tab-${tab.toLowerCase()}`);
    }
    await expect(page.locator('.kv-table, .waterfall, .raw, .muted').first().isVisible()).resolves.toBe(true);
    await responseTab(page, 'Raw').click();
    // The request as sent, the response's head, and its body.
    await expect(codeText(page.getByLabel('Raw exchange'))).resolves.toMatch(/GET \/pets\/1 HTTP\/1\.1[\s\S]*HTTP\/1\.1 200 OK[\s\S]*"Biscuit"/);
    await responseTab(page, 'Timing').click();
    await expect(page.locator('.wf-row').count()).resolves.toBe(7);
  });

  it('keeps the query string and the query rows in step, sends enabled rows only', async () => {
    await page.getByRole('treeitem', { name: /List pets/ }).click();
    const url = page.getByLabel('URL', { exact: true });
    await expect(codeText(url)).resolves.toBe('/pets?limit=20');
    await typeInto(url, '/pets?limit=2&tag=cat');
    await expect(codeText(page.getByLabel('Query parameter value of tag'))).resolves.toBe('cat');
    await page.getByLabel('Send limit').uncheck();
    await expect(codeText(url)).resolves.toBe('/pets?tag=cat');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('status').waitFor();
    const body = await codeText(page.getByLabel('Response body'));
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
    await expect(codeText(body)).resolves.toBe('{"name": "Comet", "tag": "bird"');
    await body.fill('{"name":"Comet","tag":"bird"}');
    await page.getByRole('button', { name: 'Format' }).click();
    await expect(codeText(body)).resolves.toBe('{\n  "name": "Comet",\n  "tag": "bird"\n}');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('201');
    await expect(codeText(page.getByLabel('Response body'))).resolves.toContain('Comet');
    await screenshot(page, 'request-post-json');
  });

  it('refuses to send with an unresolved path parameter or expansion, and says which', async () => {
    await page.getByRole('treeitem', { name: /Get a pet/ }).click();
    await typeInto(page.getByLabel('Path parameter value of petId'), '');
    await typeInto(page.getByLabel('URL', { exact: true }), '/pets/{petId}?key=${missingKey}');
    // Said under the URL before Send...
    const problems = page.getByRole('list', { name: 'Problems to fix before Send' });
    await until(async () => (await problems.textContent())?.includes('${missingKey} is not defined') ?? false, 5_000, () => 'the unresolved variable was not listed under the URL');
    await expect(problems.textContent()).resolves.toContain('Path parameter {petId} has no value.');
    // ...and again, once, by the send.
    await page.getByRole('button', { name: 'Send' }).click();
    const alert = page.locator('.response-error');
    await alert.waitFor();
    await expect(alert.locator('strong').textContent()).resolves.toBe('Not sent');
    const text = (await alert.locator('p').textContent())!;
    expect(text).not.toMatch(/not sent/i);
    expect(text).toMatch(/^Path parameter \{petId\} has no value; \$\{missingKey\} is not defined/);
    await screenshot(page, 'request-refused');
  });

  it('a new request with a path template gets its path-parameter row at once, says it needs a value, and sends once given one', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('New request');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New request' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Pet by id');
    await dialog.getByRole('textbox', { name: 'URL or path' }).fill('/pets/{petId}');
    await dialog.getByRole('button', { name: 'Create request' }).click();
    await page.getByRole('tab', { name: /Pet by id/ }).waitFor();
    const value = page.getByLabel('Path parameter value of petId');
    await expect(codeText(value)).resolves.toBe('');
    const problems = page.getByRole('list', { name: 'Problems to fix before Send' });
    await expect(problems.textContent()).resolves.toContain('Path parameter {petId} has no value.');
    await screenshot(page, 'request-new-path-template');
    await typeInto(value, '2');
    await problems.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
  });

  describe('refused before the network, and said before Send', () => {
    let server: Server;
    let hits = 0;
    let target = '';
    beforeAll(async () => {
      server = createServer((_req, res) => {
        hits++;
        res.end('reached');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/anything`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('an auth whose required values are empty (Basic used to go out as "Basic Og==")', async () => {
      await page.getByRole('treeitem', { name: /Pet by id/ }).dblclick();
      await typeInto(page.getByLabel('URL', { exact: true }), target);
      await page.getByRole('tab', { name: /^Auth/ }).click();
      await page.getByLabel('Auth type').selectOption('basic');
      const warning = page.locator('.auth-editor [role=alert]');
      await expect(warning.textContent()).resolves.toContain('Basic auth has no Username');
      await expect(page.getByRole('list', { name: 'Problems to fix before Send' }).textContent()).resolves.toContain('Basic auth has no Username');
      await page.getByRole('button', { name: 'Send' }).click();
      const refusal = page.locator('.response-error');
      await refusal.waitFor();
      await expect(refusal.textContent()).resolves.toContain('Basic auth has no Username');
      expect(hits).toBe(0);
      await screenshot(page, 'request-auth-incomplete');
      await typeInto(page.getByLabel('Username'), 'ada');
      await expect(warning.count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Send' }).click();
      await until(() => hits === 1);
      await page.getByLabel('Auth type').selectOption('none');
    });

    it('a URL that is not one (it used to be sent as a path under the base URL)', async () => {
      await page.getByRole('treeitem', { name: /Pet by id/ }).dblclick();
      const url = page.getByLabel('URL', { exact: true });
      await typeInto(url, 'ht!tp://bad url/%%');
      const problems = page.getByRole('list', { name: 'Problems to fix before Send' });
      await expect(problems.textContent()).resolves.toContain('"ht!tp" is not a URL scheme');
      await page.getByRole('button', { name: 'Send' }).click();
      const refusal = page.locator('.response-error');
      await refusal.waitFor();
      await expect(refusal.textContent()).resolves.toContain('The URL "ht!tp://bad url/%%" is not valid: "ht!tp" is not a URL scheme');
      await screenshot(page, 'request-bad-url');
      await typeInto(url, `${target.replace('/anything', '')}/a b`);
      await expect(problems.textContent()).resolves.toContain('contains a space');
      await typeInto(url, `${target}%zz`);
      await expect(problems.textContent()).resolves.toContain('"%zz" is not a percent-escape');
      expect(hits).toBe(1);
    });
  });
});
