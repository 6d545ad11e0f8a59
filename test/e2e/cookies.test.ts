/**
 * The cookie jar in real Chromium, against a real server on 127.0.0.1: Send cookies in the
 * Settings tab, each Set-Cookie's outcome on the response's Cookies tab, and the jar tab (from
 * the response, the palette and the Environments view): Show values, edit, add, delete a domain,
 * Clear all after confirmation; and the message where the system has no secure storage.
 * Screenshots go to test-results/screenshots/cookies-*.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi, loadApp } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();

/** /login redirects to /home; both set cookies (one Secure, one for another domain: ignored); /echo answers with the Cookie header it got. */
async function cookieServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/login') {
      res.writeHead(302, { Location: '/home', 'Set-Cookie': ['session=s3cr3t-session-value; Path=/; HttpOnly', 'theme=dark; Path=/; Max-Age=86400'] }).end();
    } else if (path === '/home') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': ['visits=1; Path=/; Max-Age=3600', 'tracker=1; Domain=ads.example.com', 'secure-only=1; Secure', 'theme=; Path=/; Max-Age=0'] }).end('{"home":true}');
    } else {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ cookie: req.headers.cookie ?? null }));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

describe.skipIf(missing !== null)('cookie jar', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;

  beforeAll(async () => {
    const peer = await cookieServer();
    server = peer.server;
    const home = await mkdtemp(join(tmpdir(), 'parley-e2e-cookies-'));
    const projectDir = join(home, 'shop');
    const store = await ProjectStore.open(projectDir, { create: true, name: 'Shop' });
    const api = await store.createApi({ name: 'Shop API', baseUrl: peer.base });
    await store.createRequest({ parent: api.id, name: 'Log in', method: 'GET', url: '/login' });
    await store.createRequest({ parent: api.id, name: 'Echo cookies', method: 'GET', url: '/echo' });
    await store.close();
    ({ app, browser, page } = await openUi([projectDir], { env: { PARLEY_HOME: home } }));
    await page.getByRole('treeitem', { name: /Shop API/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  const responseTab = (name: string) => page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: new RegExp(`^${name}`) });
  const jarTable = () => page.locator('.jar-table');
  const sendAndWait = async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('status').waitFor();
  };

  it('turns Send cookies on in the Settings tab and shows what became of each Set-Cookie, hop by hop', async () => {
    await page.getByRole('treeitem', { name: /Log in/ }).click();
    await page.getByRole('tab', { name: 'Settings' }).click();
    const toggle = page.getByLabel('Send cookies');
    await expect(toggle.isChecked()).resolves.toBe(false);
    await toggle.check();
    await screenshot(page, 'cookies-settings-toggle');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await sendAndWait();
    await responseTab('Cookies').click();
    const rows = page.locator('.cookie-outcomes tbody tr');
    await expect(rows.count()).resolves.toBe(6);
    const text = async (i: number) => (await rows.nth(i).innerText()).replace(/\s+/g, ' ');
    await expect(text(0)).resolves.toMatch(/^session •••••• Stored Session/);
    await expect(text(1)).resolves.toMatch(/^theme •••••• Stored/);
    await expect(text(2)).resolves.toMatch(/^visits •••••• Stored/);
    await expect(text(3)).resolves.toContain('Ignored Domain=ads.example.com does not match the host 127.0.0.1.');
    await expect(text(4)).resolves.toMatch(/Ignored\s*A Secure cookie may only be set over https/);
    await expect(text(5)).resolves.toContain('Deleted from the jar Max-Age=0');
    await expect(page.locator('.cookie-outcomes').innerText()).resolves.not.toContain('s3cr3t-session-value');
    await page.getByRole('checkbox', { name: 'Show values' }).check();
    await expect(text(0)).resolves.toContain('s3cr3t-session-value');
    await screenshot(page, 'cookies-response-outcomes');
  });

  it('sends the jar\'s cookies with a request whose Send cookies is on', async () => {
    await page.getByRole('treeitem', { name: /Echo cookies/ }).click();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Send cookies').check();
    await sendAndWait();
    await expect(codeText(page.getByLabel('Response body'))).resolves.toContain('session=s3cr3t-session-value; visits=1');
  });

  it('opens the jar from the response: values masked until Show values, filtered to the host', async () => {
    await page.getByRole('treeitem', { name: /Log in/ }).click();
    await responseTab('Cookies').click();
    await page.getByRole('checkbox', { name: 'Show values' }).uncheck();
    await page.getByRole('button', { name: 'Manage cookies…' }).click();
    await jarTable().waitFor();
    await expect(page.getByLabel('Filter cookies').inputValue()).resolves.toBe('127.0.0.1');
    await expect(page.getByTestId('jar-count').textContent()).resolves.toBe('2 cookies in 1 domain');
    await expect(jarTable().innerText()).resolves.not.toContain('s3cr3t-session-value');
    await expect(page.locator('.jar-status').textContent()).resolves.toContain('encrypted with a key in the system keychain');
    await page.locator('.cookie-jar').getByRole('checkbox', { name: 'Show values' }).check();
    // The values come from the supervisor after the tick: wait for them rather than read once (a loaded machine read the masks).
    await until(async () => (await jarTable().innerText()).includes('s3cr3t-session-value'), 10_000, () => 'the jar never showed the cookie value after Show values');
    await expect(jarTable().innerText()).resolves.toContain('s3cr3t-session-value');
    await screenshot(page, 'cookies-jar-values');
  });

  it('edits a cookie, and the next request sends the edited value', async () => {
    await page.getByRole('button', { name: 'Edit visits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit cookie visits' });
    await expect(dialog.getByLabel('Cookie value').inputValue()).resolves.toBe('1');
    await dialog.getByLabel('Cookie value').fill('42');
    await screenshot(page, 'cookies-edit-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.jar-table tr', { hasText: 'visits' }).getByText('42', { exact: true }).waitFor();
    await page.getByRole('treeitem', { name: /Echo cookies/ }).click();
    await sendAndWait();
    await expect(codeText(page.getByLabel('Response body'))).resolves.toContain('visits=42');
  });

  it('adds a cookie for another domain from the palette\'s View: Show Cookies, then deletes that whole domain', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).getByRole('textbox').fill('Show Cookies');
    await page.getByRole('option', { name: /View: Show Cookies/ }).click();
    await jarTable().waitFor();
    await expect(page.getByLabel('Filter cookies').inputValue()).resolves.toBe('');
    await page.getByRole('button', { name: 'Add cookie…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a cookie' });
    await dialog.getByLabel('Cookie domain').fill('api.example.com');
    await dialog.getByLabel('Cookie name').fill('token');
    await dialog.getByLabel('Cookie value').fill('typed');
    await dialog.getByRole('checkbox', { name: 'Secure (https only)' }).check();
    await dialog.getByRole('button', { name: 'Add' }).click();
    const group = page.getByRole('rowgroup', { name: 'Cookies of api.example.com' });
    await group.waitFor();
    await expect(page.getByTestId('jar-count').textContent()).resolves.toBe('3 cookies in 2 domains');
    await screenshot(page, 'cookies-jar-two-domains');
    await group.getByRole('button', { name: 'Delete domain' }).click();
    await group.waitFor({ state: 'detached' });
    await expect(page.getByTestId('jar-count').textContent()).resolves.toBe('2 cookies in 1 domain');
  });

  it('clears the whole jar only after confirmation, from the palette or the jar tab reached from the Environments view', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).getByRole('textbox').fill('Cookies: Clear');
    await page.getByRole('option', { name: /Cookies: Clear all…/ }).click();
    await page.getByRole('dialog', { name: 'Clear all cookies?' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('jar-count').textContent()).resolves.toBe('2 cookies in 1 domain');
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).getByRole('textbox').fill('Environments');
    await page.getByRole('option', { name: /Environments and globals/ }).click();
    await page.getByRole('button', { name: 'Cookies…' }).click();
    await jarTable().waitFor();
    await page.getByRole('button', { name: 'Clear all…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Clear all cookies?' });
    await expect(confirm.textContent()).resolves.toContain('2 cookies');
    await screenshot(page, 'cookies-clear-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('jar-count').textContent()).resolves.toBe('2 cookies in 1 domain');
    await page.getByRole('button', { name: 'Clear all…' }).click();
    await page.getByRole('dialog', { name: 'Clear all cookies?' }).getByRole('button', { name: 'Clear all' }).click();
    await page.getByText('The jar is empty.').waitFor();
    await expect(page.getByTestId('jar-count').textContent()).resolves.toBe('empty');
    await screenshot(page, 'cookies-jar-empty');
  });

  it('says so on the jar tab where the system has no secure storage', async () => {
    const home = await mkdtemp(join(tmpdir(), 'parley-e2e-nokeychain-'));
    const bare = await startApp([], { PARLEY_HOME: home, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/parley-e2e-bus' });
    const other = await browser.newPage();
    try {
      await loadApp(other, bare.url);
      await other.keyboard.press('Control+Shift+P');
      await other.getByRole('dialog', { name: 'Command palette' }).getByRole('textbox').fill('Show Cookies');
      await other.getByRole('option', { name: /View: Show Cookies/ }).click();
      const note = other.locator('.jar-status');
      await note.waitFor();
      await expect(note.textContent()).resolves.toMatch(/^No secure storage on this system: .*Cookies are kept only until Parley quits; nothing is written to disk\.$/);
      await screenshot(other, 'cookies-no-secure-storage');
    } finally {
      await other.close();
      await bare.stop();
    }
    // A second app starts here: on a loaded machine that alone takes seconds.
  }, 90_000);
});
