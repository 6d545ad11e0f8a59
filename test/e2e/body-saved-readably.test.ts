/**
 * A body typed in the editor is saved readably (issue 27, item 5), in real Chromium: a new
 * request's file holds `text: ""`; typed lines and Save make the body a literal block in the
 * file, one line per line, and an edit of one line changes one line of the file.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { blankRequest } from '../../protocol/model/request.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('a typed body is saved readably', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let project: string;
  const file = () => join(project, 'apis', 'Notes', 'requests', 'Post a note.request.yaml');

  beforeAll(async () => {
    project = join(await mkdtemp(join(tmpdir(), 'parley-body-yaml-e2e-')), 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Bodies' });
    const api = await store.createApi({ name: 'Notes', baseUrl: 'http://127.0.0.1:9' });
    await store.commit([store.newRequestChange(api.id, '', blankRequest({ id: 'r_note', name: 'Post a note', method: 'POST', url: '/notes' }))]);
    await store.close();
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /Notes/ }).click();
    await page.getByRole('treeitem', { name: /Post a note/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('writes typed lines as a literal block, and one edited line as one changed line of the file', async () => {
    expect(await readFile(file(), 'utf8')).toContain('text: ""');
    await page.getByRole('tab', { name: /^Body/ }).click();
    await page.getByRole('radiogroup', { name: 'Body kind' }).getByRole('radio', { name: /^Raw/ }).click();
    const body = page.getByLabel('Body', { exact: true });
    await body.click();
    const lines = ['first line', '# not a comment', 'user: ${user}', '- looks like a list', 'last line'];
    for (const [i, line] of lines.entries()) {
      await page.keyboard.type(line, { delay: 10 });
      if (i < lines.length - 1) await page.keyboard.press('Enter');
    }
    await page.keyboard.press('Control+S');
    await until(async () => (await readFile(file(), 'utf8')).includes('last line'));
    const first = await readFile(file(), 'utf8');
    expect(first).toContain(`    text: |-\n${lines.map((l) => `      ${l}`).join('\n')}\n`);
    expect(parseYaml(first).body.raw.text).toBe(lines.join('\n'));

    // Change the second line's text: one line of the file changes.
    await body.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.type(' at all', { delay: 10 });
    await page.keyboard.press('Control+S');
    await until(async () => (await readFile(file(), 'utf8')).includes('at all'));
    const second = await readFile(file(), 'utf8');
    const a = first.split('\n');
    const b = second.split('\n');
    expect(b.length).toBe(a.length);
    expect(b.filter((l, i) => l !== a[i])).toEqual(['      # not a comment at all']);
  });
});
