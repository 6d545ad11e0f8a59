/**
 * Session restore in real Chromium against the real `parley ui`: stopped with SIGINT and started
 * again with the same PARLEY_HOME, a new page finds the projects, the tabs (in order, the active
 * one), the unsaved draft typed with real keys, the pane size and the environment as they were,
 * with the typed token left out of everything on disk and named in the tab's banner. A reload
 * does the same. The page left open across the restart says Parley was restarted and where the
 * new address is, and stops trying; a page whose Parley stopped says that. A project folder that
 * went away is reported once and dropped from the session.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, launchBrowser, screenshot } from '../support/browser.js';
import { loadApp } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 20;
const TOKEN = 'typed-secret-token-7f3a';

const WORKSPACE = `version: 1
environments:
  - id: env_staging
    name: Staging
    variables: []
  - id: env_production
    name: Production
    variables: []
globals: []
preferences:
  theme: system
  proxy: ''
  caBundle: ''
  mockListenAllInterfaces: false
secrets: []
recentProjects: []
`;

/** Stops `parley ui` as Ctrl+C in its terminal does, and waits for it to exit. */
function interrupt(app: RunningApp): Promise<number | null> {
  return new Promise((resolve) => {
    if (app.child.exitCode !== null) return resolve(app.child.exitCode);
    app.child.once('exit', (code) => resolve(code));
    app.child.kill('SIGINT');
  });
}

/** Every file under `dir` that holds `text`. */
async function filesHolding(dir: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path)).includes(text)) found.push(path);
  }
  return found;
}

