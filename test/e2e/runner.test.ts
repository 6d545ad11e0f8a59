/**
 * The Runner in real Chromium against the real app and a real HTTP server on 127.0.0.1 (issue 28
 * item 6): opened on a folder from the tree's context menu, one request unticked, 2 iterations,
 * live rows as the run goes (Login's captures under its row), Stop while a request hangs, Run failed again, and Export JUnit read
 * from disk; from the palette on the whole project, with a data file's preview.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { assertion, writeRunProject } from '../support/run-project.js';

const missing = chromiumMissing();
if (missing) console.warn(`Skipping browser tests: ${missing}`);

describe.skipIf(missing !== null)('the Runner', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;
  let work: string;
  let failOrders = true;
  const held: (() => void)[] = [];
  const hits = new Map<string, number>();

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parley-runner-e2e-'));
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/login') return json(200, { token: 'abc' });
      if (path === '/orders') return failOrders ? json(500, { error: 'down' }) : json(201, { id: 7 });
      if (path === '/slow') return void held.push(() => json(200, {}));
      json(200, {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const project = join(work, 'shop');
    // Made in this order, which is the order they run in (not name order).
    await writeRunProject(project, [
      {
        name: 'Shop',
        baseUrl: base,
        requests: [
          {
            folder: 'Orders',
            name: 'Login',
            url: '/login',
            assertions: [assertion({ source: 'status', value: '200' })],
            edit: (r) =>
              void (r.captures = [
                { enabled: true, name: 'token', source: 'jsonpath', expression: '$.token', scope: 'session' },
                { enabled: true, name: 'code', source: 'status', expression: '', scope: 'session' },
              ]),
          },
          { folder: 'Orders', name: 'Create order', method: 'POST', url: '/orders', assertions: [assertion({ source: 'status', value: '201' })] },
          { folder: 'Orders', name: 'Slow', url: '/slow' },
          { folder: 'Orders', name: 'Skip me', url: '/skip' },
          { name: 'Health', url: '/health' },
        ],
      },
    ]);
    await writeFile(join(work, 'users.csv'), 'user,password\nann,s3cret\nbob,hunter2\n');
    ({ app, browser, page } = await openUi([project], { stepMs: 15_000 }));
    await page.locator('.tree-row[data-name="Shop"]').click();
    await page.locator('.tree-row[data-name="Orders"]').waitFor();
  }, 60_000);

  afterAll(async () => {
    held.splice(0).forEach((answer) => answer());
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const progress = () => page.getByRole('status', { name: 'Run progress' });
  const resultRows = () => page.getByRole('table', { name: 'Run results' }).locator('tbody tr');
  /** Each result row's cells but time and size (which vary); of the request's, its line without the failures under it. */
  const results = () =>
    resultRows().evaluateAll((rows) =>
      rows.map((r) =>
        [...r.querySelectorAll(':scope > td:not(.run-time):not(.run-size)')]
          .map((td) => ((td.querySelector('.run-request-line') ?? td) as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
          .join(' | '),
      ),
    );

  it('runs a folder from its context menu: unticked request left out, 2 iterations, live rows, Stop, Run failed again, Export JUnit', async () => {
    await page.locator('.tree-row[data-name="Orders"]').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Run folder…' }).click();
    const list = page.getByRole('list', { name: 'Requests to run' });
    await list.waitFor();
    expect(await list.getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label')))).toEqual(['Shop/Orders/Login', 'Shop/Orders/Create order', 'Shop/Orders/Slow', 'Shop/Orders/Skip me']);

    await page.getByRole('checkbox', { name: 'Shop/Orders/Skip me' }).uncheck();
    const iterations = page.getByLabel('Iterations');
    await iterations.click();
    await page.keyboard.type('2', { delay: 30 });
    await page.getByRole('button', { name: 'Run', exact: true }).click();

    // Rows show as they arrive, while Slow hangs at the server.
    await until(() => held.length === 1);
    await until(async () => (await resultRows().count()) === 2);
    expect(await results()).toEqual(['1 | 1 | ✓ GET Shop/Orders/Login | 200 | 1/1 | —', '2 | 1 | ✗ POST Shop/Orders/Create order | 500 | 0/1 | —']);
    await expect(resultRows().first().locator('.run-time').innerText()).resolves.toMatch(/^\d+ ms$/);
    await expect(resultRows().nth(1).locator('.run-failures').innerText()).resolves.toBe('status equals 201: got 500');
    // What Login captured shows under its row, the token masked.
    await expect(resultRows().first().locator('.run-captures li').allInnerTexts()).resolves.toEqual(['token = ••••••', 'code = 200']);
    await expect(progress().innerText()).resolves.toMatch(/^Running… 2 of 6 requests · 1 failed/);
    await screenshot(page, 'runner-running');

    await page.getByRole('button', { name: 'Stop' }).click();
    await until(async () => (await progress().innerText()).startsWith('Stopped after 2 requests'));
    held.splice(0).forEach((answer) => answer());
    expect(await resultRows().count()).toBe(2);
    expect(hits.get('/skip')).toBeUndefined();

    // Run failed again: only Create order, with the same 2 iterations; the server is up now.
    failOrders = false;
    await page.getByRole('button', { name: 'Run failed again (1)' }).click();
    await until(async () => (await progress().innerText()).startsWith('Passed: 2 requests'));
    expect(await results()).toEqual([
      '1 | 1 | ✓ POST Shop/Orders/Create order | 201 | 1/1 | —',
      '2 | 2 | ✓ POST Shop/Orders/Create order | 201 | 1/1 | —',
    ]);
    await screenshot(page, 'runner-failed-again');

    await page.getByRole('button', { name: 'Export JUnit…' }).click();
    const file = join(work, 'runner-junit.xml');
    const saveAs = page.getByLabel('Save as');
    await saveAs.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(file, { delay: 5 });
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await until(async () => (await page.locator('.toast').allInnerTexts()).some((t) => t.includes(`JUnit report written to ${file}`)));
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(await readFile(file, 'utf8')) as {
      testsuites: { tests: string; failures: string; errors: string; testsuite: { name: string; testcase: { name: string; classname: string; failure?: unknown } }[] };
    };
    expect(xml.testsuites).toMatchObject({ tests: '2', failures: '0', errors: '0' });
    expect(xml.testsuites.testsuite.map((s) => [s.name, s.testcase.classname, s.testcase.name, s.testcase.failure])).toEqual([
      ['Run test (iteration 1)', 'Shop.Orders', 'POST Create order', undefined],
      ['Run test (iteration 2)', 'Shop.Orders', 'POST Create order', undefined],
    ]);
  });

  it('runs the whole project from the palette, with a data file previewed as typed', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Run requests in the Runner', { delay: 10 });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Run requests in the Runner' });
    await dialog.getByRole('combobox').selectOption('Project Run test: every request');
    await dialog.getByRole('button', { name: 'Open the Runner' }).click();
    const list = page.getByRole('list', { name: 'Requests to run' });
    await until(async () => (await list.getByRole('checkbox').count()) === 5);
    expect(await page.locator('[role="tab"][aria-selected="true"]').innerText()).toContain('Run Run test');

    await page.getByLabel('Data file').click();
    await page.keyboard.type(join(work, 'users.csv'), { delay: 5 });
    const preview = page.getByRole('table', { name: 'Data file preview' });
    await preview.waitFor();
    expect(await preview.locator('th').allInnerTexts()).toEqual(['row', 'user', 'password']);
    expect(await preview.locator('tbody tr').allInnerTexts()).toEqual(['1\tann\t••••••', '2\tbob\t••••••']);
    await expect(page.getByLabel('Iterations').getAttribute('placeholder')).resolves.toBe('one per data row');
    await screenshot(page, 'runner-data-preview');
  });
});
