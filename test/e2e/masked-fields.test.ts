/**
 * Masked secret fields are variable fields too (issue 27 item 3, the gap item 27.3 left), in
 * real Chromium against an echo server on 127.0.0.1: a request's Token field marks `${name}` as
 * resolved, offers the names after `${`, and names the source on hover with the value masked,
 * while the text typed there is drawn as dots until Show; what is saved and sent is the text.
 * The Environments and project properties editors' value cells are the same field, a credential's
 * value drawn masked.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { parse, stringify } from 'yaml';
import { blankRequest } from '../../protocol/model/request.js';
import { defaultPreferences, type Workspace } from '../../protocol/model/workspace.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { loadApp, openUi, type UiUnderTest } from '../support/ui-app.js';
import { codeText, variableHover, variableMarks } from '../support/code-editor.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 20;
/** The environment's credential: it must never be drawn on the page. */
const LIVE_TOKEN = 'live-7f3e9a';

describe.skipIf(missing !== null)('masked fields with variables', () => {
  let ui: UiUnderTest;
  let page: Page;
  let server: Server;
  let home: string;
  let project: string;
  let origin = '';
  const received: IncomingHttpHeaders[] = [];
  const requestFile = () => join(project, 'apis', 'Echo', 'requests', 'Echo me.request.yaml');

  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    home = await mkdtemp(join(tmpdir(), 'parley-masked-e2e-'));
    project = join(home, 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Masked' });
    await store.setProperties([
      { name: 'apiVersion', value: 'v2', enabled: true },
      { name: 'clientSecret', value: 'prop-secret-55', enabled: true },
    ]);
    const api = await store.createApi({ name: 'Echo', baseUrl: '' });
    await store.commit([store.newRequestChange(api.id, '', { ...blankRequest({ id: 'r_echo', name: 'Echo me', method: 'GET', url: '${host}/echo' }), auth: { type: 'bearer', token: '' } })]);
    await store.close();
    const workspace: Workspace = {
      version: 1,
      environments: [
        {
          id: 'e_staging',
          name: 'Staging',
          variables: [
            { name: 'host', value: origin, enabled: true },
            { name: 'sessionToken', value: LIVE_TOKEN, enabled: true },
          ],
        },
      ],
      activeEnvironment: 'e_staging',
      globals: [{ name: 'userAgent', value: 'parley-e2e', enabled: true }],
      preferences: defaultPreferences(),
      secrets: [],
      recentProjects: [],
    };
    await writeFile(join(home, 'workspace.yaml'), stringify(workspace));
    ui = await openUi([project], { env: { PARLEY_HOME: home }, stepMs: 15_000 });
    page = ui.page;
  });
  afterAll(async () => {
    await ui?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  /** What the field draws: its text as the page shows it (dots for masked characters). */
  const drawn = (field: Locator) => field.evaluate((el) => (el as HTMLElement).innerText.replace(/\n/g, ''));
  const token = () => page.getByLabel('Token', { exact: true });

  async function openAuth(): Promise<void> {
    const request = page.getByRole('treeitem', { name: /Echo me/ });
    if (!(await request.isVisible())) await page.getByRole('treeitem', { name: /Echo/ }).first().click();
    await request.click();
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Auth/ }).click();
  }


  it('offers the names after `${` in the Token field, marks the pick resolved, and hover names its source with the value masked', async () => {
    await openAuth();
    await token().click();
    await page.keyboard.type('${sessionTo', { delay: TYPING_DELAY_MS });
    const options = page.locator('.cm-tooltip-autocomplete [role=option]');
    await until(async () => (await options.count()) === 1, 5_000, () => 'typing ${ in the Token field offered no names');
    await options.first().click();
    await expect(codeText(token())).resolves.toBe('${sessionToken}');
    await until(async () => JSON.stringify(await variableMarks(token())) === JSON.stringify([['${sessionToken}', true]]), 5_000, () => 'the token variable was not marked as resolved');
    const tip = await variableHover(token(), '${sessionToken}');
    expect(tip).toContain('••••••••  from environment Staging');
    expect(tip).not.toContain(LIVE_TOKEN);
    await screenshot(page, 'masked-token-hover');
  });

  it('draws the typed text as dots until Show, keeps the reference readable, and what is sent is the text', async () => {
    await token().click();
    await page.keyboard.press('End');
    await page.keyboard.type('.x9q', { delay: TYPING_DELAY_MS });
    await expect(codeText(token())).resolves.toBe('${sessionToken}.x9q');
    await expect(drawn(token())).resolves.toBe('${sessionToken}••••');
    await page.getByRole('button', { name: 'Show Token' }).click();
    await until(async () => (await drawn(token())) === '${sessionToken}.x9q', 5_000, () => 'Show did not reveal the text');
    await page.getByRole('button', { name: 'Hide Token' }).click();
    await until(async () => (await drawn(token())) === '${sessionToken}••••', 5_000, () => 'Hide did not mask the text again');
    await expect(page.content()).resolves.not.toContain('x9q');
    // The caret moves a character at a time over the dots: three Backspaces leave one dot.
    await token().click();
    await page.keyboard.press('End');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    await expect(codeText(token())).resolves.toBe('${sessionToken}.');
    await page.keyboard.press('Backspace');

    await page.keyboard.press('Control+Enter');
    await until(() => received.length === 1, 10_000, () => 'nothing was sent');
    expect(received[0]!.authorization).toBe(`Bearer ${LIVE_TOKEN}`);
  });

  it('saves the reference, and after a reload shows it marked in the same field', async () => {
    await page.keyboard.press('Control+S');
    await until(async () => (parse(await readFile(requestFile(), 'utf8')) as { auth: { token?: string } }).auth.token === '${sessionToken}', 10_000, () => 'the token reference was not saved');
    await loadApp(page, ui.app.url);
    await openAuth();
    await until(async () => JSON.stringify(await variableMarks(token())) === JSON.stringify([['${sessionToken}', true]]), 10_000, () => 'the saved reference was not marked after a reload');
  });

  it("Environments: value cells mark `${name}` and offer names; a credential's value is drawn masked until Show", async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Environments and globals');
    await page.keyboard.press('Enter');
    const hostValue = page.getByLabel('Variable value of host', { exact: true });
    await expect(codeText(hostValue)).resolves.toBe(origin);
    const secretValue = page.getByLabel('Variable value of sessionToken', { exact: true });
    await expect(codeText(secretValue)).resolves.toBe(LIVE_TOKEN);
    await expect(drawn(secretValue)).resolves.toBe('•'.repeat(LIVE_TOKEN.length));
    await expect(page.locator('.env-editor').textContent()).resolves.not.toContain(LIVE_TOKEN);
    await page.getByRole('button', { name: 'Show Variable value of sessionToken' }).click();
    await until(async () => (await drawn(secretValue)) === LIVE_TOKEN, 5_000, () => 'Show did not reveal the value');
    await page.getByRole('button', { name: 'Hide Variable value of sessionToken' }).click();

    await page.getByLabel('Variable name').last().click();
    await page.keyboard.type('agent', { delay: TYPING_DELAY_MS });
    const agent = page.getByLabel('Variable value of agent', { exact: true });
    await agent.click();
    await page.keyboard.type('${userA', { delay: TYPING_DELAY_MS });
    const options = page.locator('.cm-tooltip-autocomplete [role=option]');
    await until(async () => (await options.count()) === 1, 5_000, () => 'an environment value offered no names');
    await options.first().click();
    await page.keyboard.type(' ${nowhere}', { delay: TYPING_DELAY_MS });
    await until(async () => JSON.stringify(await variableMarks(agent)) === JSON.stringify([['${userAgent}', true], ['${nowhere}', false]]), 5_000, () => 'the environment value was not marked');
    await screenshot(page, 'masked-environments');
    await page.locator('.env-editor').getByRole('button', { name: 'Save' }).click();
    await until(async () => (await readFile(join(home, 'workspace.yaml'), 'utf8')).includes('${userAgent} ${nowhere}'), 10_000, () => 'the environment was not saved');
  });

  it("project properties: value cells are variable fields, a credential's value masked", async () => {
    await page.getByRole('treeitem', { name: /Masked/ }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Project properties' }).click();
    const version = page.getByLabel('Property value of apiVersion', { exact: true });
    await expect(codeText(version)).resolves.toBe('v2');
    const secret = page.getByLabel('Property value of clientSecret', { exact: true });
    await expect(codeText(secret)).resolves.toBe('prop-secret-55');
    await expect(drawn(secret)).resolves.toBe('•'.repeat('prop-secret-55'.length));
    await page.getByLabel('Property name').last().click();
    await page.keyboard.type('base', { delay: TYPING_DELAY_MS });
    const base = page.getByLabel('Property value of base', { exact: true });
    await base.click();
    await page.keyboard.type('${host}/${apiVersion}', { delay: TYPING_DELAY_MS });
    await until(async () => JSON.stringify(await variableMarks(base)) === JSON.stringify([['${host}', true], ['${apiVersion}', true]]), 5_000, () => 'the property value was not marked');
  });
});
