/**
 * The HTTP Log in real Chromium against the real app and a real SSE server on 127.0.0.1: every
 * exchange of the session, a stream as one multi-message exchange; HAR export of picked rows
 * (the downloaded file's content checked), Copy as cURL (`-N` for a stream), and a streamed row's
 * re-send refused with the supervisor's message. Reached from the title bar and the palette.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { startSseServer, type SseServer } from '../support/sse-server.js';
import { until } from '../support/until.js';
import { typeInto } from '../support/code-editor.js';

const missing = chromiumMissing();

interface HarEntry {
  request: { method: string; url: string };
  response: { status: number; content: { mimeType: string; text?: string } };
  _eventSourceMessages?: { eventName: string; eventId: string; data: string }[];
  _parleyStream?: { state: string; total: number; events: number };
}

describe.skipIf(missing !== null)('the HTTP Log', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let sse: SseServer;

  beforeAll(async () => {
    sse = await startSseServer();
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: 10_000, permissions: ['clipboard-read', 'clipboard-write'], acceptDialogs: true }));
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /List pets/ }).dblclick();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await sse?.close();
  });

  async function sendAndWait(url: string, done: () => Promise<unknown>): Promise<void> {
    await typeInto(page.getByLabel('URL', { exact: true }), url);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await done();
  }

  it('lists every exchange, a stream as one exchange, and exports the picked rows as HAR', async () => {
    await sendAndWait(`${sse.url}/json`, () => until(async () => (await page.getByTestId('status').count()) > 0 && (await page.locator('.status-line').textContent())?.includes('HTTP/')));
    await sendAndWait(`${sse.url}/events?count=6`, () => until(async () => (await page.getByTestId('stream-state').count()) > 0 && (await page.getByTestId('stream-state').textContent()) === 'ended'));

    // From the title bar.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'HTTP Log' }).click();
    const log = page.getByRole('list', { name: 'HTTP Log' });
    await log.waitFor();
    await until(async () => (await log.getByRole('listitem').count()) === 2);
    const streamRow = log.getByRole('listitem').filter({ hasText: '/events?count=6' });
    const jsonRow = log.getByRole('listitem').filter({ hasText: `${sse.url}/json` });
    await expect(streamRow.locator('.stream-state').textContent()).resolves.toBe('stream · 6 events · ended');
    await expect(jsonRow.locator('.status').textContent()).resolves.toBe('200');
    // Newest first.
    await expect(log.getByRole('listitem').first().textContent()).resolves.toContain('/events?count=6');

    // The stream's exchange: its request, its head, and its rows as received.
    await streamRow.locator('.http-log-row').click();
    const recorded = streamRow.getByLabel('Recorded stream');
    await recorded.waitFor();
    await expect(recorded.textContent()).resolves.toContain('6 events, 8 rows in all');
    await expect(recorded.textContent()).resolves.toContain(': stream starts');
    await expect(recorded.textContent()).resolves.toContain('tick #2: {"n":2,"even":true,"label":"item 2"}');
    await screenshot(page, 'http-log-stream');

    await streamRow.getByRole('checkbox').check();
    await jsonRow.getByRole('checkbox').check();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export HAR (2)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^parley-\d{8}-\d{6}\.har$/);
    const har = JSON.parse(await readFile((await download.path())!, 'utf8')) as { log: { version: string; creator: { name: string }; entries: HarEntry[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('Parley');
    expect(har.log.entries).toHaveLength(2);
    const stream = har.log.entries.find((e) => e.request.url.endsWith('/events?count=6'))!;
    expect(stream.response.content.mimeType).toContain('text/event-stream');
    expect(stream.response.content.text).toContain('event: tick\nid: 2\ndata: {"n":2,"even":true,"label":"item 2"}\n\n');
    expect(stream._eventSourceMessages?.map((m) => m.eventId)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(stream._parleyStream).toMatchObject({ state: 'ended', total: 8, events: 6 });
    const json = har.log.entries.find((e) => e.request.url.endsWith('/json'))!;
    expect(JSON.parse(json.response.content.text!)).toEqual({ store: { book: [{ title: 'A', price: 8 }, { title: 'B', price: 22 }] } });
    await screenshot(page, 'http-log-picked');
  });

  it('copies a stream as cURL with -N, and refuses to re-send a streamed row, saying why', async () => {
    const log = page.getByRole('list', { name: 'HTTP Log' });
    const streamRow = log.getByRole('listitem').filter({ hasText: '/events?count=6' });
    if (!(await streamRow.getByLabel('Recorded stream').count())) await streamRow.locator('.http-log-row').click();
    await streamRow.getByRole('button', { name: 'Copy as cURL…' }).click();
    const command = page.getByLabel('curl command');
    await until(async () => (await command.inputValue()).startsWith('curl'));
    const text = await command.inputValue();
    expect(text.split(' \\\n  ')).toContain('-N');
    expect(text).toContain(`${sse.url}/events?count=6`);
    await screenshot(page, 'http-log-curl');
    await page.locator('.dialog-footer').getByRole('button', { name: 'Close', exact: true }).click();
    await command.waitFor({ state: 'detached' });

    const hits = sse.hits.length;
    await streamRow.getByRole('button', { name: 'Re-send' }).click();
    const refusal = streamRow.getByRole('alert');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toMatch(/stream/i);
    expect(sse.hits.length).toBe(hits);
    await screenshot(page, 'http-log-resend-refused');

    // Any other row is re-sent, and the re-send is logged too.
    const jsonRow = log.getByRole('listitem').filter({ hasText: `${sse.url}/json` }).first();
    await jsonRow.locator('.http-log-row').click();
    await jsonRow.getByRole('button', { name: 'Re-send' }).click();
    await until(() => sse.hits.length === hits + 1);
    await until(async () => (await log.getByRole('listitem').count()) === 3);
  });

  it('opens from the palette with its key', async () => {
    await page.getByRole('button', { name: /^Close HTTP Log/ }).click();
    await page.getByRole('list', { name: 'HTTP Log' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('HTTP Log');
    const option = page.getByRole('dialog', { name: 'Command palette' }).getByRole('option', { name: /View: HTTP Log/ });
    await expect(option.locator('kbd').textContent()).resolves.toBe('Ctrl+Shift+L');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'HTTP Log' }).waitFor();
    await page.getByRole('button', { name: /^Close HTTP Log/ }).click();
    await page.keyboard.press('Control+Shift+L');
    await page.getByRole('list', { name: 'HTTP Log' }).waitFor();
  });
});
