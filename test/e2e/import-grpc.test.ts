/**
 * gRPC import in the app (issue 30): the Import dialog's Server tab reads a real reflection
 * server (test/support/grpc-reflection-server.ts) and the summary says from which reflection
 * version and address; the tree then shows the gRPC API's service folders and methods. A .proto
 * typed into the Paste tab imports too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { startReflectionServer, type ReflectionServer } from '../support/grpc-reflection-server.js';

const missing = chromiumMissing();
const STEP_MS = 30_000;

describe.skipIf(missing !== null)('gRPC import from the dialog', { timeout: 180_000 }, () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: ReflectionServer;

  beforeAll(async () => {
    server = await startReflectionServer({ reflection: 'v1alpha' });
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: STEP_MS }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await server?.close();
  });

  it('the Server tab imports by reflection; the tree shows the services and their methods', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('tab', { name: 'Server' }).click();
    await dialog.getByLabel('Server address').click();
    await page.keyboard.type(server.address, { delay: 20 });
    await dialog.getByLabel('Reflection version').selectOption('auto');
    await dialog.getByLabel('API name').click();
    await page.keyboard.type('Shop', { delay: 20 });
    await screenshot(page, 'import-grpc-server-tab');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.waitFor();
    await expect(summary.textContent()).resolves.toContain(`Imported from reflection v1alpha at ${server.address}: 2 services`);
    await screenshot(page, 'import-grpc-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByLabel('Filter requests').fill('SayHello');
    const method = page.getByRole('treeitem', { name: /SayHello/ }).first();
    await method.waitFor();
    await expect(method.textContent()).resolves.toMatch(/^gRPC/i);
    await expect(page.getByRole('treeitem', { name: /hello\.HelloService/ }).count()).resolves.toBeGreaterThan(0);
    await expect(page.getByRole('treeitem', { name: /Shop/ }).count()).resolves.toBeGreaterThan(0);
    await page.getByLabel('Filter requests').fill('');
  });

  it('a .proto typed into the Paste tab imports as a gRPC API', async () => {
    await page.keyboard.press('Control+I');
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('tab', { name: 'Paste' }).click();
    await dialog.getByLabel('Pasted document').click();
    await page.keyboard.type('syntax = "proto3";\npackage clock;\nservice Clock {\nrpc Tick (T) returns (T);\n}\nmessage T { int32 n = 1; }\n', { delay: 5 });
    const badge = dialog.getByRole('status', { name: 'Detected format' });
    await badge.getByText('Protocol Buffers (proto3)').waitFor();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.waitFor();
    await expect(summary.textContent()).resolves.toContain('Imported from files: 1 service, 1 method');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByLabel('Filter requests').fill('Tick');
    await page.getByRole('treeitem', { name: /Tick/ }).first().waitFor();
  });
});
