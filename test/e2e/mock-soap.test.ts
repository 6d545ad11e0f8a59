/**
 * A SOAP mock in real Chromium: a project with a WSDL imported (`parley import`, test1 fixture),
 * New Mock… on the SOAP interface's context menu, Start, and the WSDL link opens `?wsdl` with the
 * service address rewritten to the running mock; a `soap` client built from that WSDL gets the
 * app's mock host's answers, which its log then shows. Screenshots: test-results/screenshots/mock-soap-*.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { finished } from '../support/processes.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import * as soap from 'soap';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('SOAP mock', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let home = '';

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'parley-soap-e2e-'));
    const project = join(home, 'project');
    const wsdl = join(repoRoot(), 'test', 'fixtures', 'wsdl', 'mock', 'test1', 'TestService.wsdl');
    const imported = await finished(
      spawn(process.execPath, [join(repoRoot(), 'dist', 'cli.js'), 'import', wsdl, '--new-project', project], { env: { ...process.env, PARLEY_HOME: join(home, 'data') }, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    expect(imported.code, imported.stderr).toBe(0);
    ({ app, browser, page } = await openUi([project], { env: { PARLEY_HOME: join(home, 'data') } }));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('New Mock… on the SOAP interface makes a mock of its binding, Start serves it, and WSDL opens ?wsdl rewritten to it', async () => {
    await page.getByRole('treeitem', { name: /TestServiceSoap/ }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'New Mock…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Mock of TestServiceSoap' });
    await dialog.getByRole('button', { name: 'Create mock' }).click();
    const operations = page.getByRole('listbox', { name: 'Operations' });
    await operations.waitFor();
    await expect(operations.getByRole('option', { name: /GetPage/ }).count()).resolves.toBe(1);
    await expect(page.locator('.mock-api').getAttribute('title')).resolves.toBe('SOAP binding TestServiceSoap');
    await operations.getByRole('option', { name: /GetPage/ }).click();
    await expect(page.locator('.mock-op-path').textContent()).resolves.toBe('GetPage');
    await screenshot(page, 'mock-soap-new');

    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByTestId('mock-url').waitFor();
    const mockUrl = (await page.getByTestId('mock-url').textContent())!.trim();
    expect(mockUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(page.getByTestId('mock-state').textContent()).resolves.toContain('Running');
    await screenshot(page, 'mock-soap-running');

    const [wsdlPage] = await Promise.all([browser.waitForEvent('page'), page.getByTestId('mock-wsdl').click()]);
    await wsdlPage.waitForLoadState();
    expect(wsdlPage.url()).toBe(`${mockUrl}/?wsdl`);
    const served = await wsdlPage.evaluate(async (url) => (await fetch(url)).text(), wsdlPage.url());
    expect(served).toContain(`<soap:address location="${mockUrl}/"/>`);
    expect(served).not.toContain('www.eviware.com/webservices');
    await screenshot(wsdlPage, 'mock-soap-wsdl');
    await wsdlPage.close();

    // A real SOAP client against the app's mock host.
    const client = await soap.createClientAsync(`${mockUrl}/?wsdl`);
    const [pong] = (await client.PingAsync({})) as [Record<string, unknown>];
    expect(pong).toHaveProperty('PingResult');
    const log = page.getByRole('table', { name: 'Mock log' });
    await log.getByRole('cell', { name: 'Ping', exact: true }).waitFor();
    await screenshot(page, 'mock-soap-log');
  }, 60_000);

  it('offers Refuse as what a SOAP mock does: a SOAP fault, 500 in SOAP 1.1, and refuses with one', async () => {
    const check = page.getByLabel('Contract check');
    const refuse = 'Refuse requests that break the contract (a SOAP fault: 500, or 400 in SOAP 1.2)';
    await expect(check.locator('option[value=refuse]').textContent()).resolves.toBe(refuse);
    await check.selectOption({ label: refuse });
    await page.keyboard.press('Control+S');
    await page.locator('.toast', { hasText: /saved and applied/ }).waitFor();
    // TestService is SOAP 1.1: a Body element the schema does not allow is refused with 500 and soap:Client.
    const mockUrl = (await page.getByTestId('mock-url').textContent())!.trim();
    const refused = await fetch(`${mockUrl}/`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"http://schemas.eviware.com/TestService/v1/Ping"' },
      body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><t:Ping xmlns:t="http://schemas.eviware.com/TestService/v1/"><t:Nope>1</t:Nope></t:Ping></s:Body></s:Envelope>',
    });
    const fault = await refused.text();
    expect(refused.status, fault).toBe(500);
    expect(fault).toContain('<faultcode>soap:Client</faultcode>');
    expect(fault).toContain('mock-contract-refused');
    await screenshot(page, 'mock-soap-refuse');
  }, 60_000);
});
