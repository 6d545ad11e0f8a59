/**
 * Kerberos definition authentication in the app, in Chromium against `parley ui --demo`, a real
 * MIT KDC and an HTTP server requiring Negotiate (test/support/kdc.ts, negotiate-server.ts), all
 * on 127.0.0.1. The app's process tree gets the KDC's krb5.conf and the signed-in ticket through
 * its environment. The Import dialog's URL tab: Kerberos with a wrong SPN is refused with a
 * message naming the service; with no SPN the WSDL imports and the API records Kerberos as how
 * its definition was fetched; with "Use these credentials for requests too" ticked its interfaces' requests
 * inherit Kerberos auth, and Send of an operation to the same Negotiate server answers its 401 with a
 * token and shows 200 (a wrong SPN on the request is shown as auth-kerberos-bad-spn in the response
 * pane); Update definition… of an OpenAPI document imported so fetches it
 * again with the recorded Kerberos choice, and offers Kerberos for another URL.
 * Screenshots: test-results/screenshots/import-kerberos-*.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { kerberosMissing, startKdc, type Kdc } from '../support/kdc.js';
import { startNegotiateServer, type NegotiateServer } from '../support/negotiate-server.js';
import { CALC_WSDL } from '../support/soap-server.js';

const missing = chromiumMissing() ?? kerberosMissing();
const STEP_MS = 30_000;

describe.skipIf(missing !== null)(`Kerberos definition authentication in the Import dialog${missing ? ` (skipped: ${missing})` : ''}`, { timeout: 120_000 }, () => {
  let work: string;
  let kdc: Kdc;
  let server: NegotiateServer;
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-kerberos-e2e-'));
    kdc = await startKdc();
    const wsdlPath = join(work, 'calc.wsdl');
    const addResponse = join(work, 'add-response.xml');
    await writeFile(addResponse, '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><AddResponse xmlns="urn:parley:calc"><AddResult>5</AddResult></AddResponse></soap:Body></soap:Envelope>');
    const openapiPath = join(work, 'openapi.yaml');
    await writeFile(openapiPath, "openapi: 3.0.3\ninfo: {title: Kerb Board, version: '1'}\npaths:\n  /cards:\n    get:\n      responses: {'200': {description: ok}}\n");
    server = await startNegotiateServer(kdc, { '/calc.wsdl': { file: wsdlPath }, '/calc11': { file: addResponse }, '/openapi.yaml': { file: openapiPath, contentType: 'application/yaml' } });
    // The server reads its files per request: the WSDL's endpoints are the server itself.
    await writeFile(wsdlPath, (await readFile(CALC_WSDL, 'utf8')).replaceAll('ENDPOINT', server.origin));
    ({ app, browser, page } = await openUi(['--demo'], { env: kdc.env, stepMs: STEP_MS }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await server?.close();
    await kdc?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('imports a WSDL from a Negotiate server with the signed-in ticket, after a wrong SPN is refused, and its requests send with Kerberos', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByLabel('Document URL').fill(`${server.origin}/calc.wsdl`);
    await dialog.getByRole('radio', { name: 'Kerberos' }).click();
    await dialog.getByText('Uses your signed-in Kerberos ticket').waitFor();
    // No password field for Kerberos; "for requests too" is offered for it as for Basic.
    await expect(dialog.getByLabel('Password').count()).resolves.toBe(0);
    await dialog.getByLabel('Use these credentials for requests too (WSDL)').check();

    await dialog.getByLabel('SPN').fill('HTTP@nosuch.parley.test');
    await screenshot(page, 'import-kerberos-options');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByText('does not know the service HTTP@nosuch.parley.test').waitFor();
    await screenshot(page, 'import-kerberos-bad-spn');

    await dialog.getByLabel('SPN').fill('');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.waitFor();
    await expect(summary.getByRole('row', { name: /^APIs/ }).textContent()).resolves.toMatch(/CalcSoap11 \(2\), CalcSoap12 \(2\), CalcRpc \(1\)/);
    expect(server.seen.filter((s) => s.user !== null).map((s) => s.user)).toContain(kdc.user);
    await screenshot(page, 'import-kerberos-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The API records how its definition was fetched: Kerberos, nothing stored.
    await page.getByRole('treeitem', { name: /CalcSoap11/ }).first().click();
    const definition = page.getByRole('region', { name: 'Definition' });
    await definition.waitFor();
    await expect(definition.textContent()).resolves.toMatch(/fetched with Kerberos \(your signed-in ticket\)/);
    // Its requests' auth: Kerberos, with the SPN left to its default (HTTP@<host>).
    await expect(page.getByLabel('Auth type').inputValue()).resolves.toBe('kerberos');
    await expect(page.getByLabel('SPN').inputValue()).resolves.toBe('');
    await screenshot(page, 'import-kerberos-api');

    // An operation inherits the API's Kerberos auth; Send answers the server's 401 Negotiate.
    await page.getByLabel('Filter requests').fill('Add');
    await page.getByRole('treeitem', { name: /Add/ }).first().click();
    await page.getByLabel('SOAP operation').waitFor();
    await page.getByRole('tab', { name: /^Auth/ }).click();
    await page.getByText(/^Uses Kerberos, from API /).waitFor();
    // Kerberos can be chosen on a request too: an optional SPN and the ticket it uses.
    await page.getByLabel('Auth type').selectOption('kerberos');
    await page.getByText('Uses your signed-in Kerberos ticket').waitFor();
    await expect(page.getByLabel('SPN').getAttribute('placeholder')).resolves.toBe('HTTP@<host of the request>');
    await screenshot(page, 'import-kerberos-request-auth');
    // A Kerberos failure is shown in the response pane, in a request's words.
    await page.getByLabel('SPN').fill('HTTP@nosuch.parley.test');
    await page.getByRole('button', { name: 'Send' }).click();
    const failure = page.locator('.response-error');
    await failure.waitFor();
    await expect(failure.textContent()).resolves.toMatch(/could not sign in with Kerberos: the Kerberos KDC does not know the service HTTP@nosuch\.parley\.test/);
    await screenshot(page, 'import-kerberos-request-error');
    await page.getByLabel('Auth type').selectOption('inherit');
    const before = server.seen.length;
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toMatch(/^200/);
    await page.getByText('AddResult').first().waitFor();
    const calls = server.seen.slice(before).filter((s) => s.path === '/calc11');
    expect(calls.map((s) => [s.authorization, s.user])).toEqual([
      [null, null],
      ['Negotiate', kdc.user],
    ]);
    await screenshot(page, 'import-kerberos-send');
    await page.getByLabel('Filter requests').fill('');
  });

  it('Update definition… fetches an OpenAPI document again with the recorded Kerberos choice, and offers Kerberos for another URL', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByLabel('Document URL').fill(`${server.origin}/openapi.yaml`);
    await dialog.getByRole('radio', { name: 'Kerberos' }).click();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByRole('region', { name: 'Import summary' }).getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    const before = server.seen.length;
    await page.getByRole('treeitem', { name: /Kerb Board/ }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Update definition…' }).click();
    const update = page.getByRole('dialog', { name: 'Update definition of Kerb Board' });
    const changes = update.getByRole('region', { name: 'Definition changes' });
    await changes.getByText(/0 added.*0 removed.*0 changed/).waitFor();
    expect(server.seen.slice(before).filter((s) => s.path === '/openapi.yaml').map((s) => s.user)).toContain(kdc.user);

    await update.getByRole('button', { name: 'Choose another file or URL…' }).click();
    await update.getByRole('tab', { name: 'URL' }).click();
    await expect(update.getByRole('radio', { name: 'Use stored credentials' }).getAttribute('aria-checked')).resolves.toBe('true');
    await update.getByText('Fetched with Kerberos as recorded with the API: Kerberos (your signed-in ticket).').waitFor();
    await update.getByLabel('Document URL').fill('https://elsewhere.example.test/openapi.yaml');
    await update.getByRole('radio', { name: 'Kerberos' }).click();
    await update.getByLabel('SPN').waitFor();
    await screenshot(page, 'import-kerberos-update');
    await update.getByRole('button', { name: 'Cancel' }).click();
    await update.waitFor({ state: 'detached' });
  });
});