describe.skipIf(missing !== null)('session restore', () => {
  let home: string;
  let other: string;
  let first: RunningApp;
  let second: RunningApp | undefined;
  let third: RunningApp | undefined;
  let browser: BrowserContext;
  let oldPage: Page;
  let page: Page;
  const oldSockets: string[] = [];

  const session = async () => JSON.parse(await readFile(join(home, 'session.json'), 'utf8')) as { projects: string[]; tabs: { title: string; draft?: unknown }[]; active?: number };
  const tabTitles = (p: Page) => p.getByRole('tablist', { name: 'Open tabs' }).locator('[role=tab] .tab-title').allTextContents();
  const tab = (p: Page, name: string) => p.getByRole('tablist', { name: 'Open tabs' }).getByRole('tab', { name });
  const activeTitle = (p: Page) => p.locator('[role=tab][aria-selected=true] .tab-title').textContent();
  const sidebarSize = (p: Page) => p.getByRole('separator', { name: 'Resize the sidebar' }).getAttribute('aria-valuenow');

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'parley-home-'));
    other = join(home, 'second-project');
    await writeFile(join(home, 'workspace.yaml'), WORKSPACE);
    first = await startApp(['--demo', other], { PARLEY_HOME: home });
    browser = await launchBrowser();
    oldPage = await browser.newPage();
    oldPage.on('websocket', (ws) => oldSockets.push(ws.url()));
    await loadApp(oldPage, first.url);
  });
  afterAll(async () => {
    await browser?.close();
    for (const app of [first, second, third]) await app?.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('reopens the projects, tabs (order, active), the draft, the pane size and the environment after a restart', async () => {
    const p = oldPage;
    await p.getByRole('treeitem', { name: 'second-project', exact: true }).waitFor();
    await p.getByRole('treeitem', { name: /Pet Store/ }).click();
    await p.getByRole('treeitem', { name: 'pets' }).click();
    for (const name of [/List pets/, /Get a pet/, /Create a pet/]) await p.getByRole('treeitem', { name }).dblclick();
    await until(async () => (await tabTitles(p)).join() === 'List pets,Get a pet,Create a pet');

    // An unsaved edit typed key by key, and a token typed into the auth.
    await tab(p, 'Get a pet').click();
    const url = p.getByLabel('URL', { exact: true });
    await url.click();
    await p.keyboard.press('End');
    await p.keyboard.type('?restored=yes', { delay: TYPING_DELAY_MS });
    await p.getByRole('tab', { name: /^Auth/ }).click();
    await p.getByLabel('Auth type').selectOption('bearer');
    await p.getByLabel('Token', { exact: true }).click();
    await p.keyboard.type(TOKEN, { delay: TYPING_DELAY_MS });
    const editedUrl = await codeText(url);
    expect(editedUrl).toMatch(/\?restored=yes$/);

    // A pane resized with its handle's keys, an environment picked, and the first tab active again.
    const separator = p.getByRole('separator', { name: 'Resize the sidebar' });
    const before = Number(await separator.getAttribute('aria-valuenow'));
    await separator.focus();
    for (let i = 0; i < 3; i++) await p.keyboard.press('ArrowRight');
    const resized = String(before + 48);
    await until(async () => (await sidebarSize(p)) === resized);
    await p.getByLabel('Active environment').selectOption({ label: 'Staging' });
    await tab(p, 'List pets').click();

    // Kept by the supervisor within a second; the token is not in it.
    await until(async () => {
      const kept = await session().catch(() => null);
      return kept?.active === 0 && JSON.stringify(kept.tabs[1]?.draft ?? '').includes('?restored=yes');
    }, 15_000);
    await until(async () => /sidebar: \d+/.test(await readFile(join(home, 'workspace.yaml'), 'utf8')));
    await screenshot(p, 'session-before-restart');

    const port = new URL(first.url).port;
    expect(await interrupt(first)).toBe(0);
    expect(first.output()).toContain('Stopping Parley');
    const kept = await session();
    expect(kept.tabs.map((t) => t.title)).toEqual(['List pets', 'Get a pet', 'Create a pet']);
    expect(kept.projects).toEqual(expect.arrayContaining([join(home, 'demo-project'), other]));
    expect(await filesHolding(home, TOKEN)).toEqual([]);

    // Started again on the same port (so the page left open meets the new token), without --demo
    // or a folder: what opens comes from the session.
    second = await startApp(['--port', port], { PARLEY_HOME: home });
    page = await browser.newPage();
    await loadApp(page, second.url);
    await page.getByRole('treeitem', { name: 'Demo', exact: true }).waitFor();
    await page.getByRole('treeitem', { name: 'second-project', exact: true }).waitFor();
    await until(async () => (await tabTitles(page)).join() === 'List pets,Get a pet,Create a pet');
    await until(async () => (await activeTitle(page)) === 'List pets');
    await until(async () => (await sidebarSize(page)) === resized);
    await expect(page.getByLabel('Active environment').evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).resolves.toBe('Staging');

    await expect(tab(page, 'Get a pet').locator('.dirty-dot').count()).resolves.toBe(1);
    await tab(page, 'Get a pet').click();
    await until(async () => (await codeText(page.getByLabel('URL', { exact: true }))) === editedUrl);
    const banner = page.locator('.restored-banner');
    await expect(banner.textContent()).resolves.toMatch(/Unsaved edits restored from your last session\..*left out.*auth token/);
    await page.getByRole('tab', { name: /^Auth/ }).click();
    await expect(page.getByLabel('Auth type').inputValue()).resolves.toBe('bearer');
    await expect(codeText(page.getByLabel('Token', { exact: true }))).resolves.toBe('');
    await screenshot(page, 'session-restored');
  }, 120_000);

  it('the page left open across the restart says Parley was restarted and how to get back, and stops trying', async () => {
    const alert = oldPage.locator('.banner-lost');
    await until(async () => ((await alert.textContent().catch(() => '')) ?? '').includes('Parley was restarted'), 30_000);
    const text = (await alert.textContent())!;
    expect(text).toContain('Parley is running at http://127.0.0.1:');
    expect(text).toContain('parley ui');
    await expect(oldPage.locator('.statusbar .conn').textContent()).resolves.toContain('Parley was restarted');
    await screenshot(oldPage, 'session-old-page');
    // Final: the next checks (a reload of the other page) take far longer than any retry would.
    const sockets = oldSockets.length;
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await until(async () => (await tabTitles(page)).length === 3);
    expect(oldSockets.length).toBe(sockets);
    await expect(alert.textContent()).resolves.toContain('Parley was restarted');
  }, 60_000);

  it('a reload brings back the same tabs, the active one and every draft', async () => {
    await tab(page, 'Create a pet').click();
    const url = page.getByLabel('URL', { exact: true });
    await url.click();
    await page.keyboard.press('End');
    await page.keyboard.type('?again=1', { delay: TYPING_DELAY_MS });
    const edited = await codeText(url);
    await until(async () => {
      const kept = await session().catch(() => null);
      return kept?.active === 2 && JSON.stringify(kept.tabs[2]?.draft ?? '').includes('?again=1');
    }, 15_000);
    // The session holds every edit, so leaving asks nothing.
    let asked = false;
    page.once('dialog', (dialog) => {
      asked = true;
      void dialog.accept();
    });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(asked).toBe(false);
    await until(async () => (await tabTitles(page)).join() === 'List pets,Get a pet,Create a pet');
    await until(async () => (await activeTitle(page)) === 'Create a pet');
    await until(async () => (await codeText(page.getByLabel('URL', { exact: true }))) === edited);
    await tab(page, 'Get a pet').click();
    await until(async () => (await codeText(page.getByLabel('URL', { exact: true }))).endsWith('?restored=yes'));
  }, 60_000);

  it('a page whose Parley stopped says so; a project folder that went away is reported once and dropped', async () => {
    expect(await interrupt(second!)).toBe(0);
    await until(async () => ((await page.locator('.banner-lost').textContent().catch(() => '')) ?? '').includes('Parley is not running at this address'), 30_000);
    await screenshot(page, 'session-stopped');

    await rm(other, { recursive: true, force: true });
    third = await startApp([], { PARLEY_HOME: home });
    await until(() => /second-project" from the last session could not be opened/.test(third!.output()));
    const fresh = await browser.newPage();
    await loadApp(fresh, third.url);
    await fresh.locator('.toast', { hasText: 'from the last session could not be opened' }).waitFor();
    await fresh.getByRole('treeitem', { name: 'Demo', exact: true }).waitFor();
    await expect(fresh.getByRole('treeitem', { name: 'second-project', exact: true }).count()).resolves.toBe(0);
    await until(async () => !(await session()).projects.includes(other));
    // Said once: a reload does not say it again.
    await fresh.reload();
    await fresh.waitForSelector('body[data-ready="true"]');
    await until(async () => (await tabTitles(fresh)).length === 3);
    await expect(fresh.locator('.toast', { hasText: 'from the last session could not be opened' }).count()).resolves.toBe(0);
  }, 90_000);
});
