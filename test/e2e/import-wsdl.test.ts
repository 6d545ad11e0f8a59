/**
 * WSDL in the app, in Chromium against `parley ui --demo` and a real `soap` server on
 * 127.0.0.1: the Import dialog's File tab recognises the WSDL (badge) and shows the WSDL options;
 * the import makes one API per binding; an operation opens on its envelope with the SOAP bar
 * (version, binding/operation, SOAPAction); Send reaches the server and the response shows; an
 * operation that faults shows the "SOAP Fault" badge with its faultcode and faultstring.
 * Screenshots: test-results/screenshots/import-wsdl-*.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { startCalcServer, type CalcServer } from '../support/soap-server.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();
const STEP_MS = 30_000;

describe.skipIf(missing !== null)('WSDL import, send and fault', { timeout: 180_000 }, () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let calc: CalcServer;

  beforeAll(async () => {
    calc = await startCalcServer();
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: STEP_MS }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await calc?.close();
  });

  it('imports a WSDL from the dialog, sends an operation, and shows a fault as a fault', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    // URL tab: with Basic definition credentials, the WSDL option to use them for requests too.
    const carry = dialog.getByLabel('Use these credentials for requests too (WSDL)');
    await expect(carry.count()).resolves.toBe(0);
    await dialog.getByRole('radio', { name: 'Basic' }).click();
    await carry.check();
    await expect(carry.isChecked()).resolves.toBe(true);
    await screenshot(page, 'import-wsdl-url-options');
    await dialog.getByRole('radio', { name: 'None' }).click();
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(calc.wsdlPath);
    const badge = dialog.getByRole('status', { name: 'Detected format' });
    await badge.getByText('WSDL 1.1').waitFor();
    await expect(badge.textContent()).resolves.toMatch(/WSDL 1\.1\s*by its file name/);
    await expect(dialog.getByLabel('Cache the WSDL and its imports with the project').isChecked()).resolves.toBe(true);
    await expect(dialog.getByLabel('Import webhooks & callbacks').count()).resolves.toBe(0);
    await screenshot(page, 'import-wsdl-dialog');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.waitFor();
    await expect(summary.getByRole('row', { name: /^Format/ }).textContent()).resolves.toMatch(/WSDL 1\.1/);
    await expect(summary.getByRole('row', { name: /^APIs/ }).textContent()).resolves.toMatch(/CalcSoap11 \(2\), CalcSoap12 \(2\), CalcRpc \(1\)/);
    await screenshot(page, 'import-wsdl-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // SOAP 1.1: Add succeeds.
    await page.getByLabel('Filter requests').fill('Add');
    await page.getByRole('treeitem', { name: /Add/ }).first().click();
    const bar = page.getByLabel('SOAP operation');
    await bar.waitFor();
    await expect(bar.textContent()).resolves.toMatch(/SOAP 1\.1\s*CalcSoap11 \/ Add/);
    await expect(bar.getByLabel('SOAPAction').inputValue()).resolves.toBe('urn:parley:calc#Add');
    await expect(codeText(page.getByLabel('Endpoint'))).resolves.toBe(`${calc.origin}/calc11`);
    // It opens on its envelope.
    await expect(page.getByRole('tab', { name: 'Body' }).getAttribute('aria-selected')).resolves.toBe('true');
    await expect(codeText(page.getByLabel('Body', { exact: true }))).resolves.toMatch(/<c:Add>\s*<c:a>0<\/c:a>/);
    await screenshot(page, 'import-wsdl-request');
    const before = calc.calls.length;
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toMatch(/^200/);
    expect(calc.calls.slice(before).map((c) => `${c.port}/${c.operation}`)).toEqual(['CalcSoap11Port/Add']);
    await page.getByText('AddResult').first().waitFor();
    await expect(page.getByTestId('soap-fault-badge').count()).resolves.toBe(0);
    await screenshot(page, 'import-wsdl-send');

    // SOAP 1.2: Divide by zero is a fault, shown as one.
    await page.getByLabel('Filter requests').fill('Divide');
    await page.getByRole('treeitem', { name: /Divide/ }).nth(1).click();
    await expect.poll(() => page.getByLabel('SOAP operation').textContent()).toMatch(/SOAP 1\.2\s*CalcSoap12 \/ Divide/);
    await expect(page.getByLabel('SOAP operation').getByLabel('action').inputValue()).resolves.toBe('urn:parley:calc#Divide');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toMatch(/^500/);
    await page.getByTestId('soap-fault-badge').waitFor();
    const fault = page.getByRole('alert', { name: 'SOAP Fault' });
    await expect(fault.textContent()).resolves.toMatch(/Code\s*soap:Sender\s*Reason\s*Division by zero/);
    expect(calc.calls.at(-1)).toMatchObject({ port: 'CalcSoap12Port', operation: 'Divide' });
    await screenshot(page, 'import-wsdl-fault');

    // The interface's API tab: its WSDL definition and binding, and Update definition (test/e2e/update-wsdl.test.ts).
    await page.getByLabel('Filter requests').fill('');
    await page.getByRole('treeitem', { name: /CalcSoap12/ }).first().click();
    await expect(page.getByLabel('Auth type').inputValue()).resolves.toBe('none');
    const definition = page.getByRole('region', { name: 'Definition' });
    await definition.waitFor();
    await expect(definition.textContent()).resolves.toMatch(/Format\s*WSDL 1\.1[^]*SOAP binding\s*CalcSoap12\s*SOAP 1\.2[^]*Cached\s*1 document/);
    await expect(definition.getByRole('button', { name: 'Update definition…' }).count()).resolves.toBe(1);
    await screenshot(page, 'import-wsdl-api');
  });
});
