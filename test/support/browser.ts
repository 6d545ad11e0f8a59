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
