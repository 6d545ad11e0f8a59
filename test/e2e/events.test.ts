/**
 * Event streams, the Query tab and the inert HTML preview in real Chromium, against the real app
 * and real servers on 127.0.0.1: an SSE server (test/support/sse-server.ts) and a server of one
 * HTML page that references everything a page can fetch.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { startSseServer, type SseServer } from '../support/sse-server.js';
import { until } from '../support/until.js';
import { codeText, typeInto } from '../support/code-editor.js';

const missing = chromiumMissing();

const views = (page: Page) => page.getByRole('tablist', { name: 'Response views' });
const responseTab = (page: Page, name: string) => views(page).getByRole('tab', { name: new RegExp(`^${name}`) });
const eventCount = async (page: Page) => Number(((await page.getByTestId('events-count').textContent()) ?? '').replace(/[^\d]/g, ''));

/** A 2x2 red PNG. */
const RED_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAxAAAGPcDAfKTH/EAAAAASUVORK5CYII=';

/** A page that tries every way of running code, submitting, navigating and fetching. */
function hostilePage(origin: string): string {
  return `<!doctype html>
<html><head>
<title>Hostile page</title>
<meta http-equiv="refresh" content="0; url=${origin}/meta-refresh">
<base href="${origin}/base/">
<link rel="stylesheet" href="${origin}/linked.css">
<link rel="preload" as="image" href="${origin}/preload.png">
<link rel="icon" href="${origin}/favicon.ico">
<style>
  @import url("${origin}/imported.css");
  @font-face { font-family: Remote; src: url("${origin}/font.woff2") format("woff2"); }
  body { background-image: url("${origin}/background.png"); font-family: Remote, sans-serif; }
  #styled { color: rgb(200, 30, 40); border: 3px solid rgb(10, 120, 60); padding: 6px; }
</style>
<script src="${origin}/external.js"></script>
<script>
  fetch('${origin}/inline-script').catch(() => {});
  document.title = 'script ran';
  document.addEventListener('DOMContentLoaded', () => document.body.insertAdjacentHTML('beforeend', '<p id="ran">script ran</p>'));
</script>
</head>
<body background="${origin}/body-background.png" onload="fetch('${origin}/onload')">
  <h1 id="styled" style="font-style: italic">Styled heading</h1>
  <p style="background: rgb(250, 240, 200)">Inline style and a data: image:</p>
  <img id="data-image" alt="data image" src="data:image/png;base64,${RED_PNG}" width="20" height="20">
  <img id="remote-image" alt="remote image" src="${origin}/remote.png" srcset="${origin}/remote-2x.png 2x">
  <img alt="broken" src="nowhere.png" onerror="fetch('${origin}/onerror')">
  <picture><source srcset="${origin}/picture.webp"><img alt="picture" src="data:image/png;base64,${RED_PNG}"></picture>
  <video poster="${origin}/poster.png" src="${origin}/video.mp4"></video>
  <iframe src="${origin}/framed"></iframe>
  <object data="${origin}/object.svg"></object>
  <embed src="${origin}/embed.swf">
  <svg width="10" height="10"><image href="${origin}/svg-image.png" width="10" height="10"/></svg>
  <form action="${origin}/submit" method="post"><input name="q" value="x"><button id="submit-button" type="submit">Submit</button></form>
  <form action="${origin}/submit-image"><input type="image" id="image-submit" alt="go" src="${origin}/input-image.png"></form>
  <a id="link" href="${origin}/link" ping="${origin}/ping">A link</a>
  <a id="blank-link" href="${origin}/blank" target="_blank">A link to a new window</a>
</body></html>`;
}

/**
 * Issue 26's bypass of the old cleaner (MathML mglyph and style: an image and a link came back
 * live in the frame) beside an ordinary link, which left the preview on Chromium's error page.
 */
function mxssPage(origin: string): string {
  return `<!doctype html><html><head><title>Mutation</title></head><body>
  <h1 id="still-here">Still the document</h1>
  <a id="plain-link" href="${origin}/plain-link">An ordinary link</a>
  <math><mtext><table><mglyph><style><img id="mxss-image" src=x onerror="fetch('${origin}/onerror')"><a id="mxss-link" href="${origin}/mxss-link">A link in the vector</a></style></mglyph></table></mtext></math>
</body></html>`;
}

