/** The contract chip of the response on screen, as SPEC allows it on a loaded machine. */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/**
 * Waits for the chip to say Contract ✓. SPEC's 1000 ms include reading and compiling the
 * definition on the first check: a loaded machine can miss them once, which the chip must then
 * say ("did not finish within 1000 ms"); the definition is warm after, so one more Send passes.
 */
export async function expectContractPass(page: Page): Promise<void> {
  // Any verdict first, so a failure names the one that came (a Not checked says why).
  const chip = page.locator('[data-verdict]');
  await chip.waitFor();
  if ((await chip.getAttribute('data-verdict')) === 'not-checked') {
    await chip.focus();
    await expect(page.getByRole('tooltip').textContent()).resolves.toMatch(/did not finish within 1000 ms/);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-verdict]:not([data-verdict="not-checked"])').waitFor();
  }
  expect([await chip.getAttribute('data-verdict'), await chip.textContent()]).toEqual(['pass', 'Contract ✓']);
}
