/**
 * Secrets in real Chromium, by the one naming scheme (docs/secrets.md): Add secret… shows and
 * uses the keychain name that `${secret:name}` takes, masks the value with a Show toggle. A
 * system without a Secret Service is told so in words to act on, never the D-Bus error, and gets
 * the vault: saved without the secret when asked, or a vault made with a passphrase typed in a
 * dialog, kept across a reload, locked after a restart and unlocked at Send (a wrong passphrase
 * said so and changing nothing); neither the passphrase nor the password shows anywhere.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { blankRequest } from '../../protocol/model/request.js';
import { chromiumMissing, launchBrowser, screenshot } from '../support/browser.js';
import { loadApp } from '../support/ui-app.js';
import { keyringMissing } from '../support/keyring.js';
import { until } from '../support/until.js';
import { codeText, typeInto } from '../support/code-editor.js';

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

describe.skipIf(missing !== null)('secrets without a Secret Service: the vault', () => {
  const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/parley-no-bus' };
  /** Typed by the test with real key events; neither may show anywhere else. */
  const PASSPHRASE = 'tram lantern 93 quietly';
  const PASSWORD = 'pw-e2e-71c04b2d';
  const TYPING_DELAY_MS = 20;
  /** A restart and scrypt (a few tenths of a second at best) on a loaded 2-core machine. */
  const SLOW = { timeout: 120_000 };
  let server: Server;
  let home: string;
  let project: string;
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  const seen: string[] = [];
  const outputs: string[] = [];
  const consoleLines: string[] = [];
  const requestFile = () => join(project, 'apis', 'Vaulted', 'requests', 'Whoami.request.yaml');
  const vaultFile = () => join(home, 'secrets.vault');
  const basic = (password: string) => `Basic ${Buffer.from(`ada:${password}`).toString('base64')}`;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(String(req.headers.authorization ?? ''));
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    home = await mkdtemp(join(tmpdir(), 'parley-vault-e2e-home-'));
    project = join(await mkdtemp(join(tmpdir(), 'parley-vault-e2e-')), 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Vault' });
    const api = await store.createApi({ name: 'Vaulted', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    await store.commit([
      store.newRequestChange(api.id, '', blankRequest({ id: 'r_whoami', name: 'Whoami', method: 'GET', url: '/whoami' })),
      store.newRequestChange(api.id, '', blankRequest({ id: 'r_other', name: 'Other', method: 'GET', url: '/other' })),
    ]);
    await store.edits.createFolder(api.id, 'Team');
    await store.close();
    app = await startApp([project], { PARLEY_HOME: home, ...NO_BUS });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    page.on('console', (m) => consoleLines.push(m.text()));
    await loadApp(page, app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const storeDialog = (name: string) => page.getByRole('dialog', { name });
  const password = () => page.getByLabel('Password', { exact: true });
  const statusBar = () => page.locator('.statusbar');

  async function openWhoami(): Promise<void> {
    const request = page.getByRole('treeitem', { name: /Whoami/ });
    if (!(await request.isVisible())) await page.getByRole('treeitem', { name: /Vaulted/ }).click();
    await request.click();
    await page.getByRole('tab', { name: /^Auth/ }).click();
  }

  it('says there is no secure storage in words to act on, and Add secret… offers a vault', SLOW, async () => {
    await palette(page, 'Environments and globals');
    const notice = page.locator('.env-vars [role=alert]');
    await notice.waitFor();
    const text = (await notice.textContent())!;
    expect(text).toContain('No secure storage on this system');
    expect(text).toContain('gnome-keyring');
    expect(text).toContain('keep them in a vault');
    expect(text).not.toMatch(/d-?bus|org\.freedesktop/i);
    await page.getByRole('button', { name: 'Add secret…' }).click();
    const dialog = storeDialog('No secure storage');
    await expect(dialog.textContent()).resolves.toContain(vaultFile());
    await screenshot(page, 'secrets-no-storage');
    // Escape closes this dialog, and nothing was made.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(readdir(home)).resolves.not.toContain('secrets.vault');
  });

  it('Import cURL… of a command with -u user:pass offers Import without the password, and the request arrives with it empty', SLOW, async () => {
    await page.getByRole('treeitem', { name: /Vaulted/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Import cURL…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import cURL' });
    await dialog.getByLabel('curl command').click();
    await page.keyboard.type(`curl -u ada:${PASSWORD} http://127.0.0.1:9/curled`, { delay: 5 });
    await dialog.getByLabel('Request name').click();
    await page.keyboard.type('Curled', { delay: TYPING_DELAY_MS });
    await dialog.getByRole('button', { name: 'Import' }).click();
    // Over the Import cURL dialog, which keeps what was typed: Cancel goes back to it.
    await storeDialog('No secure storage').getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.getByLabel('Request name').inputValue()).resolves.toBe('Curled');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await storeDialog('No secure storage').getByRole('button', { name: 'Import without the password' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.locator('.toast', { hasText: 'Imported Curled' }).textContent()).resolves.toContain('The password was not imported: there is no secure storage for it');
    const file = join(project, 'apis', 'Vaulted', 'requests', 'Curled.request.yaml');
    const text = await readFile(file, 'utf8');
    expect(text).toContain('username: ada');
    expect(text).toMatch(/password: ["']{2}/);
    expect(text).not.toContain(PASSWORD);
  });

  it("Folder settings: a typed token with nowhere to go offers Save without the secret, and folder.yaml keeps the field empty", SLOW, async () => {
    const team = page.locator('.tree-row[data-name="Team"]');
    if (!(await team.isVisible())) await page.getByRole('treeitem', { name: /Vaulted/ }).click();
    await team.dblclick();
    const editor = page.locator('.folder-editor');
    await editor.getByLabel('Auth type').selectOption('bearer');
    const token = editor.getByLabel('Token', { exact: true });
    await typeInto(token, PASSWORD, TYPING_DELAY_MS);
    await expect(editor.locator('.secret-hint').textContent()).resolves.toContain('Not stored: no secure storage on this system.');
    await page.keyboard.press('Control+S');
    const dialog = storeDialog('No secure storage');
    await expect(dialog.textContent()).resolves.toContain("the secret typed into the folder's auth");
    await dialog.getByRole('button', { name: 'Save without the secret' }).click();
    const file = join(project, 'apis', 'Vaulted', 'requests', 'Team', 'folder.yaml');
    await until(async () => (await readFile(file, 'utf8')).includes('type: bearer'));
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/token: ["']{2}/);
    expect(text).not.toContain(PASSWORD);
    await expect(page.locator('.toast', { hasText: 'Folder settings of Team saved' }).textContent()).resolves.toContain('saved without the secret: there is no secure storage for it');
    await expect(editor.locator('.secret-left-out').textContent()).resolves.toContain('Saved without the token');
    await expect(page.getByRole('tab', { name: /Team/ }).locator('.dirty-dot').count()).resolves.toBe(0);
  });

  it('saves without the secret when asked; then makes a vault with a passphrase typed twice, keeps the password in it, and sends it', SLOW, async () => {
    await openWhoami();
    await page.getByLabel('Auth type').selectOption('basic');
    await typeInto(page.getByLabel('Username'), 'ada', TYPING_DELAY_MS);
    await typeInto(password(), PASSWORD, TYPING_DELAY_MS);
    await expect(page.locator('.secret-hint').textContent()).resolves.toContain('Not stored: no secure storage on this system.');

    // Nowhere to put it: the dialog says so; "Save without the secret" writes the field empty.
    await page.keyboard.press('Control+S');
    await storeDialog('No secure storage').getByRole('button', { name: 'Save without the secret' }).click();
    await until(async () => (await readFile(requestFile(), 'utf8')).includes('type: basic'));
    const withoutIt = await readFile(requestFile(), 'utf8');
    expect(withoutIt).toMatch(/password: ["']{2}/);
    expect(withoutIt).not.toContain(PASSWORD);
    await expect(page.locator('.secret-left-out').textContent()).resolves.toContain('Saved without the password');

    // Typed again and saved: this time a vault, chosen and made with real key events.
    await typeInto(password(), PASSWORD, TYPING_DELAY_MS);
    await page.keyboard.press('Control+S');
    const offer = storeDialog('No secure storage');
    await offer.getByRole('button', { name: 'Create a vault with a passphrase' }).waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.type(PASSPHRASE, { delay: TYPING_DELAY_MS });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type(`${PASSPHRASE}x`, { delay: TYPING_DELAY_MS });
    await page.keyboard.press('Enter');
    await expect(offer.getByRole('alert').textContent()).resolves.toBe('The two passphrases differ.');
    await expect(readdir(home)).resolves.not.toContain('secrets.vault');
    await page.keyboard.press('Backspace');
    await screenshot(page, 'secrets-create-vault');
    await page.keyboard.press('Enter');
    await offer.waitFor({ state: 'detached' });

    await until(async () => (await readFile(requestFile(), 'utf8')).includes('${secret:request/r_whoami/password}'));
    await page.locator('.badge', { hasText: 'stored in the vault' }).waitFor();
    await statusBar().getByRole('button', { name: 'Vault unlocked' }).waitFor();
    expect((await stat(vaultFile())).mode & 0o777).toBe(0o600);

    seen.length = 0;
    await page.keyboard.press('Control+Enter');
    await until(() => seen.length > 0);
    expect(seen).toEqual([basic(PASSWORD)]);

    // A reload of the page: the vault stays unlocked while Parley runs.
    await loadApp(page, app.url);
    await statusBar().getByRole('button', { name: 'Vault unlocked' }).waitFor();
    await openWhoami();
    await page.locator('.badge', { hasText: 'stored in the vault' }).waitFor();
  });

  it('after a restart asks for the passphrase at Send: a wrong one is said so and changes nothing, the right one sends', SLOW, async () => {
    outputs.push(app.output());
    await app.stop();
    app = await startApp([project], { PARLEY_HOME: home, ...NO_BUS });
    await loadApp(page, app.url);
    await statusBar().getByRole('button', { name: 'Vault locked: unlock…' }).waitFor();
    await openWhoami();
    await page.locator('.badge', { hasText: 'in the vault: locked' }).waitFor();

    seen.length = 0;
    await page.getByRole('button', { name: 'Send' }).click();
    const unlock = storeDialog('Unlock the vault');
    await unlock.getByLabel('Passphrase', { exact: true }).waitFor();
    const before = await readFile(vaultFile());
    await page.keyboard.type('not the passphrase', { delay: TYPING_DELAY_MS });
    await page.keyboard.press('Enter');
    await expect(unlock.getByRole('alert').textContent()).resolves.toBe('Wrong passphrase: the vault was not unlocked.');
    expect((await readFile(vaultFile())).equals(before)).toBe(true);
    expect(seen).toEqual([]);
    await screenshot(page, 'secrets-unlock-wrong');

    await page.keyboard.press('Control+A');
    await page.keyboard.type(PASSPHRASE, { delay: TYPING_DELAY_MS });
    await page.keyboard.press('Enter');
    await unlock.waitFor({ state: 'detached' });
    await until(() => seen.length > 0);
    expect(seen).toEqual([basic(PASSWORD)]);
    await statusBar().getByRole('button', { name: 'Vault unlocked' }).waitFor();
    await page.locator('.badge', { hasText: 'stored in the vault' }).waitFor();

    // Lock vault from the status bar: locked again until the passphrase is given.
    await statusBar().getByRole('button', { name: 'Vault unlocked' }).click();
    await statusBar().getByRole('button', { name: 'Vault locked: unlock…' }).waitFor();
  });

  it('Close all saves every tab it can: a typed secret with the vault locked asks, Cancel leaves that tab open, Save without the secret closes it', SLOW, async () => {
    await openWhoami();
    await page.getByRole('button', { name: 'Change… Password' }).click();
    await typeInto(password(), `new-${PASSWORD}`);
    await page.getByRole('treeitem', { name: /Other/ }).dblclick();
    await page.getByLabel('URL', { exact: true }).click();
    await page.keyboard.press('End');
    await page.keyboard.type('/more', { delay: TYPING_DELAY_MS });
    const otherFile = join(project, 'apis', 'Vaulted', 'requests', 'Other.request.yaml');

    await palette(page, 'Close all tabs');
    await page.getByRole('dialog', { name: 'Save changes to 2 tabs?' }).getByRole('button', { name: 'Save all' }).click();
    const unlock = storeDialog('Unlock the vault');
    await unlock.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.locator('.toast-warning').textContent()).resolves.toContain('Not saved, left open: Whoami. The other tab was saved.');
    await until(async () => (await readFile(otherFile, 'utf8')).includes('/other/more'));
    await expect(page.getByRole('tab', { name: /Other/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('tab', { name: /Whoami/ }).count()).resolves.toBe(1);
    await expect(readFile(requestFile(), 'utf8')).resolves.toContain('${secret:request/r_whoami/password}');

    await palette(page, 'Close all tabs');
    await page.getByRole('dialog', { name: /^Save changes to Whoami/ }).getByRole('button', { name: 'Save', exact: true }).click();
    await unlock.getByRole('button', { name: 'Save without the secret' }).click();
    await until(async () => (await page.getByRole('tab', { name: /Whoami/ }).count()) === 0);
    const saved = await readFile(requestFile(), 'utf8');
    expect(saved).toMatch(/password: ["']{2}/);
    expect(saved).not.toContain(PASSWORD);
  });

  it('never shows the passphrase or the password in output, the console, the page, a project file or the data folder', SLOW, async () => {
    outputs.push(app.output());
    const texts = [...outputs, ...consoleLines, await page.content()];
    for (const text of texts) {
      expect(text).not.toContain(PASSPHRASE);
      expect(text).not.toContain(PASSWORD);
    }
    for (const dir of [project, home]) {
      for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const bytes = await readFile(join(entry.parentPath, entry.name));
        expect(bytes.includes(PASSPHRASE), join(entry.parentPath, entry.name)).toBe(false);
        expect(bytes.includes(PASSWORD), join(entry.parentPath, entry.name)).toBe(false);
      }
    }
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
    await expect(codeText(page.getByLabel('Variable value of apiToken', { exact: true }))).resolves.toBe('${secret:staging-eu/apiToken}');
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
