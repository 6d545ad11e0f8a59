/**
 * Import cURL with a command that sends a file of this computer (issue 26): the dialog lists the
 * file with its path and size and a box, unticked, that allows copying it into the project.
 * Unticked, the request is imported without the file and nothing is copied; ticked, the file is
 * copied into files/ and the toast names the copy. What lands on disk is read back.
 */
import { mkdtemp, readFile, readdir, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';

const missing = chromiumMissing();
const NOTES = 'LOCAL NOTES 123';

describe.skipIf(missing !== null)('Import cURL of a command that sends a local file', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let work: string;
  let project: string;
  let local: string;

  beforeAll(async () => {
    work = await realpath(await mkdtemp(join(tmpdir(), 'parley-curl-files-e2e-')));
    local = join(work, 'notes.txt');
    await writeFile(local, NOTES);
    project = join(work, 'shared');
    const store = await ProjectStore.open(project, { create: true, name: 'Shared' });
    await store.createApi({ name: 'Uploads', baseUrl: 'http://127.0.0.1:9' });
    await store.close();
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** The saved request file named `name`, read from disk. */
  async function savedRequest(name: string): Promise<{ body: { multipart: { name: string; file: string }[] } }> {
    const file = (await readdir(join(project, 'apis'), { recursive: true })).find((f) => f.endsWith(`${name}.request.yaml`));
    expect(file, `${name}.request.yaml`).toBeDefined();
    return parseYaml(await readFile(join(project, 'apis', file!), 'utf8'));
  }

  async function openDialog(name: string) {
    await page.getByRole('treeitem', { name: /Uploads/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Import cURL…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import cURL' });
    await dialog.getByLabel('curl command').click();
    await page.keyboard.type(`curl http://127.0.0.1:9/up -F note=hello -F doc=@${local}`, { delay: 5 });
    await dialog.getByLabel('Request name').click();
    await page.keyboard.type(name, { delay: 5 });
    const files = dialog.getByRole('region', { name: 'Local files' });
    await files.waitFor();
    return { dialog, files };
  }

  it('lists the file with its path and size; unticked, imports the request without it and copies nothing', async () => {
    const { dialog, files } = await openDialog('Unticked');
    const shown = (await files.textContent()) ?? '';
    expect(shown).toContain(local);
    expect(shown).toContain(`${NOTES.length} B, the multipart part "doc"`);
    const consent = files.getByRole('checkbox', { name: 'Copy this file into the project' });
    expect(await consent.isChecked()).toBe(false);
    await screenshot(page, 'import-curl-local-file');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.locator('.toast', { hasText: 'Imported Unticked' }).textContent()).resolves.toContain(`Not copied (the request has no file there): ${local}.`);
    expect((await savedRequest('Unticked')).body.multipart).toMatchObject([
      { name: 'note', value: 'hello' },
      { name: 'doc', file: '' },
    ]);
    await expect(readdir(join(project, 'files'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('ticked, copies the file into files/, the request names the copy, and the toast names both', async () => {
    const { dialog, files } = await openDialog('Ticked');
    await files.getByRole('checkbox', { name: 'Copy this file into the project' }).check();
    // The first import's toast may still show: it sits clear of the dialog's buttons, not over them.
    const button = (await dialog.getByRole('button', { name: 'Import' }).boundingBox())!;
    for (const shown of await page.locator('.toast').all()) {
      const box = await shown.boundingBox();
      if (box) expect(box.y + box.height <= button.y || box.y >= button.y + button.height || box.x + box.width <= button.x || box.x >= button.x + button.width, `a toast at ${JSON.stringify(box)} covers Import at ${JSON.stringify(button)}`).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.locator('.toast', { hasText: 'Imported Ticked' }).textContent()).resolves.toContain(`Copied into the project: ${local} -> files/notes.txt.`);
    expect((await savedRequest('Ticked')).body.multipart).toMatchObject([
      { name: 'note', value: 'hello' },
      { name: 'doc', file: 'files/notes.txt' },
    ]);
    expect(await readdir(join(project, 'files'))).toEqual(['notes.txt']);
    expect(await readFile(join(project, 'files', 'notes.txt'), 'utf8')).toBe(NOTES);
  });
});
