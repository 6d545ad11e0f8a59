/**
 * Variables in every field (issue 27 item 3), in real Chromium against an echo server on
 * 127.0.0.1: typing `${` in a header value offers the names in scope and a pick is marked as
 * resolved; hover shows a value and where it comes from; a name defined nowhere is marked as
 * missing and named under the URL before Send; what is sent carries the values; switching the
 * environment re-marks the URL without a key pressed; a secret's hover is masked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { stringify } from 'yaml';
import { blankRequest } from '../../protocol/model/request.js';
import { defaultPreferences, type Workspace } from '../../protocol/model/workspace.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi, type UiUnderTest } from '../support/ui-app.js';
import { codeText, typeInto, variableHover, variableMarks } from '../support/code-editor.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 20;

describe.skipIf(missing !== null)('variables in every field', () => {
  let ui: UiUnderTest;
  let page: Page;
  let server: Server;
  let origin = '';
  const received: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const home = await mkdtemp(join(tmpdir(), 'parley-variables-e2e-'));
    const project = join(home, 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Vars' });
    await store.setProperties([{ name: 'apiVersion', value: 'v2', enabled: true }]);
    const api = await store.createApi({ name: 'Echo', baseUrl: '' });
    await store.commit([store.newRequestChange(api.id, '', blankRequest({ id: 'r_echo', name: 'Echo me', method: 'GET', url: '${host}/echo/${apiVersion}' }))]);
    await store.close();
    // The workspace: the active environment, another with a secret variable, and a global. Only the
    // secret's name is here (as Add secret… leaves it); its value would be in the keychain.
    const workspace: Workspace = {
      version: 1,
      environments: [
        { id: 'e_staging', name: 'Staging', variables: [{ name: 'host', value: origin, enabled: true }] },
        {
          id: 'e_prod',
          name: 'Prod',
          variables: [
            { name: 'host', value: 'https://api.example.com', enabled: true },
            { name: 'apiToken', value: '${secret:prod/apiToken}', enabled: true },
          ],
        },
      ],
      activeEnvironment: 'e_staging',
      globals: [{ name: 'userAgent', value: 'parley-e2e', enabled: true }],
      preferences: defaultPreferences(),
      secrets: ['prod/apiToken'],
      recentProjects: [],
    };
    await writeFile(join(home, 'workspace.yaml'), stringify(workspace));

    ui = await openUi([project], { env: { PARLEY_HOME: home }, stepMs: 15_000 });
    page = ui.page;
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    await page.getByRole('treeitem', { name: /Echo me/ }).click();
  });
  afterAll(async () => {
    await ui?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  const url = () => page.getByLabel('URL', { exact: true });
  const problems = () => page.getByRole('list', { name: 'Problems to fix before Send' });

  it('marks the URL\'s variables as resolved, and hover says the value and where it comes from', async () => {
    await expect(codeText(url())).resolves.toBe('${host}/echo/${apiVersion}');
    await until(async () => (await variableMarks(url())).length === 2, 5_000, () => 'the URL\'s variables were not marked');
    await expect(variableMarks(url())).resolves.toEqual([
      ['${host}', true],
      ['${apiVersion}', true],
    ]);
    const host = await variableHover(url(), '${host}');
    expect(host).toContain(origin);
    expect(host).toContain('from environment Staging');
    await expect(variableHover(url(), '${apiVersion}')).resolves.toContain('v2  from project property');
    await expect(problems().count()).resolves.toBe(0);
  });

  it('offers the names in scope after `${` in a header value, and the one picked is marked as resolved', async () => {
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Headers/ }).click();
    await page.getByLabel('Header name').last().click();
    await page.keyboard.type('X-Agent', { delay: TYPING_DELAY_MS });
    const value = page.getByLabel('Header value of X-Agent');
    await value.click();
    await page.keyboard.type('${', { delay: TYPING_DELAY_MS });
    const options = page.locator('.cm-tooltip-autocomplete [role=option]');
    await until(async () => (await options.count()) > 0, 5_000, () => 'typing ${ offered no names');
    const offered = await options.allTextContents();
    for (const name of ['host', 'apiVersion', 'userAgent', 'secret:prod/apiToken']) expect(offered.some((o) => o.startsWith(name))).toBe(true);
    await screenshot(page, 'variables-completion');
    await page.keyboard.type('userA', { delay: TYPING_DELAY_MS });
    await until(async () => (await options.count()) === 1, 5_000, () => 'the names were not narrowed to userAgent');
    // Picked with the mouse: CodeMirror leaves a key pressed within 75 ms of the list changing to the text.
    await options.first().click();
    await expect(codeText(value)).resolves.toBe('${userAgent}');
    await until(async () => JSON.stringify(await variableMarks(value)) === JSON.stringify([['${userAgent}', true]]), 5_000, () => 'the picked name was not marked as resolved');
    const tip = await variableHover(value, '${userAgent}');
    expect(tip).toContain('parley-e2e  from global');
    await screenshot(page, 'variables-hover');
  });

  it('marks a name defined nowhere as missing, names it under the URL before Send, and sends once it is fixed', async () => {
    await page.getByLabel('Header name').last().click();
    await page.keyboard.type('X-Trace', { delay: TYPING_DELAY_MS });
    const value = page.getByLabel('Header value of X-Trace');
    await value.click();
    await page.keyboard.type('${traceId}', { delay: TYPING_DELAY_MS });
    await until(async () => JSON.stringify(await variableMarks(value)) === JSON.stringify([['${traceId}', false]]), 5_000, () => 'the unknown name was not marked as missing');
    await until(async () => (await problems().count()) === 1, 5_000, () => 'nothing was listed under the URL');
    await expect(problems().textContent()).resolves.toContain("${traceId} is not defined in environment Staging, the project's properties or the globals.");
    await expect(variableHover(value, '${traceId}')).resolves.toContain('Unresolved');
    await screenshot(page, 'variables-missing');

    await typeInto(value, 'abc-123', TYPING_DELAY_MS);
    await problems().waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('status').waitFor();
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/echo/v2');
    expect(received[0]!.headers['x-agent']).toBe('parley-e2e');
    expect(received[0]!.headers['x-trace']).toBe('abc-123');
  });

  it('re-marks the fields when the environment changes, without a key pressed', async () => {
    await page.getByLabel('Active environment').selectOption({ label: 'No environment' });
    await until(async () => JSON.stringify(await variableMarks(url())) === JSON.stringify([['${host}', false], ['${apiVersion}', true]]), 5_000, () => 'the URL was not re-marked');
    await expect(problems().textContent()).resolves.toContain("${host} is not defined in the project's properties or the globals (no environment is active).");
    await page.getByLabel('Active environment').selectOption({ label: 'Staging' });
    await until(async () => JSON.stringify(await variableMarks(url())) === JSON.stringify([['${host}', true], ['${apiVersion}', true]]), 5_000, () => 'the URL was not re-marked');
    await problems().waitFor({ state: 'detached' });
  });

  it("masks a secret's value on hover: a variable holding a secret, and a secret named outright", async () => {
    await page.getByLabel('Active environment').selectOption({ label: 'Prod' });
    await page.getByLabel('Header name').last().click();
    await page.keyboard.type('X-Token', { delay: TYPING_DELAY_MS });
    const value = page.getByLabel('Header value of X-Token');
    await value.click();
    await page.keyboard.type('Bearer ${apiToken} ${secret:prod/apiToken}', { delay: TYPING_DELAY_MS });
    await until(async () => JSON.stringify(await variableMarks(value)) === JSON.stringify([['${apiToken}', true], ['${secret:prod/apiToken}', true]]), 5_000, () => 'the secrets were not marked as resolved');
    const viaVariable = await variableHover(value, '${apiToken}');
    expect(viaVariable).toContain('••••••••  from environment Prod');
    expect(viaVariable).not.toContain('secret:prod');
    await screenshot(page, 'variables-hover-secret');
    await expect(variableHover(value, '${secret:prod/apiToken}')).resolves.toContain('••••••••  from the secret prod/apiToken');
    await expect(problems().count()).resolves.toBe(0);
  });

  it('keeps a one-line field on one line, as tall as an input, when soft wrap is on for the code editors', async () => {
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Body/ }).click();
    await page.getByRole('radio', { name: 'Raw' }).click();
    const wrap = page.locator('.body-editor').getByRole('button', { name: 'Wrap' });
    await wrap.click();
    await until(async () => (await wrap.getAttribute('aria-pressed')) === 'true');
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Headers/ }).click();
    const value = page.getByLabel('Header value of X-Token');
    await value.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and more text'.repeat(12), { delay: 2 });
    const field = value.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " line-field ")]');
    // As tall as the row's name input, and not wrapped: the text scrolls under the caret.
    expect((await field.boundingBox())!.height).toBe((await page.getByLabel('Header name').first().boundingBox())!.height);
    await expect(field.locator('.cm-lineWrapping').count()).resolves.toBe(0);
  });

  it('marks the variables of the body too, and offers the names there', async () => {
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Body/ }).click();
    const body = page.getByLabel('Body', { exact: true });
    await body.click();
    await page.keyboard.type('{"agent": "${userA', { delay: TYPING_DELAY_MS });
    const options = page.locator('.cm-tooltip-autocomplete [role=option]');
    await until(async () => (await options.count()) === 1, 5_000, () => 'the body offered no names');
    await options.first().click();
    await page.keyboard.press('ArrowRight'); // past the closing quote typed for us
    await page.keyboard.type(', "trace": "${nowhere}"', { delay: TYPING_DELAY_MS });
    // Brackets and quotes close themselves in the body: the text is whole as typed.
    await expect(codeText(body)).resolves.toBe('{"agent": "${userAgent}", "trace": "${nowhere}"}');
    await until(async () => JSON.stringify(await variableMarks(body)) === JSON.stringify([['${userAgent}', true], ['${nowhere}', false]]), 5_000, () => 'the body was not marked');
    await expect(problems().textContent()).resolves.toContain('${nowhere} is not defined in environment Prod');
    await screenshot(page, 'variables-body');
  });
});
