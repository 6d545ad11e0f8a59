/**
 * gRPC requests in real Chromium against the real app and a @grpc/grpc-js server on 127.0.0.1
 * (docs/grpc.md): a request made with New gRPC request on the API's row, a unary method picked,
 * Example writing its message, a wrong field marked, a message with a variable typed, the call's
 * status and reply; a server stream watched as it comes; a bidirectional stream with a message
 * sent from the composer and half-closed.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { codeText, typeInto } from '../support/code-editor.js';
import { greeterDescriptor, startGrpcServer, type GrpcTestServer } from '../support/grpc-server.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { GRPC_DEFINITION_FORMAT, GRPC_DESCRIPTOR_FILE } from '../../protocol/grpc/definition.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('gRPC requests', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: GrpcTestServer;
  let project: string;

  beforeAll(async () => {
    server = await startGrpcServer();
    project = join(await mkdtemp(join(tmpdir(), 'parley-grpc-e2e-')), 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Calls' });
    const api = await store.createApi({ name: 'Greeter', baseUrl: server.baseUrl, api: { definition: { format: GRPC_DEFINITION_FORMAT, cached: [GRPC_DESCRIPTOR_FILE], fingerprint: 'e2e', apiVersion: '' } } });
    await mkdir(join(store.apiDir(api.id), 'definition'), { recursive: true });
    await writeFile(join(store.apiDir(api.id), GRPC_DESCRIPTOR_FILE), greeterDescriptor());
    await store.setProperties([{ name: 'who', value: 'Ada', enabled: true }]);
    await store.close();
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await server?.close();
  });

  const messages = () => page.getByRole('table', { name: 'Events' }).locator('.ev-row');
  const received = async () => (await messages().allTextContents()).filter((t) => t.includes('received'));
  const status = () => page.getByTestId('status').textContent();

  it('makes a gRPC request on the API row, picks a unary method, writes its example, and calls it', async () => {
    await page.getByRole('treeitem', { name: /Greeter/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'New gRPC request…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New request' });
    await expect(dialog.getByRole('combobox', { name: 'Kind' }).inputValue()).resolves.toBe('grpc');
    await dialog.getByRole('textbox', { name: 'Name' }).pressSequentially('Hello', { delay: 15 });
    await dialog.getByRole('button', { name: 'Create request' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('treeitem', { name: /Hello/ });
    await row.waitFor();
    await screenshot(page, 'grpc-new-request');
    expect(await row.textContent()).toMatch(/gRPC\s*Hello/i);

    await page.getByRole('combobox', { name: 'Method' }).selectOption({ label: 'SayHello · unary' });
    await expect(page.getByTestId('input-type').textContent()).resolves.toBe('parley.test.HelloRequest → parley.test.HelloReply');
    await page.getByRole('button', { name: 'Example' }).click();
    const editor = page.getByLabel('Message', { exact: true });
    await until(async () => (await codeText(editor)).includes('"mood": "MOOD_UNSPECIFIED"'));

    // A field the type does not have is marked where it is written.
    await typeInto(editor, '{"nmae": "x"}', 20);
    await page.locator('.cm-lintRange-error').first().waitFor();
    await page.locator('.cm-lintRange-error').first().hover();
    await page.getByText('$.nmae: parley.test.HelloRequest has no field "nmae".').waitFor();
    await screenshot(page, 'grpc-message-mark');

    await typeInto(editor, '{"name": "${who}", "mood": "HAPPY"', 20);
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Metadata/ }).click();
    await page.getByRole('textbox', { name: 'Metadata name' }).last().pressSequentially('x-echo', { delay: 15 });
    await typeInto(page.getByLabel('Metadata value of x-echo'), 'hi ${who}', 15);
    await page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: 'Message' }).click();

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await until(async () => (await status()) === '0 OK');
    const body = page.getByRole('region', { name: 'Response' });
    await until(async () => ((await body.textContent()) ?? '').includes('Hello Ada'));
    expect(server.lastMetadata()['x-echo']).toBe('hi Ada');
    await screenshot(page, 'grpc-unary');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const saved = () => readFile(join(project, 'apis', 'Greeter', 'requests', 'Hello.grpc.yaml'), 'utf8').catch((err: Error) => err.message);
    await until(async () => (await saved()).includes('method: "SayHello"'), 10_000, () => 'the request was not saved with its method');
  });

  it('watches a server stream as it comes', async () => {
    await page.getByRole('combobox', { name: 'Method' }).selectOption({ label: 'Count · server stream' });
    await typeInto(page.getByLabel('Message', { exact: true }), '{"count": 5, "every_ms": 100', 20);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
    await until(async () => (await received()).length >= 1);
    await until(async () => (await status()) === '0 OK');
    expect(await received()).toHaveLength(5);
    expect((await received())[4]).toContain('"n":5');
    await screenshot(page, 'grpc-server-stream');
  });

  it('sends on a bidirectional stream from the composer and half-closes it', async () => {
    await page.getByRole('combobox', { name: 'Method' }).selectOption({ label: 'Chat · bidirectional' });
    await typeInto(page.getByLabel('Message', { exact: true }), '{"name": "one"', 20);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await until(async () => (await received()).length === 1);
    await typeInto(page.getByLabel('Stream message', { exact: true }), '{"name": "${who}"', 20);
    await page.getByRole('button', { name: 'Send message' }).click();
    await until(async () => (await received()).length === 2);
    expect((await received())[1]).toContain('Hello Ada');
    await screenshot(page, 'grpc-bidi-open');
    await page.getByRole('button', { name: 'Half-close' }).click();
    await until(async () => (await status()) === '0 OK');
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await screenshot(page, 'grpc-bidi-closed');
  });
});
