/**
 * Query over XML (issue 27, item 11), in real Chromium against the real app and a real server on
 * 127.0.0.1: a request typed into the URL bar gets a SOAP fault (node-soap's NetSuite login fault,
 * test/fixtures/xml-bodies/SOURCES.md); the Query tab offers XPath 3.1 only, names the prefixes
 * the body declares, and runs expressions typed key by key: values, elements as XML that stands
 * alone, an unknown prefix explained. A body nested too deep is not queried, and the tab says why.
 * Over a JSON body, `//name` is explained as the map lookup it means, and a JSONPath filter error
 * has its caret under the character typed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { blankRequest } from '../../protocol/model/request.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { repoRoot } from '../../processes/supervisor/paths.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { until } from '../support/until.js';

const missing = chromiumMissing();
const TYPING_DELAY_MS = 25;

const responseTab = (page: Page, name: string) => page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: new RegExp(`^${name}`) });

describe.skipIf(missing !== null)('the Query tab over an XML response', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;
  let server: Server;
  let origin = '';

  beforeAll(async () => {
    const fault = await readFile(join(repoRoot(), 'test/fixtures/xml-bodies/node-soap/login__error_returned_should_contain_root_Json_on_fault/response.xml'));
    const deep = `<r>${'<a>'.repeat(600)}${'</a>'.repeat(600)}</r>`;
    server = createServer((req, res) => {
      // A SOAP 1.1 fault answers 500, as text/xml.
      if (req.url === '/login') res.writeHead(500, { 'Content-Type': 'text/xml; charset=utf-8' }).end(fault);
      else if (req.url === '/deep') res.writeHead(200, { 'Content-Type': 'application/xml' }).end(deep);
      else if (req.url === '/json') res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ store: { name: 'Corner books', book: [{ title: 'A', price: 8 }] } }));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const project = join(await mkdtemp(join(tmpdir(), 'parley-query-xml-e2e-')), 'project');
    const store = await ProjectStore.open(project, { create: true, name: 'Soap' });
    const api = await store.createApi({ name: 'NetSuite', baseUrl: origin });
    await store.commit([store.newRequestChange(api.id, '', blankRequest({ id: 'r_login', name: 'Login', method: 'POST', url: '' }))]);
    await store.close();
    ({ app, browser, page } = await openUi([project], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /NetSuite/ }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    server?.close();
  });

  async function send(path: string): Promise<void> {
    const url = page.getByLabel('URL', { exact: true });
    await url.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(`${origin}${path}`, { delay: TYPING_DELAY_MS });
    await page.keyboard.press('Control+Enter');
  }

  const outcome = async () => ((await page.locator('.query-result, .query-error').count()) > 0 ? await page.locator('.query-result, .query-error').first().textContent() : null);

  /**
   * Types the expression key by key over what was there, runs it with Enter, and waits for its
   * outcome: the result or error shown until then is replaced (each expression here gives another).
   */
  async function query(expression: string): Promise<void> {
    const before = await outcome();
    const input = page.getByLabel('Query expression');
    await input.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(expression, { delay: TYPING_DELAY_MS });
    await expect(input.inputValue()).resolves.toBe(expression);
    await page.keyboard.press('Enter');
    await until(async () => (await page.getByRole('button', { name: 'Run', exact: true }).count()) === 1 && ![null, before].includes(await outcome()));
  }

  const items = () => page.getByLabel('Query results').getByRole('listitem').allTextContents();

  it('runs XPath 3.1 typed by the user over a SOAP fault, with the prefixes the body declares', async () => {
    await page.getByRole('treeitem', { name: /Login/ }).click();
    await send('/login');
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('500');
    await responseTab(page, 'Query').click();

    // XML is read by XPath only; the prefixes it declares are named.
    await expect(page.getByLabel('Query language').inputValue()).resolves.toBe('xpath');
    await expect(page.getByLabel('Query language').locator('option', { hasText: 'JSONPath' }).isDisabled()).resolves.toBe(true);
    await expect(page.locator('.query-what').textContent()).resolves.toBe(
      'Reads the XML body with XPath 3.1. Its prefixes can be used: soapenv:, xsd:, xsi:, platformFaults:, ns1:. An unprefixed name is in no namespace (or the root element’s default one); *:name matches a name in any namespace.',
    );

    // A prefix declared deep inside the detail, and a value.
    await query('//platformFaults:code/string()');
    await expect(page.getByTestId('query-count').textContent()).resolves.toBe('1 result');
    await expect(items()).resolves.toEqual(['INVALID_LOGIN_CREDENTIALS']);

    // Elements come back as XML that stands alone: each with the namespace it needs.
    await query('//detail/*');
    await expect(page.getByTestId('query-count').textContent()).resolves.toBe('2 results');
    const [credentials, host] = await items();
    expect(credentials).toMatch(/^<platformFaults:invalidCredentialsFault xmlns:platformFaults="urn:faults_2013_2\.platform\.webservices\.netsuite\.com">\s*<platformFaults:code>INVALID_LOGIN_CREDENTIALS<\/platformFaults:code>/);
    expect(host).toBe('<ns1:hostname xmlns:ns1="http://xml.apache.org/axis/">partners-java10009.bos.netledger.com</ns1:hostname>');
    await screenshot(page, 'query-xml-fault');

    // `*:name` over the fault string, and a count.
    await query('count(//*:Fault), //faultstring/string()');
    await expect(items()).resolves.toEqual(['1', 'You have entered an invalid email address or password. Please try again.']);

    // A prefix the body does not declare: said, with the ones it does.
    await query('//soap:Fault');
    const alert = page.locator('.query-error');
    await expect(alert.textContent()).resolves.toContain('The expression has an error');
    await expect(alert.textContent()).resolves.toContain('XPST0081: The prefix soap could not be resolved. The document declares soapenv, xsd, xsi, platformFaults, ns1; *:name matches a name in any namespace.');
    await expect(page.getByLabel('Query results').count()).resolves.toBe(0);
    await screenshot(page, 'query-xml-prefix-error');
  });

  it('says a body nested deeper than the limit is not queried', async () => {
    await send('/deep');
    await until(async () => (await page.getByTestId('status').textContent())?.includes('200'));
    await responseTab(page, 'Query').click();
    await query('count(//a)');
    const alert = page.locator('.query-error');
    await expect(alert.textContent()).resolves.toBe('Not queriedThe body nests elements more than 512 deep, the most an XML body may nest to be read. It is not queried.');
  });

  it('explains a node path over a JSON body as the map lookup it means, and puts a JSONPath filter error where it is', async () => {
    await send('/json');
    await until(async () => (await page.getByTestId('status').textContent())?.includes('200'));
    await responseTab(page, 'Query').click();
    await page.getByLabel('Query language').selectOption('xpath');
    await query('//name');
    const alert = page.locator('.query-error');
    await expect(alert.textContent()).resolves.toContain('//name looks for XML nodes (elements, attributes, text), but this body is JSON, which XPath 3.1 reads as maps and arrays: look the key up with ?name');
    await expect(alert.textContent()).resolves.not.toContain('nodeType');
    await query('?store?name');
    await expect(page.getByLabel('Query results').textContent()).resolves.toContain('Corner books');

    await page.getByLabel('Query language').selectOption('jsonpath');
    await query('$.store.book[?(@.price ==)]');
    // jsonpath-plus counts in its rewrite of the filter; the caret is under the `)` typed.
    await expect(alert.locator('pre').textContent()).resolves.toBe(`JSONPath: Expected expression after == (at character 26)\n$.store.book[?(@.price ==)]\n${' '.repeat(25)}^`);
    await screenshot(page, 'query-json-errors');
  });
});
