/**
 * The URL bar keeps what the user types (issue 27, item 1), in real Chromium against a real echo
 * server on 127.0.0.1: typed a key at a time, `?`, `&`, `=` and `#` stay where they were typed,
 * the query rows follow the text, Send puts the path and query on the wire without the fragment,
 * a row edit rewrites only its pair, and the file on disk holds the URL as typed. A request file
 * written before the URL held its query opens with its rows in the URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { blankRequest } from '../../protocol/model/request.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { loadApp, openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 25;

describe.skipIf(missing !== null)('the URL bar keeps what is typed', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;
  let project: string;
  let origin = '';
  /** The request target (path and query) of every request the echo server received. */
  const received: string[] = [];
  const requestFile = (name: string) => join(project, 'apis', 'Echo', 'requests', `${name}.request.yaml`);

  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ target: req.url }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    project = join(await mkdtemp(join(tmpdir(), 'parley-url-bar-e2e-')), 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'URLs' });
    const api = await store.createApi({ name: 'Echo', baseUrl: origin });
    await store.commit([store.newRequestChange(api.id, '', blankRequest({ id: 'r_typed', name: 'Typed', method: 'GET', url: '' }))]);
    await store.close();
    // A request file as an earlier release wrote it: the URL without its query, the query as rows.
    await writeFile(
      requestFile('Old'),
      [
        'version: 1',
        'id: r_old',
        'name: Old',
        'method: GET',
        'url: /echo',
        'pathParams: []',
        'query:',
        '  - { name: page, value: "2", enabled: true }',
        '  - { name: debug, value: "1", enabled: false }',
        '  - { name: q, value: a b, enabled: true }',
        'headers: []',
        'body: { kind: none, raw: { language: json, text: "" }, form: [], multipart: [], binary: { file: "", contentType: application/octet-stream } }',
        'auth: { type: inherit }',
        'settings: { sendCookies: false, timeoutMs: 30000, httpVersion: "1.1" }',
        '',
      ].join('\n'),
    );
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /Echo/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    server?.close();
  });

  const url = () => page.getByLabel('URL', { exact: true });
  /** The query rows shown, name and value, without the blank row for the next entry. */
  const rowsShown = async () => {
    const rows = page.getByRole('table', { name: 'Query parameter' }).locator('tr:not(.ghost)');
    const out: [string, string][] = [];
    for (let i = 0; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      out.push([await row.getByLabel('Query parameter name').inputValue(), await codeText(row.getByLabel(/^Query parameter value/))]);
    }
    return out;
  };

  it('keeps `?`, `&`, `=` and `#` typed a key at a time, shows the rows, and sends path and query without the fragment', async () => {
    await page.getByRole('treeitem', { name: /Typed/ }).click();
    await url().click();
    const typed = `${origin}/echo?a=1&b=2#frag`;
    await page.keyboard.type(typed, { delay: TYPING_DELAY_MS });
    await expect(codeText(url())).resolves.toBe(typed);
    await expect(rowsShown()).resolves.toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
    const note = page.getByRole('note');
    await expect(note.textContent()).resolves.toContain('#frag stays in the URL and is not sent');
    await screenshot(page, 'url-bar-typed');

    await page.keyboard.press('Control+Enter');
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
    expect(received).toEqual(['/echo?a=1&b=2']);
  });

  it('typing `&lang=en` at the end of the query (the caret before the fragment) adds the row lang=en', async () => {
    await url().click();
    await page.keyboard.press('End');
    for (let i = 0; i < '#frag'.length; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('&lang=en', { delay: TYPING_DELAY_MS });
    await expect(codeText(url())).resolves.toBe(`${origin}/echo?a=1&b=2&lang=en#frag`);
    await expect(rowsShown()).resolves.toEqual([
      ['a', '1'],
      ['b', '2'],
      ['lang', 'en'],
    ]);
  });

  it('switching a row off takes its pair out of the URL and leaves the row in place; switching it on puts the pair back', async () => {
    const before = await codeText(url());
    await page.getByLabel('Send b').uncheck();
    await expect(codeText(url())).resolves.toBe(`${origin}/echo?a=1&lang=en#frag`);
    await expect(rowsShown()).resolves.toEqual([
      ['a', '1'],
      ['b', '2'],
      ['lang', 'en'],
    ]);
    await expect(page.getByLabel('Send b').isChecked()).resolves.toBe(false);
    await page.getByLabel('Send b').check();
    await expect(codeText(url())).resolves.toBe(before);
  });

  it('editing a row rewrites only its part of the URL; the file holds the URL as typed, and so does a reload', async () => {
    const value = page.getByLabel('Query parameter value of a');
    await value.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('x y', { delay: TYPING_DELAY_MS });
    const edited = `${origin}/echo?a=x%20y&b=2&lang=en#frag`;
    await expect(codeText(url())).resolves.toBe(edited);

    await page.keyboard.press('Control+S');
    await until(async () => (await readFile(requestFile('Typed'), 'utf8')).includes('a=x%20y'));
    const saved = parseYaml(await readFile(requestFile('Typed'), 'utf8'));
    expect({ url: saved.url, query: saved.query }).toEqual({ url: edited, query: [] });

    await page.keyboard.press('Control+Enter');
    await until(() => received.length === 2);
    expect(received[1]).toBe('/echo?a=x%20y&b=2&lang=en');

    await loadApp(page, app.url);
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    await page.getByRole('treeitem', { name: /Typed/ }).click();
    await until(async () => (await codeText(url())) === edited);
    await expect(rowsShown()).resolves.toEqual([
      ['a', 'x y'],
      ['b', '2'],
      ['lang', 'en'],
    ]);
    await screenshot(page, 'url-bar-reloaded');
  });

  it('opens a file of an earlier release with its rows in the URL (the query it sent), the row switched off kept', async () => {
    await page.getByRole('treeitem', { name: /Old/ }).click();
    let seen = '';
    await until(async () => (seen = await codeText(url())) === '/echo?page=2&q=a%20b', 10_000, () => `the URL field shows ${seen}`);
    await expect(page.getByLabel('Send debug').isChecked()).resolves.toBe(false);
    const before = received.length;
    await page.getByRole('button', { name: 'Send' }).click();
    await until(() => received.length > before);
    expect(received.at(-1)).toBe('/echo?page=2&q=a%20b');
  });
});
