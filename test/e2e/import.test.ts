/**
 * The Import dialog and the definition update in real Chromium against a real `parley ui --demo`:
 * paste with the auto-detect badge and the summary, a file picked in the chooser into a new
 * project, Cancel during a slow URL fetch, a malformed document's error, and Update definition…
 * with its preview, Apply counts and the changed-since-the-preview refusal.
 * Each test starts from a freshly loaded page and imports what it needs itself, so any one runs
 * alone (-t) and a failure leaves nothing in the way of the next; every step waits for what it
 * needs to see, never a fixed time. Screenshots go to test-results/screenshots/import-* and update-*.
 */
import { copyFile, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { repoRoot } from '../../processes/supervisor/paths.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi, loadApp } from '../support/ui-app.js';

const missing = chromiumMissing();
const FIXTURES = join(repoRoot(), 'test', 'fixtures', 'importers', 'openapi');
const NOTES = join(FIXTURES, 'ui', 'notes.yaml');
const TICTACTOE = join(FIXTURES, 'learn-openapis', 'v3.1', 'tictactoe.yaml');

/** A step on a loaded 2-core machine (an importer process starts for every import). */
const STEP_MS = 30_000;

describe.skipIf(missing !== null)('import dialog and definition update', { timeout: 150_000 }, () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let work: string;
  let files = 0;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-import-e2e-'));
    // A stuck step fails naming its locator, inside the test's own time limit.
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: STEP_MS, load: false }));
  });
  // Every test starts from a freshly loaded page: no dialog, palette, menu, toast or filter left
  // by another test (one that failed midway would otherwise block the clicks of the next).
  beforeEach(() => loadApp(page, app.url));
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const importDialog = () => page.getByRole('dialog', { name: 'Import' });
  const toasts = () => page.locator('.toast');
  /** The sidebar filter shows a request with its API and folders opened, whatever was expanded. */
  const showInTree = async (text: string) => {
    await page.getByLabel('Filter requests').fill(text);
    return page.getByRole('treeitem', { name: new RegExp(text) });
  };
  /**
   * An API's row (not a folder of the same name, such as the API's folder in Webhooks), found
   * through the filter: the tree only renders the rows in view.
   */
  const apiRow = async (name: string) => {
    await page.getByLabel('Filter requests').fill(name);
    return page.getByRole('treeitem', { name, exact: true }).and(page.locator('.kind-api'));
  };
  /** The APIs of the demo project, as folders on disk. */
  const demoApis = () => readdir(join(app.home, 'demo-project', 'apis'));
  /** A copy of the notes document in a folder of its own, for a test to import and edit. */
  const notesCopy = async () => {
    const file = join(work, `notes-${++files}`, 'notes.yaml');
    await mkdir(dirname(file), { recursive: true });
    await copyFile(NOTES, file);
    return file;
  };
  /** Imports a file through the dialog's File tab into the open project, under `name`. */
  const importFile = async (file: string, name: string) => {
    await page.keyboard.press('Control+I');
    const dialog = importDialog();
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByLabel('File path').fill(file);
    await dialog.getByLabel('Name override').fill(name);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByRole('region', { name: 'Import summary' }).getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
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
    await dialog.waitFor({ state: 'detached' });

    // The API tab: its auth is the scheme just used, and its Definition group says pasted text.
    await page.getByRole('tab', { name: /Notes/ }).waitFor();
    await expect.poll(() => page.getByLabel('Auth type').inputValue()).toBe('apikey');
    await page.getByRole('region', { name: 'Definition' }).getByText(/Pasted text/).waitFor();
    await (await apiRow('Notes')).waitFor();
    await expect((await apiRow('Notes')).count()).resolves.toBe(1);
    await (await showInTree('List notes')).first().waitFor();
    await (await showInTree('List archived notes')).first().waitFor();
    await screenshot(page, 'import-paste-tree');
  });

  it('imports a file picked in the chooser into a new project, which opens in the sidebar', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).getByPlaceholder('Type a command').fill('Import');
    await page.getByRole('option', { name: /^Import…/ }).click();
    const dialog = importDialog();
    await dialog.getByRole('tab', { name: 'File' }).click();
    await dialog.getByRole('button', { name: 'Choose…' }).click();

    const chooser = page.getByRole('dialog', { name: 'Choose a file' });
    const folder = chooser.getByLabel('Folder');
    // The chooser lists a first folder on its own: type only once that listing has arrived, so
    // its answer cannot land in the middle of the typing.
    await expect.poll(() => folder.inputValue(), { timeout: STEP_MS }).not.toBe('');
    await folder.fill(dirname(TICTACTOE));
    await chooser.getByRole('button', { name: 'Go' }).click();
    const file = chooser.getByRole('listitem').filter({ hasText: /^tictactoe\.yaml/ });
    await file.waitFor();
    await expect.poll(() => folder.inputValue()).toBe(dirname(TICTACTOE));
    await screenshot(page, 'import-file-chooser');
    await file.click();
    await chooser.waitFor({ state: 'detached' });

    await expect.poll(() => dialog.getByLabel('File path').inputValue()).toBe(TICTACTOE);
    await dialog.getByRole('status', { name: 'Detected format' }).getByText('OpenAPI 3.1.0').waitFor();
    await dialog.getByRole('radio', { name: 'A new project' }).check();
    await dialog.getByLabel('New project folder').fill(join(work, 'games'));
    await dialog.getByLabel('New project name').fill('Games');
    await screenshot(page, 'import-file-new-project');
    await dialog.getByLabel('New project name').press('Enter');

    const summary = dialog.getByRole('region', { name: 'Import summary' });
    await summary.getByText(/Into the new project Games, now open in the sidebar/).waitFor();
    await expect(summary.getByRole('row', { name: /^Declared version/ }).textContent()).resolves.toMatch(/OpenAPI 3\.1/);
    await screenshot(page, 'import-file-summary');
    await summary.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('treeitem', { name: 'Games', exact: true }).waitFor();
    await (await apiRow('Tic Tac Toe')).waitFor();
    await expect((await apiRow('Tic Tac Toe')).count()).resolves.toBe(1);
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
      const apisBefore = await demoApis();
      await page.getByRole('treeitem', { name: 'Demo', exact: true }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: /^Import…/ }).click();
      const dialog = importDialog();
      await dialog.getByLabel('Document URL').fill(url);
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();

      const progress = dialog.getByRole('progressbar', { name: 'Import progress' });
      await progress.waitFor();
      await dialog.getByRole('status', { name: 'Import progress' }).getByText('Fetching 127.0.0.1:').waitFor();
      await expect.poll(() => held.length, { timeout: STEP_MS }).toBe(1);
      await expect(dialog.getByLabel('Document URL').isDisabled()).resolves.toBe(true);
      await screenshot(page, 'import-progress');

      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.getByText('Import cancelled: nothing was added.').waitFor();
      await expect(progress.count()).resolves.toBe(0);
      await expect(dialog.getByRole('alert').count()).resolves.toBe(0);
      await expect(dialog.getByLabel('Document URL').inputValue()).resolves.toBe(url);
      // The importer process was killed, so its connection to the server went away: nothing it
      // read can arrive any more, and nothing reached the project.
      await expect.poll(() => socketClosed, { timeout: STEP_MS }).toBe(true);
      await expect(toasts().count()).resolves.toBe(0);
      await expect(demoApis()).resolves.toEqual(apisBefore);
      await screenshot(page, 'import-cancelled');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    } finally {
      for (const res of held) res.destroy();
      server.close();
    }
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
    await dialog.waitFor({ state: 'detached' });
  });

  it('says to choose the format in the Format list when Auto-detect recognises nothing', async () => {
    await page.keyboard.press('Control+I');
    const dialog = importDialog();
    await dialog.getByRole('tab', { name: 'Paste' }).click();
    await dialog.getByLabel('Pasted document').click();
    await page.keyboard.type('just some notes, not an API', { delay: 10 });
    await dialog.getByRole('radio', { name: 'A new project' }).check();
    await dialog.getByLabel('New project folder').fill(join(app.home, 'notes-project'));
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toBe('The pasted text is not in a format Parley recognises. If you know its format, choose it in the Format list.');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  describe('definition update', () => {
    it('previews the edited file, applies it and reports the counts', async () => {
      const file = await notesCopy();
      await importFile(file, 'Notes file');

      // On disk: one operation removed, one added.
      const original = await readFile(file, 'utf8');
      await writeFile(file, removeArchive(addOperation(original, '/notes/{noteId}/pin', 'pinNote', 'Pin a note')));

      await (await apiRow('Notes file')).click({ button: 'right' });
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
      await update.waitFor({ state: 'detached' });
      // The tree follows the project.changed event, which may land a moment after the toast.
      await (await showInTree('Pin a note')).first().waitFor();
      await expect((await showInTree('Pin a note')).count()).resolves.toBe(1);
      const archived = await showInTree('List archived notes');
      await archived.filter({ hasText: 'orphaned' }).waitFor();
      await screenshot(page, 'update-applied');
    });

    it('refuses an Apply whose source changed since the preview, and offers Preview again', async () => {
      const file = await notesCopy();
      await importFile(file, 'Notes changing');
      await (await apiRow('Notes changing')).click();
      const definition = page.getByRole('region', { name: 'Definition' });
      await definition.getByText(file).waitFor();
      await definition.scrollIntoViewIfNeeded();
      await screenshot(page, 'update-api-section');
      await definition.getByRole('button', { name: 'Update definition…' }).click();
      const update = page.getByRole('dialog', { name: 'Update definition of Notes changing' });
      const changes = update.getByRole('region', { name: 'Definition changes' });
      await changes.getByText(/0 added.*0 removed.*0 changed/).waitFor();

      await writeFile(file, addOperation(await readFile(file, 'utf8'), '/notes/{noteId}/share', 'shareNote', 'Share a note'));
      await update.getByRole('button', { name: 'Apply' }).click();
      const alert = update.getByRole('alert');
      await alert.getByText(/changed since the preview, so nothing was applied/).waitFor();
      await screenshot(page, 'update-changed');
      await expect((await showInTree('Share a note')).count()).resolves.toBe(0);

      await update.getByRole('button', { name: 'Preview again' }).click();
      await changes.getByRole('list', { name: 'Added operations' }).getByText('POST /notes/{noteId}/share').waitFor();
      await update.getByRole('button', { name: 'Apply' }).click();
      await toasts().filter({ hasText: 'Definition updated: 1 added' }).waitFor();
      await (await showInTree('Share a note')).first().waitFor();
      await expect((await showInTree('Share a note')).count()).resolves.toBe(1);
    });

    it('asks for a file or URL when none is recorded, and opens the chooser on a URL that needs authentication', async () => {
      // An API imported from pasted text has no source to read again.
      await page.keyboard.press('Control+I');
      const pasteDialog = importDialog();
      await pasteDialog.getByRole('tab', { name: 'Paste' }).click();
      await pasteDialog.getByLabel('Pasted document').fill(await readFile(NOTES, 'utf8'));
      await pasteDialog.getByLabel('Name override').fill('Pasted notes');
      await pasteDialog.getByRole('button', { name: 'Import', exact: true }).click();
      await pasteDialog.getByRole('region', { name: 'Import summary' }).getByRole('button', { name: 'Close' }).click();
      await pasteDialog.waitFor({ state: 'detached' });
      await (await apiRow('Pasted notes')).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Update definition…' }).click();
      let update = page.getByRole('dialog', { name: 'Update definition of Pasted notes' });
      await update.getByRole('alert').getByText(/imported from pasted text/).waitFor();
      await expect(update.getByRole('tab', { name: 'URL' }).getAttribute('aria-selected')).resolves.toBe('true');
      await update.getByRole('button', { name: 'Cancel' }).click();
      await update.waitFor({ state: 'detached' });

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
        await dialog.waitFor({ state: 'detached' });

        locked = true;
        await (await apiRow('Notes by URL')).click({ button: 'right' });
        await page.getByRole('menuitem', { name: 'Update definition…' }).click();
        update = page.getByRole('dialog', { name: 'Update definition of Notes by URL' });
        await update.getByRole('alert').getByText(/needs authentication \(HTTP 401\)/).waitFor();
        await expect(update.getByLabel('Document URL').inputValue()).resolves.toBe(url);
        // Nothing is stored for this API, so the Authentication section starts at None.
        await expect(update.getByRole('radio', { name: 'None' }).getAttribute('aria-checked')).resolves.toBe('true');
        await screenshot(page, 'update-auth-required');

        await update.getByRole('radio', { name: 'Bearer token' }).click();
        await update.getByLabel('Token').fill('t0ken');
        await expect(update.getByLabel('Token').getAttribute('type')).resolves.toBe('password');
        await update.getByRole('button', { name: 'Preview', exact: true }).click();
        const changes = update.getByRole('region', { name: 'Definition changes' });
        await changes.getByText(/0 added.*0 removed.*0 changed/).waitFor();
        await expect(changes.textContent()).resolves.toContain(url);
        await update.getByRole('button', { name: 'Cancel' }).click();
        await update.waitFor({ state: 'detached' });
      } finally {
        server.close();
      }
    });

    it('reaches Update definition… from the palette, and looks right in the dark theme', async () => {
      const file = await notesCopy();
      await importFile(file, 'Notes dark');
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      try {
        await (await apiRow('Notes dark')).click();
        await page.getByRole('tab', { name: /Notes dark/ }).waitFor();
        await writeFile(file, removeArchive(addOperation(await readFile(NOTES, 'utf8'), '/notes/{noteId}/pin', 'pinNote', 'Pin a note')).replace('version: 1.0.0', 'version: 1.1.0'));
        await page.keyboard.press('Control+Shift+P');
        await page.getByPlaceholder('Type a command').fill('Update definition');
        await page.getByRole('option', { name: /^Update definition/ }).click();
        const update = page.getByRole('dialog', { name: 'Update definition of Notes dark' });
        const changes = update.getByRole('region', { name: 'Definition changes' });
        await changes.waitFor();
        await expect(changes.getByRole('list', { name: 'Removed operations' }).textContent()).resolves.toBe('−GET /archive');
        await expect(changes.getByLabel('API-wide changes').textContent()).resolves.toContain('version 1.0.0 → 1.1.0');
        await screenshot(page, 'update-preview-dark');

        await update.getByRole('button', { name: 'Choose another file or URL…' }).click();
        // The recorded source is a file, so the chooser starts there; a URL elsewhere starts at None.
        await expect.poll(() => update.getByLabel('File path').inputValue()).toBe(file);
        await update.getByRole('tab', { name: 'URL' }).click();
        await update.getByLabel('Document URL').fill('https://notes.example.com/openapi.yaml');
        await expect(update.getByRole('radio', { name: 'None' }).getAttribute('aria-checked')).resolves.toBe('true');
        await expect(update.getByRole('radio', { name: 'Use stored credentials' }).count()).resolves.toBe(0);
        await update.getByRole('radio', { name: 'API key' }).click();
        await screenshot(page, 'update-chooser-dark');
        await update.getByRole('button', { name: 'Cancel' }).click();
        await update.waitFor({ state: 'detached' });

        await page.keyboard.press('Control+I');
        await importDialog().getByRole('tab', { name: 'Paste' }).click();
        await importDialog().getByLabel('Pasted document').fill(await readFile(TICTACTOE, 'utf8'));
        await importDialog().getByRole('status', { name: 'Detected format' }).getByText(/OpenAPI 3\.1/).waitFor();
        await screenshot(page, 'import-dialog-dark');
        await page.keyboard.press('Escape');
        await importDialog().waitFor({ state: 'detached' });
      } finally {
        // The theme is a workspace preference: put it back even when a step failed.
        await loadApp(page, app.url);
        const light = page.getByRole('button', { name: 'Switch to light theme' });
        if ((await light.count()) > 0) await light.click();
      }
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
