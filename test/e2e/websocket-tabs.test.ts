/**
 * A WebSocket request's tab across a reload (docs/websocket.md): it comes
 * back as the WebSocket editor with its unsaved edit, never as an HTTP editor, and never without its edit.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, launchBrowser, screenshot } from '../support/browser.js';
import { loadApp } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText } from '../support/code-editor.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('WebSocket tabs', () => {
  let home: string;
  let project: string;
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'parley-home-'));
    project = join(home, 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Sockets' });
    const api = await store.createApi({ name: 'Live', baseUrl: '' });
    await store.createRequestOfKind({ parent: api.id, kind: 'websocket', name: 'Echo', url: 'ws://127.0.0.1:9/echo' });
    await store.close();
    app = await startApp([project], { PARLEY_HOME: home });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await loadApp(page, app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('a WebSocket tab with an unsaved edit comes back as a WebSocket tab after a reload', async () => {
    await page.getByRole('treeitem', { name: /Live/ }).click();
    await page.getByRole('treeitem', { name: /WS\s*Echo/ }).dblclick();
    await page.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    const url = page.getByLabel('URL', { exact: true });
    await url.click();
    await page.keyboard.press('End');
    await page.keyboard.type('?again=1', { delay: 20 });
    const edited = await codeText(url);
    // Kept by the supervisor (within a second) with its kind; a reload then loses nothing.
    await until(async () => {
      const kept = JSON.parse(await readFile(join(home, 'session.json'), 'utf8').catch(() => '{}')) as { tabs?: { requestKind?: string; draft?: unknown }[] };
      return kept.tabs?.[0]?.requestKind === 'websocket' && JSON.stringify(kept.tabs[0].draft ?? '').includes('?again=1');
    }, 15_000);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await screenshot(page, 'websocket-tab-reloaded');
    await page.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    await until(async () => (await codeText(page.getByLabel('URL', { exact: true }))) === edited);
    await expect(page.getByRole('tablist', { name: 'Open tabs' }).getByRole('tab', { name: /Echo/ }).locator('.dirty-dot').count()).resolves.toBe(1);
    await expect(page.getByText('Unsaved edits restored from your last session').count()).resolves.toBe(1);
  }, 60_000);
});
