/**
 * Chaining without scripts in real Chromium (issue 28 item 5), against a real server on 127.0.0.1
 * that hands out a token at /login and checks it at /me: the user adds two captures to Login in
 * its Captures tab, typing them key by key (the token into this session, the user's id into the
 * active environment), saves (the request file becomes version 3), sends Login and sees what was
 * captured in the response pane (the token masked), then sends Get me, which reads both, and the
 * server says it got them. The token is in no project file, History or the workspace (Login's
 * History entry included, whose body holds it under a key that is no credential name).
 * Screenshots: test-results/screenshots/captures-*.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { WorkspaceStore } from '../../processes/supervisor/store/workspace-store.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { filesUnder } from '../support/processes.js';
import { openUi, type UiUnderTest } from '../support/ui-app.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();
const TOKEN = 'tok-91be2d04c7f3a5'; // handed out by /login: must be in no file Parley writes

describe.skipIf(missing !== null)('captures', () => {
  let ui: UiUnderTest;
  let page: Page;
  let server: Server;
  let home: string;
  let projectDir: string;
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const json = (status: number, body: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      // `jwt` is no credential name: History masks the token only because a capture named it `token`.
      if (url.pathname === '/login') return json(200, { jwt: TOKEN, user: { id: 7, name: 'ann' } });
      if (url.pathname === '/me') {
        seen.push({ url: req.url ?? '', headers: req.headers });
        return req.headers.authorization === `Bearer ${TOKEN}` ? json(200, { id: Number(url.searchParams.get('id')), name: 'ann' }) : json(401, { error: 'who are you?' });
      }
      json(404, {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    home = await mkdtemp(join(tmpdir(), 'parley-e2e-captures-'));
    projectDir = join(home, 'shop');
    const store = await ProjectStore.open(projectDir, { create: true, name: 'Shop' });
    const api = await store.createApi({ name: 'Shop API', baseUrl: base });
    await store.createRequest({ parent: api.id, name: 'Login', method: 'POST', url: '/login' });
    const me = await store.createRequest({ parent: api.id, name: 'Get me', method: 'GET', url: '/me?id=${userId}' });
    await store.saveRequest({ ...me, auth: { type: 'bearer', token: '${token}' } });
    await store.close();
    const workspace = await WorkspaceStore.open(home);
    await workspace.update((w) => {
      w.environments.push({ id: 'env_local', name: 'Local', variables: [] });
      w.activeEnvironment = 'env_local';
    });
    await workspace.settled();
    ui = await openUi([projectDir], { env: { PARLEY_HOME: home } });
    page = ui.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('treeitem', { name: /Shop API/ }).click();
  });
  afterAll(async () => {
    await ui?.close();
    server?.closeAllConnections();
    server?.close();
  });

  /** Clicks into a field and types into it key by key, as a user does. */
  async function typeInto(label: string, text: string) {
    await page.getByLabel(label, { exact: true }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(text, { delay: 20 });
  }

  const problems = () => page.getByRole('list', { name: 'Problems to fix before Send' });

  it('adds captures to Login, shows what Login captured, and Get me sends it', async () => {
    // Before Login has run, Get me's ${token} and ${userId} resolve nowhere, and the editor says so.
    await page.getByRole('treeitem', { name: /Get me/ }).click();
    await expect(problems().innerText()).resolves.toContain('${userId} and ${token} are not defined');
    await page.getByRole('treeitem', { name: /Login/ }).click();
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Captures/ }).click();
    await expect(page.getByText('No captures.').isVisible()).resolves.toBe(true);
    const add = page.getByRole('button', { name: 'Add capture' });
    await add.click();
    await typeInto('Capture 1 variable', 'token');
    // A new row reads the JSON body from `$.`: the user types the rest of the path.
    await expect(page.getByLabel('Capture 1 expression').inputValue()).resolves.toBe('$.');
    await typeInto('Capture 1 expression', 'jwt');
    await add.click();
    await typeInto('Capture 2 variable', 'userId');
    await typeInto('Capture 2 expression', 'user.id');
    await page.getByLabel('Capture 2 scope').selectOption('environment');
    await expect(page.getByRole('tab', { name: /^Captures/ }).innerText()).resolves.toMatch(/Captures\s*2/);
    await screenshot(page, 'captures-editor');
    await page.keyboard.press('Control+s');
    const dir = join(projectDir, 'apis', 'Shop API', 'requests');
    await expect
      .poll(async () => parseYaml(await readFile(join(dir, 'Login.request.yaml'), 'utf8')) as unknown)
      .toMatchObject({
        version: 3,
        captures: [
          { enabled: true, name: 'token', source: 'jsonpath', expression: '$.jwt', scope: 'session' },
          { enabled: true, name: 'userId', source: 'jsonpath', expression: '$.user.id', scope: 'environment' },
        ],
      });

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('status').waitFor();
    const chip = page.getByTestId('captures-chip');
    await expect(chip.innerText()).resolves.toBe('Captured 2/2');
    await chip.click();
    const rows = page.getByRole('table', { name: 'Capture results' }).locator('tbody tr');
    await expect(rows.count()).resolves.toBe(2);
    const text = async (i: number) => (await rows.nth(i).innerText()).replace(/\s+/g, ' ').trim();
    await expect(text(0)).resolves.toBe('✓ token •••••• $.jwt (JSON body), into this session');
    await expect(text(1)).resolves.toBe('✓ userId 7 $.user.id (JSON body), into the active environment');
    await expect(page.getByRole('tab', { name: 'Captures (2/2)' }).getAttribute('aria-selected')).resolves.toBe('true');
    await screenshot(page, 'captures-results');
    // The id went into the active environment, as the row asked.
    await expect.poll(async () => (await readFile(join(home, 'workspace.yaml'), 'utf8')).includes('name: userId')).toBe(true);

    await page.getByRole('treeitem', { name: /Get me/ }).click();
    // The editor reads the captured values as the send will: nothing left unresolved.
    await until(async () => (await problems().count()) === 0, 10_000, () => "Get me still lists names it cannot resolve");
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await until(async () => seen.length === 1, 15_000, () => 'Get me did not reach the server');
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]!.url).toBe('/me?id=7');
    await expect(page.getByTestId('status').innerText()).resolves.toMatch(/^200/);

    // Neither the project nor the workspace (History, session, environments) holds the token.
    await until(async () => (await readdir(join(home, 'history')).catch(() => [])).length > 0, 10_000, () => 'History was not written');
    for (const dir of [projectDir, home]) {
      for (const file of await filesUnder(dir)) expect((await readFile(join(dir, file))).includes(TOKEN), file).toBe(false);
    }
  });

  it('lists the session values in the Environments view with the request that set them; Clear forgets one, and Get me is then refused naming Login', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('Environments and globals', { delay: 20 });
    await page.keyboard.press('Enter');
    const values = page.getByRole('table', { name: 'Session values of Shop' });
    const token = values.getByRole('row', { name: 'Session value token' });
    await token.waitFor();
    await expect(token.innerText()).resolves.toMatch(/^token\s+••••••\s+from Login\s+Clear$/);
    await expect(page.locator('.session-values').innerText()).resolves.not.toContain(TOKEN);
    await screenshot(page, 'captures-session-values');
    await values.getByRole('button', { name: 'Clear token' }).click();
    await token.waitFor({ state: 'detached' });
    await expect(page.locator('.session-values').innerText()).resolves.toContain('Nothing captured this session.');

    // Gone for the send too: Get me is refused, naming the request whose capture sets it.
    await page.getByRole('treeitem', { name: /Get me/ }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await until(async () => (await page.locator('.request-editor').innerText()).includes('the request "Shop API/Login" captures it'), 10_000, () => 'the refusal did not name Login');
    expect(seen).toHaveLength(1);

    // Login again sets it again; Clear all forgets it.
    await page.getByRole('treeitem', { name: /Login/ }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('captures-chip').waitFor();
    await page.getByRole('tab', { name: /Environments/ }).click();
    await token.waitFor();
    await page.getByRole('button', { name: 'Clear all session values of Shop' }).click();
    await token.waitFor({ state: 'detached' });
  });
});
