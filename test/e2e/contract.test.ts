/** The contract chip in Chromium: a passing response, then one that breaks its schema. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { expectContractPass } from '../support/contract-chip.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('contract chip', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ app, browser, page } = await openUi(['--demo']));
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('shows Contract ✓ for a response that matches its schema, with details on focus', async () => {
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /List pets/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expectContractPass(page);
    const chip = page.locator('[data-verdict]');
    await chip.focus();
    await expect(page.getByRole('tooltip').textContent()).resolves.toMatch(/Operation\s*GET \/pets.*Response\s*200.*Media type\s*application\/json/);
    await screenshot(page, 'contract-pass');
  });

  it('shows the problems of a response that breaks its schema: chip, markers, Problems rows', async () => {
    await page.getByRole('treeitem', { name: 'store', exact: true }).click();
    await page.getByRole('treeitem', { name: /Inventory counts/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    const chip = page.locator('[data-verdict="problems"]');
    await chip.waitFor();
    await expect(chip.textContent()).resolves.toBe('Contract: 2 problems');
    const rows = page.getByRole('region', { name: 'Problems' }).getByRole('button');
    await expect(rows.count()).resolves.toBe(2);
    const texts = await rows.allTextContents();
    expect(texts.join('\n')).toMatch(/\/available.*integer/);
    expect(texts.join('\n')).toMatch(/reserved/);
    // Problems never quote the body's values.
    expect(texts.join('\n')).not.toContain('"3"');
    // Each problem is marked in the body's gutter, at its property's line.
    await until(async () => (await page.locator('.response-code .cm-lint-marker-error').count()) >= 2, 10_000, () => 'the problems were not marked in the body');
    await rows.first().click();
    await until(async () => (await page.locator('.response-code .cm-line.cm-flash').count()) === 1, 10_000, () => 'the problem row did not jump to its line');
    await screenshot(page, 'contract-problems');
  });

  it('keeps each send’s chip in History', async () => {
    await page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('list', { name: 'History' });
    await history.waitFor();
    await expect(history.locator('.chip').first().textContent()).resolves.toBe('Contract: 2 problems');
    await screenshot(page, 'contract-history');
  });
});
