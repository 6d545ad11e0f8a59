/**
 * Body files in real Chromium: a project that names a file outside itself (as a cloned project
 * could) shows where the file would come from and Send refuses it, uploading nothing; choosing a
 * file copies it into the project's files/ folder, and Send then uploads that copy.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { blankRequest, emptyBody } from '../../protocol/model/request.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('body files', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;
  let work: string;
  let project: string;
  const uploads: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        uploads.push(Buffer.concat(chunks).toString());
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"stored":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    work = await mkdtemp(join(tmpdir(), 'parley-body-files-e2e-'));
    await writeFile(join(work, 'private-key.pem'), 'PRIVATE KEY OF THE USER');
    await mkdir(join(work, 'picked'));
    await writeFile(join(work, 'picked', 'avatar.png'), 'AVATAR BYTES');
    project = join(work, 'cloned');
    const store = await ProjectStore.open(project, { create: true, name: 'Cloned' });
    const api = await store.createApi({ name: 'Uploads', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const request = blankRequest({ id: 'r_upload', name: 'Upload avatar', method: 'POST', url: '/upload' });
    await store.commit([store.newRequestChange(api.id, '', { ...request, body: { ...emptyBody(), kind: 'binary', binary: { file: join(work, 'private-key.pem'), contentType: 'image/png' } } })]);
    await store.close();

    // Under the test's 30 s, so a step that never happens is named (it timed out once, in one full run).
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /Uploads/ }).click();
    await page.getByRole('treeitem', { name: /Upload avatar/ }).click();
    await page.getByRole('tab', { name: /^Body/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    server?.close();
  });

  it('shows that a file outside the project is refused, and Send uploads nothing', async () => {
    await expect(page.getByLabel('Binary file').inputValue()).resolves.toBe(join(work, 'private-key.pem'));
    await page.getByRole('status').filter({ hasText: 'Outside the project: Send refuses it.' }).waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    const alert = page.locator('.response-error');
    await alert.waitFor();
    await expect(alert.locator('strong').textContent()).resolves.toBe('Not sent');
    await expect(alert.locator('p').textContent()).resolves.toMatch(/^The binary body's file ".*private-key\.pem" is absolute/);
    await screenshot(page, 'body-file-outside');
    expect(uploads).toEqual([]);
  });

  it('copies a chosen file into the project, shows where it comes from, and uploads it', async () => {
    await page.getByRole('button', { name: 'Choose…' }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose a file' });
    await chooser.getByLabel('Folder').fill(join(work, 'picked'));
    await chooser.getByRole('button', { name: 'Go' }).click();
    await chooser.getByText('avatar.png').click();

    await until(
      async () => (await page.getByLabel('Binary file').inputValue()) === 'files/avatar.png',
      10_000,
      () => 'the Binary file field never named files/avatar.png (see the toasts in the screenshot body-file-not-copied)',
    ).catch(async (err: unknown) => {
      await screenshot(page, 'body-file-not-copied');
      throw err;
    });
    await page.getByText('From the project folder: files/avatar.png').waitFor();
    await page.getByText('Copied avatar.png into the project as files/avatar.png').waitFor();
    await screenshot(page, 'body-file-copied');
    await expect(readFile(join(project, 'files', 'avatar.png'), 'utf8')).resolves.toBe('AVATAR BYTES');

    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('201');
    expect(uploads).toEqual(['AVATAR BYTES']);
  });
});
