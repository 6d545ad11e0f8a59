/**
 * Debian's Chromium driven by playwright-core, one persistent context per test file.
 * Under CI=true a missing browser fails the run loudly; elsewhere the caller is told to skip.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from '../../processes/supervisor/paths.js';
import { until } from './until.js';

export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const why = `Chromium is not installed at ${CHROMIUM} (Debian: apt-get install chromium).`;
  if (process.env.CI) throw new Error(`${why} Browser tests cannot be skipped under CI.`);
  return why;
}

export async function launchBrowser(): Promise<BrowserContext> {
  const profile = await mkdtemp(join(tmpdir(), 'parley-chromium-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(repoRoot(), 'test-results', 'screenshots');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * Starts recording the text of every element matching `selector` the page shows from now on,
 * however briefly (a status shown for one frame while a call is under way); the returned
 * function gives the texts seen, each once, in the order they first appeared.
 */
export async function recordTexts(page: Page, selector: string): Promise<() => Promise<string[]>> {
  const key = `parleyRecorded${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ key, selector }) => {
      const seen: string[] = [];
      (window as unknown as Record<string, string[]>)[key] = seen;
      const look = () => {
        for (const el of document.querySelectorAll(selector)) {
          const text = el.textContent?.trim() ?? '';
          if (text && !seen.includes(text)) seen.push(text);
        }
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
      look();
    },
    { key, selector },
  );
  return () => page.evaluate((key) => [...(window as unknown as Record<string, string[]>)[key]!], key);
}

/**
 * Expands the sidebar rows named, in order, leaving open the ones already open: a click toggles
 * a folder, and a reload may have restored (or a restored tab revealed) it open already.
 */
export async function expandTree(page: Page, ...names: (string | RegExp)[]): Promise<void> {
  for (const name of names) {
    const row = page.getByRole('treeitem', { name, exact: typeof name === 'string' });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    await until(async () => (await row.getAttribute('aria-expanded')) === 'true', 10_000, () => `the tree row ${String(name)} did not open`);
  }
}
