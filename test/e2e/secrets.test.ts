/**
 * Secrets in real Chromium, by the one naming scheme (docs/secrets.md): Add secret… shows and
 * uses the keychain name that `${secret:name}` takes, masks the value with a Show toggle, and a
 * system without a Secret Service is told so in words to act on, never the D-Bus error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, launchBrowser, screenshot } from '../support/browser.js';
import { loadApp } from '../support/ui-app.js';
import { keyringMissing } from '../support/keyring.js';
import { until } from '../support/until.js';
import { typeInto } from '../support/code-editor.js';

const missing = chromiumMissing();
const noKeyring = process.env.PARLEY_TEST_KEYRING ? null : await keyringMissing();

async function openPage(browser: BrowserContext, app: RunningApp): Promise<Page> {
  const page = await browser.newPage();
  await loadApp(page, app.url);
  return page;
}

async function palette(page: Page, command: string): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
}

describe.skipIf(missing !== null)('secrets without a Secret Service', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    app = await startApp(['--demo'], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/parley-no-bus' });
    browser = await launchBrowser();
    page = await openPage(browser, app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('says "No secure storage on this system" and what to do, not the D-Bus error', async () => {
    await palette(page, 'Environments and globals');
    const notice = page.locator('.env-vars [role=alert]');
    await notice.waitFor();
    const text = (await notice.textContent())!;
    expect(text).toContain('No secure storage on this system');
    expect(text).toContain('gnome-keyring');
    expect(text).not.toMatch(/d-?bus|org\.freedesktop/i);
    await expect(page.getByRole('button', { name: 'Add secret…' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'secrets-no-storage');

    // A password typed into an auth is not saved, and the toast says why in the same words.
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /List pets/ }).dblclick();
    await page.getByRole('tab', { name: /^Auth/ }).click();
    await page.getByLabel('Auth type').selectOption('basic');
    await typeInto(page.getByLabel('Username'), 'ada');
    await page.getByLabel('Password', { exact: true }).fill('pw-typed');
    await page.keyboard.press('Control+S');
    const toast = page.locator('.toast-error');
    await toast.waitFor();
    await expect(toast.textContent()).resolves.toContain('No secure storage on this system');
    await expect(toast.textContent()).resolves.not.toMatch(/d-?bus/i);
  });
});

describe.skipIf(missing !== null || noKeyring !== null)('secrets with a Secret Service', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;
  let seen = '';
  let target = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen = String(req.headers['x-token'] ?? '');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
    app = await startApp(['--demo']);
    browser = await launchBrowser();
    page = await openPage(browser, app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('Add secret… stores the name ${secret:name} uses, masks the value with a Show toggle, and a send reads it', async () => {
    await palette(page, 'Environments and globals');
    await page.getByRole('button', { name: '+ New environment' }).click();
    await page.getByRole('dialog', { name: 'New environment' }).getByRole('textbox').fill('Staging EU');
    await page.getByRole('dialog', { name: 'New environment' }).getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Add secret…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a secret variable to Staging EU' });
    await dialog.getByRole('textbox', { name: 'Variable name' }).fill('apiToken');
    const value = dialog.getByLabel('Secret value', { exact: true });
    await value.fill('s3cret-token-value');
    await expect(value.getAttribute('type')).resolves.toBe('password');
    await dialog.getByRole('button', { name: 'Show Secret value' }).click();
    await expect(value.getAttribute('type')).resolves.toBe('text');
    await expect(dialog.getByRole('textbox', { name: 'Name in the keychain' }).getAttribute('placeholder')).resolves.toBe('staging-eu/<variable name>');
    await screenshot(page, 'secrets-add');
    await dialog.getByRole('button', { name: 'Store in keychain' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.getByLabel('Variable value of apiToken').inputValue()).resolves.toBe('${secret:staging-eu/apiToken}');
    await page.keyboard.press('Control+S');
    await page.getByLabel('Active environment').first().selectOption({ label: 'Staging EU' });

    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /List pets/ }).dblclick();
    await typeInto(page.getByLabel('URL', { exact: true }), target);
    await page.getByRole('tab', { name: /^Headers/ }).click();
    await page.getByLabel('Header name').last().fill('X-Token');
    await typeInto(page.getByLabel('Header value of X-Token'), '${secret:staging-eu/apiToken}');
    await page.getByRole('button', { name: 'Send' }).click();
    await until(() => seen === 's3cret-token-value');
    await typeInto(page.getByLabel('Header value of X-Token'), '${apiToken}');
    seen = '';
    await page.getByRole('button', { name: 'Send' }).click();
    await until(() => seen === 's3cret-token-value');

    // A name that is not the stored one says which stored one it may mean.
    await typeInto(page.getByLabel('Header value of X-Token'), '${secret:apiToken}');
    await page.getByRole('button', { name: 'Send' }).click();
    const refusal = page.locator('.response-error');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toContain('${secret:apiToken} names no secret in the keychain (did you mean ${secret:staging-eu/apiToken}?)');
    await screenshot(page, 'secrets-did-you-mean');
  });
});
