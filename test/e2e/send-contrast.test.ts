/**
 * Send and its Stop state meet WCAG AA for their text (4.5:1) in both themes, at rest, hovered
 * and focused: the contrast of the colours Chromium computes (test/support/contrast.ts), themes
 * switched the way a user does (the palette's Toggle theme). Stop is seen on a send held open by
 * a server on 127.0.0.1 that answers only when the test lets it.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { contrastRatio, paintedContrast } from '../support/contrast.js';
import { openUi, type UiUnderTest } from '../support/ui-app.js';

const missing = chromiumMissing();
const AA = 4.5;
const TYPING_DELAY_MS = 25;

describe.skipIf(missing !== null)('Send contrast', () => {
  let ui: UiUnderTest;
  let page: Page;
  const held: ServerResponse[] = [];
  const server = createServer((_req, res) => void held.push(res));

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ui = await openUi(['--demo']);
    page = ui.page;
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /Get a pet/ }).click();
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    await ui?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('measures what WCAG measures', () => {
    expect(contrastRatio([0, 0, 0], [1, 1, 1])).toBeCloseTo(21, 5);
    expect(contrastRatio([0.5, 0.5, 0.5], [0.5, 0.5, 0.5])).toBe(1);
  });

  async function theme(wanted: 'light' | 'dark'): Promise<void> {
    const current = () => page.evaluate(() => document.documentElement.dataset.theme);
    if ((await current()) === wanted) return;
    await page.keyboard.press('Control+Shift+P');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    await page.keyboard.type('toggle theme', { delay: TYPING_DELAY_MS });
    await page.keyboard.press('Enter');
    await expect.poll(current).toBe(wanted);
  }

  /** The button's contrast at rest, under the pointer and with keyboard focus. */
  async function states(name: 'Send' | 'Stop'): Promise<Record<string, number>> {
    const button = page.getByRole('button', { name, exact: true });
    await page.mouse.move(0, 0);
    const rest = (await paintedContrast(button)).ratio;
    await button.hover();
    const hover = (await paintedContrast(button)).ratio;
    await page.mouse.move(0, 0);
    await button.focus();
    const focus = (await paintedContrast(button)).ratio;
    return { rest, hover, focus };
  }

  it('Send and Stop have text at 4.5:1 or more in the light and the dark theme', async () => {
    const url = page.getByLabel('URL', { exact: true });
    const seen: Record<string, Record<string, number>> = {};
    for (const which of ['light', 'dark'] as const) {
      await theme(which);
      seen[`${which} Send`] = await states('Send');
      // A send the server holds open: the button is Stop until the test answers.
      await url.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`, { delay: TYPING_DELAY_MS });
      const before = held.length;
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
      await expect.poll(() => held.length).toBe(before + 1);
      seen[`${which} Stop`] = await states('Stop');
      await screenshot(page, `send-contrast-${which}-stop`);
      held.at(-1)!.end('ok');
      await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    }
    console.info(Object.entries(seen).map(([what, r]) => `${what}: ${Object.entries(r).map(([k, v]) => `${k} ${v.toFixed(2)}:1`).join(', ')}`).join('\n'));
    for (const [what, ratios] of Object.entries(seen)) {
      for (const [state, ratio] of Object.entries(ratios)) expect(ratio, `${what} ${state}: ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(AA);
    }
  });
});
