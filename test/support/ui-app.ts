/**
 * What every browser test starts from: the real `parley ui` (built CLI, real supervisor and
 * children) with the given arguments, Debian's Chromium, and one page on the app once it says it
 * is ready. One place for it, so a change to how the app starts or what "ready" means is made once.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { startApp, type RunningApp } from './app.js';
import { launchBrowser } from './browser.js';

export interface UiOptions {
  /** Environment for `parley ui` (PARLEY_HOME, a Kerberos realm, a missing keychain...). */
  env?: Record<string, string>;
  /** Playwright's timeout per step: under the test's own, so a step that never happens is named. */
  stepMs?: number;
  /** Browser permissions for the app's origin, e.g. the clipboard's. */
  permissions?: string[];
  /** Say yes to every confirm() the app asks (deleting an example, clearing History). */
  acceptDialogs?: boolean;
  /** False: the page is opened but the app not loaded (a test that loads it before each test). */
  load?: boolean;
}

export interface UiUnderTest {
  app: RunningApp;
  browser: BrowserContext;
  page: Page;
  /** Closes the browser, then stops the app. */
  close(): Promise<void>;
}

export async function openUi(args: string[], options: UiOptions = {}): Promise<UiUnderTest> {
  const app = await startApp(args, options.env);
  let browser: BrowserContext | undefined;
  try {
    browser = await launchBrowser();
    if (options.permissions) await browser.grantPermissions(options.permissions, { origin: new URL(app.url).origin });
    const page = await browser.newPage();
    if (options.stepMs !== undefined) page.setDefaultTimeout(options.stepMs);
    if (options.acceptDialogs) page.on('dialog', (dialog) => void dialog.accept());
    if (options.load !== false) await loadApp(page, app.url);
    const opened = browser;
    return {
      app,
      browser: opened,
      page,
      close: async () => {
        await opened.close();
        await app.stop();
      },
    };
  } catch (err) {
    await browser?.close();
    await app.stop();
    throw err;
  }
}

/** Loads the app at `url` in `page` and waits until it says it is ready. */
export async function loadApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
}
