/**
 * GraphQL requests in real Chromium against the real app and graphql-js served by graphql-http
 * on 127.0.0.1 (test/support/graphql-server.ts): the schema introspected on first open, a field
 * completed from it, the docs explorer, a send, and the server's validation error marked where
 * it is in the query; an assertion on the answer's errors being empty, failing on that error; a
 * subscription's results arriving in the Events view over graphql-ws.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { codeText } from '../support/code-editor.js';
import { startGraphqlServer, type GraphqlServer } from '../support/graphql-server.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('GraphQL requests', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: GraphqlServer;

  beforeAll(async () => {
    server = await startGraphqlServer();
    ({ app, browser, page } = await openUi(['--demo'], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
    await page.getByRole('treeitem', { name: /List pets/ }).dblclick();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await server?.close();
  });

  it('introspects on first open, completes a field, shows the docs, sends, and marks the server\'s error in the query', async () => {
    await page.getByLabel('URL', { exact: true }).fill(`${server.url}/graphql`);
    await page.getByRole('tab', { name: /^Body/ }).click();
    await page.getByRole('radio', { name: 'GraphQL' }).click();
    // No schema was cached: the editor asks the endpoint on first open.
    await until(async () => /Schema: \d+ types from http:\/\/127\.0\.0\.1:\d+\/graphql/.test((await page.getByTestId('graphql-schema').textContent()) ?? ''));
    expect(server.hits.some((hit) => hit.method === 'POST')).toBe(true);

    const query = page.getByLabel('GraphQL query', { exact: true });
    await query.click();
    await page.keyboard.type('{ us', { delay: 40 });
    const options = page.locator('.cm-tooltip-autocomplete li');
    await until(async () => (await options.allTextContents()).some((t) => t.startsWith('users')));
    // Each option is the field and its type, from the schema.
    await expect(options.allTextContents()).resolves.toEqual(['userUser', 'users[User!]!']);
    await screenshot(page, 'graphql-completion');
    await page.keyboard.press('Escape');
    // The editor closes brackets and quotes as they are opened: typing the closer steps over it.
    await page.keyboard.type('er(id: "1") {', { delay: 20 });
    await page.keyboard.press('Enter');
    await page.keyboard.type('name', { delay: 20 });
    await page.keyboard.press('Enter');
    await page.keyboard.type('nope', { delay: 20 });
    const text = await codeText(query);
    expect(text.replace(/\s+/g, ' ')).toBe('{ user(id: "1") { name nope }}');
    // The editor checks the query against the schema as it is typed.
    await until(async () => (await page.locator('.graphql-query .cm-lintRange-error').count()) > 0);

    await page.getByRole('button', { name: 'Docs' }).click();
    const docs = page.getByRole('complementary', { name: 'GraphQL docs' });
    await docs.getByRole('button', { name: 'Query' }).click();
    await expect(docs.getByTestId('graphql-type').textContent()).resolves.toContain('A greeting.');
    await docs.getByRole('button', { name: 'User', exact: true }).first().click();
    await expect(docs.getByTestId('graphql-type').textContent()).resolves.toContain('Where they live, when known.');

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await until(async () => ((await page.getByTestId('status').textContent()) ?? '').trim().length > 0);
    // The body's editor draws a frame after the status shows: wait for the text, not the status.
    let pane = '';
    await until(async () => (pane = (await page.locator('.response-pane').textContent()) ?? '').includes('Cannot query field'), 10_000, () => `the response pane shows: ${pane.slice(0, 300)}`);
    // The server's error is marked at its location in the query: `nope`.
    const serverMark = page.locator('.graphql-query .cm-lintRange-error', { hasText: 'nope' });
    await until(async () => (await serverMark.count()) > 0);
    await serverMark.first().hover();
    let tips = '';
    await until(async () => (tips = (await page.locator('.cm-tooltip-lint').allTextContents()).join(' | ')).includes('The server: Cannot query field "nope"'), 10_000, () => `lint tooltips: ${tips}`);
    await screenshot(page, 'graphql-error-marked');
  });

  it('asserts on the answer\'s errors being empty, a source offered with a GraphQL body', async () => {
    await page.getByRole('tab', { name: /^Assertions/ }).click();
    await page.getByRole('button', { name: 'Add assertion' }).click();
    await page.getByLabel('Assertion 1 source').selectOption('graphqlErrors');
    await expect(page.getByLabel('Assertion 1 operator').inputValue()).resolves.toBe('empty');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const chip = page.getByTestId('assertions-chip');
    await until(async () => (await chip.count()) > 0 && (await chip.innerText()) === 'Assertions 0/1');
    await chip.click();
    const result = page.getByRole('list', { name: 'Assertion results' }).locator('li').first();
    await expect(result.innerText().then((t) => t.replace(/\s+/g, ' ').trim())).resolves.toMatch(/^✗ GraphQL errors empty 1 GraphQL error, the first: "Cannot query field \\"nope\\"/);
  });

  it('sends a subscription over graphql-ws and shows its results arriving in Events, until the server completes it', async () => {
    await page.getByRole('button', { name: 'Remove assertion 1' }).click();
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Body/ }).click();
    const query = page.getByLabel('GraphQL query', { exact: true });
    await query.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // Brackets close as they are opened; typing the closer steps over it.
    await page.keyboard.type('subscription { ticks(count: 5, every: 300) }', { delay: 20 });
    expect((await codeText(query)).replace(/\s+/g, ' ')).toBe('subscription { ticks(count: 5, every: 300) }');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // While it runs: the handshake's 101, Events and Headers, Stop in place of Send.
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toMatch(/^101 Switching Protocols/);
    const events = page.getByRole('table', { name: 'Events' });
    await until(async () => (await events.locator('.ev-event').count()) >= 2);
    await expect(events.locator('.ev-event').first().locator('.ev-name').textContent()).resolves.toBe('next');
    await expect(events.locator('.ev-event').first().locator('.ev-data').textContent()).resolves.toBe('{"data":{"ticks":1}}');
    await screenshot(page, 'graphql-subscription-events');
    // The server completes the operation after the fifth: the stream ends, every result kept.
    await until(async () => ((await page.locator('.status-line').textContent()) ?? '').includes('GraphQL subscription, ended'), 15_000);
    await expect(page.getByRole('tablist', { name: 'Response views' }).getByRole('tab').first().textContent()).resolves.toBe('Events (5)');
    await expect(events.locator('.ev-event').last().locator('.ev-data').textContent()).resolves.toBe('{"data":{"ticks":5}}');
  });
});
