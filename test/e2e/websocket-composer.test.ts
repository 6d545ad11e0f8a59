/**
 * The WebSocket composer's Ping and binary file in real Chromium against the real app and a `ws`
 * echo server on 127.0.0.1 (docs/websocket.md): Ping sends a ping frame whose row and the server's
 * pong show in the session; a binary message's file is chosen with Choose…, one outside the
 * project copied in only when the user agrees, one inside named where it is, the composer showing
 * its name and size, and the bytes echoed.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { WebSocketServer } from 'ws';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 10;

describe.skipIf(missing !== null)('WebSocket composer: Ping and binary files', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let wss: WebSocketServer;
  let work: string;
  let project: string;
  const binaries: string[] = [];

  beforeAll(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', (socket) =>
      socket.on('message', (data: Buffer, isBinary) => {
        if (isBinary) binaries.push(data.toString('hex'));
        socket.send(data, { binary: isBinary });
      }),
    );
    work = await mkdtemp(join(tmpdir(), 'parley-ws-composer-e2e-'));
    await mkdir(join(work, 'outside'));
    await writeFile(join(work, 'outside', 'frame.bin'), Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x01]));
    project = join(work, 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Sockets' });
    const api = await store.createApi({ name: 'Live', baseUrl: '' });
    await store.createRequestOfKind({ parent: api.id, kind: 'websocket', name: 'Echo', url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/echo` });
    await store.close();
    await mkdir(join(project, 'data'));
    await writeFile(join(project, 'data', 'inside.bin'), Buffer.alloc(2048, 7));
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /Live/ }).click();
    await page.getByRole('treeitem', { name: /WS\s*Echo/ }).click();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('button', { name: 'Disconnect', exact: true }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    for (const client of wss?.clients ?? []) client.terminate();
    await new Promise((resolve) => wss?.close(resolve));
  });

  const rows = () => page.getByRole('table', { name: 'Events' }).locator('.ev-row');
  const rowTexts = async () => (await rows().allTextContents()).map((t) => t.replace(/^\d+\d\d:\d\d:\d\d\.\d{3}/, ''));

  /** Choose… in the composer, then the file `name` in `folder` of the folder browser, the folder typed key by key. */
  async function choose(folder: string, name: string): Promise<void> {
    await page.getByRole('button', { name: 'Choose…' }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose a file' });
    const field = chooser.getByLabel('Folder');
    await field.fill('');
    await field.pressSequentially(folder, { delay: TYPING_DELAY_MS });
    await chooser.getByRole('button', { name: 'Go' }).click();
    await chooser.getByText(name, { exact: true }).click();
    await chooser.waitFor({ state: 'detached' });
  }

  it('Ping sends a ping frame: its row and the pong show in the session, and they are not counted as messages', async () => {
    await page.getByRole('button', { name: 'Ping', exact: true }).click();
    await until(async () => (await rowTexts()).some((t) => t.startsWith('↓ pong')));
    const texts = await rowTexts();
    expect(texts.find((t) => t.startsWith('↑ ping'))).toContain('ping 1');
    expect(texts.find((t) => t.startsWith('↓ pong'))).toContain('ping 1');
    await expect(page.getByLabel('Pings and pongs').isChecked()).resolves.toBe(true);
    await expect(page.getByTestId('events-count').textContent()).resolves.toBe('0 messages');
    await screenshot(page, 'websocket-ping');
  });

  it('a file outside the project is copied in only when the user agrees; the composer shows its name and size, and sends its bytes', async () => {
    await page.getByRole('radio', { name: 'Binary (file)' }).click();
    const file = page.getByLabel('Message file');

    // Declined: nothing is copied, the composer names no file.
    await choose(join(work, 'outside'), 'frame.bin');
    const consent = page.getByRole('dialog', { name: 'Copy the file into the project?' });
    await consent.getByRole('button', { name: 'Cancel' }).click();
    await consent.waitFor({ state: 'detached' });
    await expect(file.inputValue()).resolves.toBe('');
    await expect(readFile(join(project, 'files', 'frame.bin')).catch(() => null)).resolves.toBeNull();

    // Agreed: copied into files/, named and sized.
    await choose(join(work, 'outside'), 'frame.bin');
    await consent.getByRole('button', { name: 'Copy into the project' }).click();
    await until(async () => (await file.inputValue()) === 'files/frame.bin');
    await expect(readFile(join(project, 'files', 'frame.bin'))).resolves.toEqual(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x01]));
    await until(async () => (await page.getByTestId('message-file').textContent().catch(() => '')) === 'frame.bin 5 B');
    await screenshot(page, 'websocket-binary-file');

    await page.getByRole('button', { name: 'Send message' }).click();
    await until(async () => (await page.getByTestId('events-count').textContent()) === '2 messages');
    expect(binaries).toEqual(['deadbeef01']);
    const texts = await rowTexts();
    expect(texts.filter((t) => t.startsWith('↑ sent (binary)') || t.startsWith('↓ received (binary)'))).toHaveLength(2);
  });

  it('a file inside the project is named where it is, without asking', async () => {
    await choose(join(project, 'data'), 'inside.bin');
    await until(async () => (await page.getByLabel('Message file').inputValue()) === 'data/inside.bin');
    await expect(page.getByRole('dialog', { name: 'Copy the file into the project?' }).count()).resolves.toBe(0);
    await until(async () => (await page.getByTestId('message-file').textContent().catch(() => '')) === 'inside.bin 2.0 KB');
    // A file named by hand that is not there says so.
    await page.getByLabel('Message file').fill('');
    await page.getByLabel('Message file').pressSequentially('data/missing.bin', { delay: TYPING_DELAY_MS });
    await page.getByRole('status').filter({ hasText: '"data/missing.bin" is not in the project' }).waitFor();
  });
});
