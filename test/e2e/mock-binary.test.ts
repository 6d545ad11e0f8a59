/**
 * A binary mock response in real Chromium (issue 27 item 13): New Mock… on the Redocly museum
 * API, whose getTicketCode answers image/png. Its Default is a Binary body holding a PNG the page
 * shows as an image (it was the text `string`); the running mock sends its bytes. Replace from
 * file… with a JPEG writes the JPEG to Default.body.bin on Save, the mock then sends it, and both
 * the tab and `parley mock check` say it is not the PNG the contract promises.
 * Screenshots: test-results/screenshots/mock-binary-*.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { finished, type Run } from '../support/processes.js';
import { until } from '../support/until.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { sampleBody } from '../../protocol/binary-media.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 25;
const cli = join(repoRoot(), 'dist', 'cli.js');
const museum = join(repoRoot(), 'test', 'fixtures', 'mocks', 'contracts', 'redocly-museum.openapi.yaml');

describe.skipIf(missing !== null)('a binary mock response', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let home = '';
  let project = '';
  let mockUrl = '';
  const parley = (args: string[]): Promise<Run> =>
    finished(spawn(process.execPath, [cli, ...args], { env: { ...process.env, PARLEY_HOME: join(home, 'data') }, stdio: ['ignore', 'pipe', 'pipe'] }));
  const bodyFile = () => join(project, 'mocks', 'Museum mock', 'operations', 'getTicketCode', 'Default.body.bin');
  const binary = () => page.getByRole('group', { name: 'Binary body' });

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'parley-mock-binary-e2e-'));
    project = join(home, 'project');
    const imported = await parley(['import', museum, '--new-project', project]);
    expect(imported.code, imported.stderr).toBe(0);
    ({ app, browser, page } = await openUi([project], { env: { PARLEY_HOME: join(home, 'data') } }));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('New Mock… gives image/png a PNG the page shows, and the running mock sends its bytes', async () => {
    await page.getByRole('treeitem', { name: /Redocly Museum API/ }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'New Mock…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Mock of Redocly Museum API' });
    await dialog.getByRole('textbox').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Museum mock', { delay: TYPING_DELAY_MS });
    await dialog.getByRole('button', { name: 'Create mock' }).click();
    await page.getByRole('listbox', { name: 'Operations' }).getByRole('option', { name: /getTicketCode/ }).click();

    await expect(page.getByRole('radio', { name: 'Binary' }).getAttribute('aria-checked')).resolves.toBe('true');
    await expect(page.getByTestId('binary-size').textContent()).resolves.toMatch(/^\d+ bytes, a PNG image[.,]/);
    // The preview is the PNG decoded by the browser: a 1x1 image, not a broken one.
    const preview = binary().getByRole('img', { name: 'The body as an image' });
    await until(async () => (await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)) === 1, 10_000, () => 'the PNG did not decode');
    await until(async () => (await page.getByTestId('binary-size').textContent())?.includes('a PNG image, 1 × 1 px.'), 10_000, () => 'the size of the decoded PNG is not shown');
    await expect(page.locator('.response-findings').count()).resolves.toBe(0);
    await binary().scrollIntoViewIfNeeded();
    await screenshot(page, 'mock-binary-png');

    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByTestId('mock-url').waitFor();
    mockUrl = (await page.getByTestId('mock-url').textContent())!.trim();
    const answer = await fetch(`${mockUrl}/tickets/1/qr`);
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'image/png']);
    const sent = Buffer.from(await answer.arrayBuffer());
    expect(sent).toEqual(await readFile(bodyFile()));
    expect(sent.subarray(1, 4).toString('latin1')).toBe('PNG');
  }, 60_000);

  it('Replace from file… and Save write the file to disk; the mock sends it, and the tab and mock check say it is no PNG', async () => {
    const jpeg = Buffer.from(sampleBody('image/jpeg')!, 'base64');
    const picked = join(home, 'ticket.jpg');
    await writeFile(picked, jpeg);
    await binary().getByLabel('Replace the body from a file').setInputFiles(picked);
    await until(async () => /a JPEG image/.test((await page.getByTestId('binary-size').textContent()) ?? ''), 10_000, () => 'the JPEG was not read');
    await expect(page.getByTestId('binary-size').textContent()).resolves.toContain(`${jpeg.length} bytes`);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await until(async () => (await readFile(bodyFile())).equals(jpeg), 10_000, () => 'Default.body.bin does not hold the JPEG');
    const finding = page.locator('.response-findings li').filter({ hasText: 'body-media-type' });
    await finding.waitFor();
    await expect(finding.textContent()).resolves.toContain('The body is not a PNG image: it is a JPEG image.');
    await binary().scrollIntoViewIfNeeded();
    await screenshot(page, 'mock-binary-jpeg');

    await until(async () => Buffer.from(await (await fetch(`${mockUrl}/tickets/1/qr`)).arrayBuffer()).equals(jpeg), 10_000, () => 'the running mock still sends the PNG');

    const check = await parley(['mock', 'check', project, '--mock', 'Museum mock']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/getTicketCode › Default +body-media-type +The body is not a PNG image: it is a JPEG image\./);
  }, 60_000);
});