describe.skipIf(missing !== null)('event streams, Query and the HTML preview', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let sse: SseServer;
  let html: Server;
  let htmlOrigin: string;
  const htmlHits: string[] = [];

  beforeAll(async () => {
    sse = await startSseServer();
    html = createServer((req, res) => {
      htmlHits.push(req.url ?? '/');
      if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostilePage(htmlOrigin));
      else if (req.url === '/mxss') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(mxssPage(htmlOrigin));
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('fetched');
    });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    htmlOrigin = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /List pets/ }).dblclick();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await sse?.close();
    await new Promise<void>((resolve) => (html ? html.close(() => resolve()) : resolve()));
  });

  async function sendTo(url: string): Promise<void> {
    // A stream an earlier test left running is stopped first.
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    if (await stop.count()) await stop.click();
    await typeInto(page.getByLabel('URL', { exact: true }), url);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
  }

  it('shows a stream event by event as it arrives: Stop while it runs, Events and Headers only, then stopped and every tab', async () => {
    await sendTo(`${sse.url}/events?count=100000&every=40`);
    await page.getByTestId('stream-state').waitFor();
    await expect(page.getByTestId('stream-state').textContent()).resolves.toContain('open');
    // Send reads Stop while the stream runs, and only Events and Headers are shown.
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    await expect(views(page).getByRole('tab').allTextContents()).resolves.toEqual([expect.stringMatching(/^Events \(\d+\)$/), expect.stringMatching(/^Headers \(\d+\)$/)]);
    // Rows arrive live: the count grows while we watch.
    await until(async () => (await eventCount(page)) >= 3);
    const early = await eventCount(page);
    await until(async () => (await eventCount(page)) >= early + 5);
    const events = page.getByRole('table', { name: 'Events' });
    // The list follows the newest rows until scrolled: the first rows are at the top.
    const toTop = () => until(async () => (await events.evaluate((el) => (el.scrollTop = 0))) === 0 && (await events.locator('.ev-row .ev-n').first().textContent()) === '1');
    await toTop();
    await expect(events.locator('.ev-event').first().locator('.ev-name').textContent()).resolves.toBe('tock');
    await expect(events.locator('.ev-event').first().locator('.ev-id').textContent()).resolves.toBe('1');
    await expect(events.locator('.ev-event').first().locator('.ev-data').textContent()).resolves.toBe('{"n":1,"even":false,"label":"item 1"}');
    await expect(events.locator('.ev-event').first().locator('.ev-time').textContent()).resolves.toMatch(/^\d\d:\d\d:\d\d\.\d\d\d$/);
    // The comment line and the retry field are shown alongside; the toggle hides them.
    await expect(events.locator('.ev-comment .ev-data').first().textContent()).resolves.toBe('stream starts');
    await expect(events.locator('.ev-retry .ev-data').first().textContent()).resolves.toBe('3000 ms');
    await screenshot(page, 'events-live');
    await page.getByLabel('Comments and retry').uncheck();
    await until(async () => (await events.locator('.ev-comment, .ev-retry').count()) === 0);
    await page.getByLabel('Comments and retry').check();
    await toTop();
    await events.locator('.ev-comment').first().waitFor();
    // Headers while it runs.
    await responseTab(page, 'Headers').click();
    await expect(page.locator('.kv-table').textContent()).resolves.toContain('text/event-stream');
    await responseTab(page, 'Events').click();
    await toTop();
    // A row opens its whole data, as JSON.
    await events.locator('.ev-event').nth(1).click();
    await expect(page.getByRole('region', { name: 'Event data' }).textContent()).resolves.toContain('"label": "item 2"');

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await until(async () => (await page.getByTestId('stream-state').textContent()) === 'stopped');
    const stoppedAt = await eventCount(page);
    expect(stoppedAt).toBeGreaterThanOrEqual(early + 5);
    // Stopped is never an error: no alert, no failure, and the send is over.
    await expect(page.locator('.response-error, .stream-error').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await expect(views(page).getByRole('tab').allTextContents()).resolves.toEqual([
      `Events (${stoppedAt})`,
      expect.stringMatching(/^Headers/),
      expect.stringMatching(/^Cookies/),
      expect.stringMatching(/^Redirects/),
      'Timing',
      'Raw',
      'Query',
      'History',
    ]);
    await expect(page.locator('.status-line').textContent()).resolves.toContain('event stream, stopped');
    await screenshot(page, 'events-stopped');
  });

  it('re-sends a stream from History live: rows arrive as they come, Stop stops it as stopped (the response pane\'s History and the History view)', async () => {
    const streamUrl = `${sse.url}/events?count=100000&every=40&from=history`;
    await sendTo(streamUrl);
    await until(async () => (await page.getByTestId('stream-state').count()) > 0 && (await eventCount(page)) >= 2);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await until(async () => (await page.getByTestId('stream-state').textContent()) === 'stopped');
    // The request now goes elsewhere on the same server: the re-send is the entry's, a stream.
    await typeInto(page.getByLabel('URL', { exact: true }), `${sse.url}/json`);

    /** Re-sent: the Events tab is open and growing with Stop, then Stop ends it as stopped, never an error. */
    const watchLiveThenStop = async (shot: string) => {
      await until(async () => (await page.getByTestId('stream-state').count()) > 0 && (await page.getByTestId('stream-state').textContent()) === 'open');
      await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
      await until(async () => (await eventCount(page)) >= 2);
      const early = await eventCount(page);
      await until(async () => (await eventCount(page)) >= early + 5);
      await expect(page.locator('.status-line').textContent()).resolves.toContain('200');
      await screenshot(page, shot);
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await until(async () => (await page.getByTestId('stream-state').textContent()) === 'stopped');
      expect(await eventCount(page)).toBeGreaterThanOrEqual(early + 5);
      await expect(page.locator('.response-error, .stream-error').count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
      await page.locator('.toast', { hasText: 'Re-sent this entry through the request.' }).last().waitFor();
      await responseTab(page, 'Raw').click();
      await expect(codeText(page.getByLabel('Raw exchange'))).resolves.toContain('/events?count=100000&every=40&from=history');
    };

    await responseTab(page, 'History').click();
    const entry = page.getByRole('list', { name: 'History' }).getByRole('listitem').filter({ hasText: 'from=history' }).first();
    await entry.getByRole('button', { expanded: false }).click();
    await entry.getByRole('button', { name: 'Re-send' }).click();
    await watchLiveThenStop('events-resend-live');

    // From the app-wide History view: the stream streams in its request's editor, which comes forward.
    await page.keyboard.press('Control+Shift+H');
    const view = page.locator('.history-editor');
    await view.waitFor();
    const row = view.getByRole('list', { name: 'History' }).getByRole('listitem').filter({ hasText: 'from=history' }).last();
    await row.getByRole('button', { expanded: false }).click();
    await row.getByRole('button', { name: 'Re-send' }).click();
    await watchLiveThenStop('events-resend-history-view');
  });

  it('runs JSONPath and XPath 3.1 over the events kept, and reports an expression error clearly', async () => {
    await responseTab(page, 'Query').click();
    await expect(page.locator('.query-what').textContent()).resolves.toContain('events kept');
    const expression = page.getByLabel('Query expression');
    await page.getByLabel('Query language').selectOption('jsonpath');
    await expression.fill('$[?(@.event == "tick")].json.n');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('query-count').waitFor();
    const ticks = JSON.parse((await page.getByLabel('Query results').textContent())!) as number[];
    expect(ticks.slice(0, 3)).toEqual([2, 4, 6]);
    await expect(page.getByTestId('query-count').textContent()).resolves.toBe(`${ticks.length} results`);

    await page.getByLabel('Query language').selectOption('xpath');
    await expression.fill('array:size(array { ?*[?json?even = false()] }) > 1, ?1?id');
    await page.getByRole('button', { name: 'Run' }).click();
    await until(async () => (await page.getByLabel('Query results').textContent())?.includes('"1"'));
    expect(JSON.parse((await page.getByLabel('Query results').textContent())!)).toEqual([true, '1']);
    await screenshot(page, 'query-events');

    await expression.fill('?*[?json?n = ]');
    await page.getByRole('button', { name: 'Run' }).click();
    const alert = page.locator('.query-error');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/The expression has an error.*XPath: /s);
    await expect(page.getByLabel('Query results').count()).resolves.toBe(0);
    await screenshot(page, 'query-error');
  });

  it('ends a stream whose server drops the connection as stopped, with its error and the events received', async () => {
    await sendTo(`${sse.url}/drop?after=3`);
    await until(async () => (await page.getByTestId('stream-state').textContent()) === 'stopped', 15_000);
    await expect(eventCount(page)).resolves.toBe(3);
    const error = page.locator('.stream-error');
    await expect(error.textContent()).resolves.toMatch(/The connection dropped: .+/);
    // Still a response, not a failed send.
    await expect(page.locator('.response-error').count()).resolves.toBe(0);
    await expect(page.getByTestId('status').textContent()).resolves.toContain('200');
    await screenshot(page, 'events-dropped');
  });

  it('counts 20,000 events exactly while the list draws only the rows in view', async () => {
    await sendTo(`${sse.url}/many?count=20000`);
    await until(async () => (await page.getByTestId('stream-state').count()) > 0 && (await page.getByTestId('stream-state').textContent()) === 'ended', 20_000);
    await expect(eventCount(page)).resolves.toBe(20_000);
    await expect(page.getByTestId('rows-count').textContent()).resolves.toContain('20,000 rows in all');
    await expect(page.getByTestId('rows-count').textContent()).resolves.toContain('15,000 not kept');
    // The first 400 and the last 4,600 with the gap between them, drawn as a window.
    const rows = await page.locator('.ev-row').count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(120);
    await expect(page.locator('.ev-row').last().locator('.ev-n').textContent()).resolves.toBe('20000');
    await page.locator('.events-list').evaluate((el) => (el.scrollTop = 399 * 26));
    await page.locator('.ev-gap').waitFor();
    await expect(page.locator('.ev-gap').textContent()).resolves.toContain('15,000 rows not kept');
    await screenshot(page, 'events-20000');
  });

  it('queries a JSON body with XPath 3.1 (maps, arrays, filters) and JSONPath; an XML body by XPath 3.1 only', async () => {
    await sendTo(`${sse.url}/json`);
    await page.getByTestId('status').waitFor();
    await until(async () => (await views(page).getByRole('tab', { name: 'Body' }).count()) === 1);
    await responseTab(page, 'Query').click();
    const expression = page.getByLabel('Query expression');
    const run = async (language: 'xpath' | 'jsonpath', text: string) => {
      await page.getByLabel('Query language').selectOption(language);
      await expression.fill(text);
      const before = await page.getByLabel('Query results').count() ? await page.getByLabel('Query results').textContent() : null;
      await page.getByRole('button', { name: 'Run' }).click();
      await until(async () => !(await page.getByRole('button', { name: 'Running…' }).count()) && (await page.getByLabel('Query results').count()) > 0 && (await page.getByLabel('Query results').textContent()) !== before);
      return JSON.parse((await page.getByLabel('Query results').textContent())!) as unknown;
    };
    await expect(run('xpath', '?store?book?*[?price > 10]?title')).resolves.toEqual(['B']);
    await expect(run('xpath', 'map:keys(?store), array:size(?store?book)')).resolves.toEqual(['book', 2]);
    await expect(run('xpath', '?store?book?1')).resolves.toEqual([{ title: 'A', price: 8 }]);
    await expect(run('jsonpath', '$.store.book[?(@.price < 10)].title')).resolves.toEqual(['A']);
    await expect(run('jsonpath', '$..price')).resolves.toEqual([8, 22]);
    await expect(page.getByTestId('query-count').textContent()).resolves.toBe('2 results');
    await screenshot(page, 'query-json');

    // XML is queried too, by XPath 3.1 only (test/e2e/query-xml.test.ts runs it).
    await sendTo(`${sse.url}/xml`);
    await until(async () => (await page.locator('.query-what').textContent())?.startsWith('Reads the XML body with XPath 3.1.'));
    await expect(page.getByLabel('Query language').inputValue()).resolves.toBe('xpath');
  });

  it('previews an HTML body inside Body as an inert page: no script runs, nothing is fetched, forms and links do nothing; inline styles and data: images render', async () => {
    await sendTo(`${htmlOrigin}/page`);
    await page.getByTestId('status').waitFor();
    await until(async () => (await views(page).getByRole('tab', { name: 'Body' }).count()) === 1);
    await responseTab(page, 'Body').click();
    await screenshot(page, 'html-pretty');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const frameElement = page.locator('iframe.html-preview');
    await frameElement.waitFor();
    await expect(frameElement.getAttribute('sandbox')).resolves.toBe('');
    const frame = page.frameLocator('iframe.html-preview');
    // Inline styles and the data: image render.
    await frame.locator('#styled').waitFor();
    await expect(frame.locator('#styled').evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(200, 30, 40)');
    await expect(frame.locator('#styled').evaluate((el) => getComputedStyle(el).fontStyle)).resolves.toBe('italic');
    await until(() => frame.locator('#data-image').evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 2));
    // The remote image is not loaded.
    await expect(frame.locator('#remote-image').evaluate((img) => (img as HTMLImageElement).naturalWidth)).resolves.toBe(0);
    // Forms do not submit, links do not navigate (the app's page stays where it is).
    const appUrl = page.url();
    const windows = browser.pages().length;
    // (Not id="submit": DOMPurify drops an id that clobbers a form's own property, as that one would.)
    await frame.locator('#submit-button').click();
    await frame.locator('#link').click();
    await frame.locator('#blank-link').click();
    await frame.locator('#styled').waitFor();
    expect(page.url()).toBe(appUrl);
    expect(browser.pages()).toHaveLength(windows);
    // No script ran: its DOM change and title are absent.
    await expect(frame.locator('#ran').count()).resolves.toBe(0);
    await expect(frame.locator('title').textContent()).resolves.toBe('Hostile page');
    await screenshot(page, 'html-preview');
    // Nothing the page references was fetched: the server saw the page and then only the next send.
    await sendTo(`${htmlOrigin}/after`);
    await until(() => htmlHits.includes('/after'));
    expect(htmlHits).toEqual(['/page', '/after']);
    // Its response in, so the next test's sendTo does not see a Stop that goes as it clicks it.
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'detached' });
  });

  it('keeps the preview on its document when a link is clicked, the mutation-XSS vector of issue 26 included; the pane says links are not followed', async () => {
    await sendTo(`${htmlOrigin}/mxss`);
    await until(() => htmlHits.includes('/mxss'));
    await until(async () => (await views(page).getByRole('tab', { name: 'Body' }).count()) === 1);
    await responseTab(page, 'Body').click();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const frame = page.frameLocator('iframe.html-preview');
    await frame.locator('#still-here').waitFor();
    const hitsBefore = htmlHits.length;
    await frame.locator('#plain-link').click();
    if (await frame.locator('#mxss-link').count()) await frame.locator('#mxss-link').click({ force: true });
    // Still the document: the frame was not navigated (an error page has none of it) and nothing was fetched.
    await frame.locator('#still-here').waitFor({ timeout: 5_000 });
    await expect(frame.locator('#still-here').textContent()).resolves.toBe('Still the document');
    const content = await (await page.locator('iframe.html-preview').elementHandle())!.contentFrame();
    expect(content!.url()).toBe('about:srcdoc');
    // Every link the frame shows is marked as not followed, and no URL or handler stayed anywhere.
    const links = frame.locator('a');
    await until(async () => (await links.count()) >= 1);
    for (const link of await links.all()) {
      await expect(link.getAttribute('title')).resolves.toMatch(/links are not followed in the preview/i);
      await expect(link.getAttribute('href')).resolves.toBeNull();
    }
    await expect(frame.locator('[onerror], [href]').count()).resolves.toBe(0);
    // The pane says so too.
    await expect(page.getByTestId('html-preview-note').textContent()).resolves.toContain('links are not followed');
    await screenshot(page, 'html-preview-mxss');
    await sendTo(`${htmlOrigin}/after-mxss`);
    await until(() => htmlHits.includes('/after-mxss'));
    expect(htmlHits.slice(hitsBefore)).toEqual(['/after-mxss']);
  });
});
