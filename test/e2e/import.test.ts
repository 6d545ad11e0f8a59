/**
 * The Import dialog and the definition update in real Chromium against a real `parley ui --demo`:
 * paste with the auto-detect badge and the summary, a file picked in the chooser into a new
 * project, Cancel during a slow URL fetch, a malformed document's error, and Update definition…
 * with its preview, Apply counts and the changed-since-the-preview refusal.
 * Screenshots go to test-results/screenshots/import-* and update-*.
 */
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { startApp, type RunningApp } from '../support/app.js';
import { chromiumMissing, launchBrowser, screenshot } from '../support/browser.js';

const missing = chromiumMissing();
const FIXTURES = join(repoRoot(), 'test', 'fixtures', 'importers', 'openapi');
const NOTES = join(FIXTURES, 'ui', 'notes.yaml');
const TICTACTOE = join(FIXTURES, 'learn-openapis', 'v3.1', 'tictactoe.yaml');

describe.skipIf(missing !== null)('import dialog and definition update', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-import-e2e-'));
    app = await startApp(['--demo']);
    browser = await launchBrowser();
    page = await browser.newPage();
    // A stuck step fails naming its locator, inside the test's own time limit.
    page.setDefaultTimeout(15_000);
    await page.goto(app.url);
    await page.waitForSelector('body[data-ready="true"]');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const importDialog = () => page.getByRole('dialog', { name: 'Import' });
  const toasts = () => page.locator('.toast');
  const dismissToasts = async () => {
    for (const button of await page.getByRole('button', { name: 'Dismiss' }).all()) await button.click();
  };
  /** The sidebar filter shows a request with its API and folders opened, whatever was expanded. */
  const showInTree = async (text: string) => {
    await page.getByLabel('Filter requests').fill(text);
    return page.getByRole('treeitem', { name: new RegExp(text) });
  };

  it('imports pasted OpenAPI YAML into the open project, with the badge and the summary', async () => {
    await page.keyboard.press('Control+I');
    const dialog = importDialog();
    await dialog.waitFor();
    // The URL tab first: its Authentication section, with the password masked.
    await dialog.getByRole('radio', { name: 'Basic' }).click();
    await dialog.getByLabel('Document URL').fill('https://api.example.com/openapi.yaml');
    await dialog.getByLabel('Username').fill('alice');
    await dialog.getByLabel('Password').fill('s3cret');
    await expect(dialog.getByLabel('Password').getAttribute('type')).resolves.toBe('password');
    await screenshot(page, 'import-url-auth');

    await dialog.getByRole('tab', { name: 'Paste' }).click();
    await dialog.getByLabel('Pasted document').fill(await readFile(NOTES, 'utf8'));
    const badge = dialog.getByRole('status', { name: 'Detected format' });
    await badge.getByText(/OpenAPI 3\./).waitFor();
    await expect(badge.textContent()).resolves.toMatch(/OpenAPI 3\.0\.3\s*by its content/);
    await expect(dialog.getByLabel('Open project', { exact: true }).inputValue()).resolves.toBe(join(app.home, 'demo-project'));
    await expect(dialog.getByLabel('Cache specification documents with the project').isChecked()).resolves.toBe(true);
    await expect(dialog.getByLabel('Import webhooks & callbacks').isChecked()).resolves.toBe(true);
    await screenshot(page, 'import-paste-detected');

    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.waitFor();
    const fact = (name: string) => summary.getByRole('row', { name: new RegExp(`^${name}`) }).locator('td').textContent();
    await expect(fact('Declared version')).resolves.toBe('OpenAPI 3.0');
    await expect(fact('API version')).resolves.toBe('1.0.0');
    await expect(fact('Base URL')).resolves.toBe('https://notes.example.com/v1');
    await expect(fact('Requests')).resolves.toBe('4');
    await expect(fact('Folders')).resolves.toBe('2');
    const schemes = summary.getByRole('region', { name: 'Security schemes' });
    await expect(schemes.getByRole('listitem').count()).resolves.toBe(2);
    await screenshot(page, 'import-summary');

    await schemes.getByRole('button', { name: 'Use apiKey' }).click();
    await toasts().filter({ hasText: 'Notes now authenticates with apiKey' }).waitFor();
    await summary.getByRole('button', { name: 'Open API' }).click();
    await expect(dialog.count()).resolves.toBe(0);

    // The API tab: its auth is the scheme just used, and its Definition group says pasted text.
    await page.getByRole('tab', { name: /Notes/ }).waitFor();
    await expect(page.getByLabel('Auth type').inputValue()).resolves.toBe('apikey');
    const definition = page.getByRole('region', { name: 'Definition' });
    await expect(definition.textContent()).resolves.toMatch(/Pasted text/);
    await expect(page.getByRole('treeitem', { name: 'Notes', exact: true }).count()).resolves.toBe(1);
    await expect((await showInTree('List notes')).count()).resolves.toBe(1);
    await expect((await showInTree('List archived notes')).count()).resolves.toBe(1);
    await screenshot(page, 'import-paste-tree');
    await page.getByLabel('Filter requests').fill('');
  });

  it('imports a file picked in the chooser into a new project, which opens in the sidebar', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).getByPlaceholder('Type a command').fill('Import');
    await page.getByRole('option', { name: /^Import…/ }).waitFor();
    await page.keyboard.press('Enter');
    const dialog = importDialog();
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByRole('button', { name: 'Choose…' }).click();

    const chooser = page.getByRole('dialog', { name: 'Choose a file' });
    await chooser.getByLabel('Folder').fill(dirname(TICTACTOE));
    await chooser.getByRole('button', { name: 'Go' }).click();
    await chooser.getByText('tictactoe.yaml').waitFor();
    await screenshot(page, 'import-file-chooser');
    await chooser.getByText('tictactoe.yaml').click();

    await expect(dialog.getByLabel('File path').inputValue()).resolves.toBe(TICTACTOE);
    await dialog.getByRole('status', { name: 'Detected format' }).getByText('OpenAPI 3.1.0').waitFor();
    await dialog.getByRole('radio', { name: 'A new project' }).check();
    await dialog.getByLabel('New project folder').fill(join(work, 'games'));
    await dialog.getByLabel('New project name').fill('Games');
    await screenshot(page, 'import-file-new-project');
    await dialog.getByLabel('New project name').press('Enter');

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.waitFor();
    await expect(summary.textContent()).resolves.toMatch(/Into the new project Games, now open in the sidebar/);
    await expect(summary.getByRole('row', { name: /^Declared version/ }).textContent()).resolves.toMatch(/OpenAPI 3\.1/);
    await screenshot(page, 'import-file-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('treeitem', { name: 'Games', exact: true }).waitFor();
    await expect(page.getByRole('treeitem', { name: 'Tic Tac Toe', exact: true }).count()).resolves.toBe(1);
  });

  it('cancels a slow URL import: progress, then back to the form with nothing added', async () => {
    const held: ServerResponse[] = [];
    let socketClosed = false;
    const server: Server = createServer((req, res) => {
      held.push(res);
      req.socket.on('close', () => (socketClosed = true));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow/openapi.yaml`;
    try {
      await dismissToasts();
      const apisBefore = await page.locator('.tree-row.kind-api').count();
      await page.getByRole('treeitem', { name: 'Demo', exact: true }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: /^Import…/ }).click();
      const dialog = importDialog();
      await dialog.getByLabel('Document URL').fill(url);
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();

      const progress = dialog.getByRole('progressbar', { name: 'Import progress' });
      await progress.waitFor();
      await expect(dialog.getByRole('status', { name: 'Import progress' }).textContent()).resolves.toContain(`Fetching 127.0.0.1:`);
      await expect.poll(() => held.length, { timeout: 10_000 }).toBe(1);
      await expect(dialog.getByLabel('Document URL').isDisabled()).resolves.toBe(true);
      await screenshot(page, 'import-progress');

      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.getByText('Import cancelled: nothing was added.').waitFor();
      await expect(progress.count()).resolves.toBe(0);
      await expect(dialog.getByRole('alert').count()).resolves.toBe(0);
      await expect(dialog.getByLabel('Document URL').inputValue()).resolves.toBe(url);
      // The importer child was killed, so its connection to the server went away.
      await expect.poll(() => socketClosed, { timeout: 10_000 }).toBe(true);
      await page.waitForTimeout(500);
      await expect(toasts().count()).resolves.toBe(0);
      await expect(page.locator('.tree-row.kind-api').count()).resolves.toBe(apisBefore);
      await screenshot(page, 'import-cancelled');
    } finally {
      for (const res of held) res.destroy();
      server.close();
    }
    await page.keyboard.press('Escape');
  });

  it('shows why a malformed document cannot be imported, in the dialog', async () => {
    await page.keyboard.press('Control+I');
    const dialog = importDialog();
    await dialog.getByRole('tab', { name: 'Paste' }).click();
    await dialog.getByLabel('Pasted document').fill('openapi: 3.0.3\ninfo:\n  title: Broken\n  version: [1.0\npaths: {}\n');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/not valid YAML \(line \d+\)/);
    await expect(dialog.getByRole('button', { name: 'Import', exact: true }).isEnabled()).resolves.toBe(true);
    await screenshot(page, 'import-error');
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
  });

  describe('definition update', () => {
    let file: string;

    it('previews the edited file, applies it and reports the counts', async () => {
      file = join(work, 'notes-source', 'notes.yaml');
      await mkdir(dirname(file), { recursive: true });
      await copyFile(NOTES, file);
      await dismissToasts();

      await page.keyboard.press('Control+I');
      const dialog = importDialog();
      await dialog.getByRole('tab', { name: 'File' }).click();
      await dialog.getByLabel('File path').fill(file);
      await dialog.getByLabel('Name override').fill('Notes file');
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await dialog.getByRole('region', { name: 'Import summary' }).getByRole('button', { name: 'Close' }).click();

      // On disk: one operation removed, one added.
      const original = await readFile(file, 'utf8');
      await writeFile(file, removeArchive(addOperation(original, '/notes/{noteId}/pin', 'pinNote', 'Pin a note')));

      await page.getByRole('treeitem', { name: 'Notes file', exact: true }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Update definition…' }).click();
      const update = page.getByRole('dialog', { name: 'Update definition of Notes file' });
      const changes = update.getByRole('region', { name: 'Definition changes' });
      await changes.waitFor();
      await expect(changes.getByRole('list', { name: 'Added operations' }).textContent()).resolves.toBe('+POST /notes/{noteId}/pin');
      await expect(changes.getByRole('list', { name: 'Removed operations' }).textContent()).resolves.toBe('−GET /archive');
      await expect(changes.textContent()).resolves.toContain(file);
      await screenshot(page, 'update-preview');

      await update.getByRole('button', { name: 'Apply' }).click();
      await toasts().filter({ hasText: 'Definition updated: 1 added, 0 rewritten, 1 orphaned, 0 restored' }).waitFor();
      await expect(update.count()).resolves.toBe(0);
      await (await showInTree('Pin a note')).first().waitFor();
      await expect((await showInTree('Pin a note')).count()).resolves.toBe(1);
      const archived = await showInTree('List archived notes');
      await expect(archived.filter({ hasText: 'orphaned' }).count()).resolves.toBe(1);
      await screenshot(page, 'update-applied');
      await page.getByLabel('Filter requests').fill('');
    });

    it('refuses an Apply whose source changed since the preview, and offers Preview again', async () => {
      await page.getByRole('treeitem', { name: 'Notes file', exact: true }).click();
      const definition = page.getByRole('region', { name: 'Definition' });
      await definition.getByText(file).waitFor();
      await definition.scrollIntoViewIfNeeded();
      await screenshot(page, 'update-api-section');
      await definition.getByRole('button', { name: 'Update definition…' }).click();
      const update = page.getByRole('dialog', { name: 'Update definition of Notes file' });
      const changes = update.getByRole('region', { name: 'Definition changes' });
      await changes.waitFor();
      await expect(changes.textContent()).resolves.toMatch(/0 added.*0 removed.*0 changed/);

      await writeFile(file, addOperation(await readFile(file, 'utf8'), '/notes/{noteId}/share', 'shareNote', 'Share a note'));
      await update.getByRole('button', { name: 'Apply' }).click();
      const alert = update.getByRole('alert');
      await alert.waitFor();
      await expect(alert.textContent()).resolves.toMatch(/changed since the preview, so nothing was applied/);
      await screenshot(page, 'update-changed');
      await expect((await showInTree('Share a note')).count()).resolves.toBe(0);
      await page.getByLabel('Filter requests').fill('');

      await update.getByRole('button', { name: 'Preview again' }).click();
      await expect(changes.getByRole('list', { name: 'Added operations' }).textContent()).resolves.toBe('+POST /notes/{noteId}/share');
      await update.getByRole('button', { name: 'Apply' }).click();
      await toasts().filter({ hasText: 'Definition updated: 1 added' }).waitFor();
      // The tree follows the project.changed event, which may land a moment after the toast.
      await (await showInTree('Share a note')).first().waitFor();
      await expect((await showInTree('Share a note')).count()).resolves.toBe(1);
      await page.getByLabel('Filter requests').fill('');
    });

    it('asks for a file or URL when none is recorded, and opens the chooser on a URL that needs authentication', async () => {
      // The API imported from pasted text has no source to read again.
      await page.getByRole('treeitem', { name: 'Notes', exact: true }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Update definition…' }).click();
      let update = page.getByRole('dialog', { name: 'Update definition of Notes' });
      await expect(update.getByRole('alert').textContent()).resolves.toMatch(/imported from pasted text/);
      await expect(update.getByRole('tab', { name: 'URL' }).getAttribute('aria-selected')).resolves.toBe('true');
      await update.getByRole('button', { name: 'Cancel' }).click();

      let locked = false;
      const server = createServer((req, res) => {
        if (locked && req.headers.authorization !== 'Bearer t0ken') {
          res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
          return;
        }
        void readFile(NOTES).then((body) => res.writeHead(200, { 'content-type': 'application/yaml' }).end(body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/spec/notes.yaml`;
      try {
        await page.keyboard.press('Control+I');
        const dialog = importDialog();
        await dialog.getByRole('tab', { name: 'URL' }).click();
        await dialog.getByLabel('Document URL').fill(url);
        await dialog.getByLabel('Name override').fill('Notes by URL');
        await dialog.getByRole('button', { name: 'Import', exact: true }).click();
        await dialog.getByRole('region', { name: 'Import summary' }).getByRole('button', { name: 'Close' }).click();

        locked = true;
        await page.getByRole('treeitem', { name: 'Notes by URL', exact: true }).click({ button: 'right' });
        await page.getByRole('menuitem', { name: 'Update definition…' }).click();
        update = page.getByRole('dialog', { name: 'Update definition of Notes by URL' });
        await expect(update.getByRole('alert').textContent()).resolves.toMatch(/needs authentication \(HTTP 401\)/);
        await expect(update.getByLabel('Document URL').inputValue()).resolves.toBe(url);
        // Nothing is stored for this API, so the Authentication section starts at None.
        await expect(update.getByRole('radio', { name: 'None' }).getAttribute('aria-checked')).resolves.toBe('true');
        await screenshot(page, 'update-auth-required');

        await update.getByRole('radio', { name: 'Bearer token' }).click();
        await update.getByLabel('Token').fill('t0ken');
        await expect(update.getByLabel('Token').getAttribute('type')).resolves.toBe('password');
        await update.getByRole('button', { name: 'Preview', exact: true }).click();
        const changes = update.getByRole('region', { name: 'Definition changes' });
        await expect(changes.textContent()).resolves.toMatch(/0 added.*0 removed.*0 changed/);
        await expect(changes.textContent()).resolves.toContain(url);
        await update.getByRole('button', { name: 'Cancel' }).click();
      } finally {
        server.close();
      }
    });

    it('reaches Update definition… from the palette, and looks right in the dark theme', async () => {
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await page.getByRole('treeitem', { name: 'Notes file', exact: true }).click();
      await writeFile(file, removeArchive(addOperation(await readFile(NOTES, 'utf8'), '/notes/{noteId}/pin', 'pinNote', 'Pin a note')).replace('version: 1.0.0', 'version: 1.1.0'));
      await page.keyboard.press('Control+Shift+P');
      await page.getByPlaceholder('Type a command').fill('Update definition');
      await page.keyboard.press('Enter');
      const update = page.getByRole('dialog', { name: 'Update definition of Notes file' });
      const changes = update.getByRole('region', { name: 'Definition changes' });
      await changes.waitFor();
      await expect(changes.getByRole('list', { name: 'Removed operations' }).textContent()).resolves.toBe('−POST /notes/{noteId}/share');
      await expect(changes.getByLabel('API-wide changes').textContent()).resolves.toContain('version 1.0.0 → 1.1.0');
      await screenshot(page, 'update-preview-dark');

      await update.getByRole('button', { name: 'Choose another file or URL…' }).click();
      // The recorded source is a file, so the chooser starts there; a URL elsewhere starts at None.
      await expect(update.getByLabel('File path').inputValue()).resolves.toBe(file);
      await update.getByRole('tab', { name: 'URL' }).click();
      await update.getByLabel('Document URL').fill('https://notes.example.com/openapi.yaml');
      await expect(update.getByRole('radio', { name: 'None' }).getAttribute('aria-checked')).resolves.toBe('true');
      await expect(update.getByRole('radio', { name: 'Use stored credentials' }).count()).resolves.toBe(0);
      await update.getByRole('radio', { name: 'API key' }).click();
      await screenshot(page, 'update-chooser-dark');
      await update.getByRole('button', { name: 'Cancel' }).click();

      await page.keyboard.press('Control+I');
      await importDialog().getByRole('tab', { name: 'Paste' }).click();
      await importDialog().getByLabel('Pasted document').fill(await readFile(TICTACTOE, 'utf8'));
      await importDialog().getByRole('status', { name: 'Detected format' }).getByText(/OpenAPI 3\.1/).waitFor();
      await screenshot(page, 'import-dialog-dark');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
    });
  });
});

/** Adds a POST operation under `path` (tagged notes) to the hand-written notes document. */
function addOperation(yaml: string, path: string, operationId: string, summary: string): string {
  const operation = `  ${path}:\n    post:\n      operationId: ${operationId}\n      summary: ${summary}\n      tags: [notes]\n      responses:\n        '204':\n          description: Done\n`;
  return yaml.replace('components:\n', `${operation}components:\n`);
}

function removeArchive(yaml: string): string {
  return yaml.replace(/  \/archive:\n(?: {4,}.*\n)+/, '');
}
