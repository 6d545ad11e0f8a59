/**
 * The Form view of a JSON body in real Chromium: the demo's "Create a pet" is linked to
 * POST /pets, whose body schema is NewPet { name (required), tag }. Edit it as a form, see the
 * JSON text follow, break the JSON and find the way back to Text, send what the form made.
 * A second project's order schema has nested objects, arrays, a oneOf with a discriminator,
 * an enum and a 3.0 nullable, to edit every kind of field.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { defaultSettings, emptyBody } from '../../protocol/model/request.js';
import { DEFINITION_DIR } from '../../protocol/project/layout.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { RunningApp } from '../support/app.js';
import { chromiumMissing, screenshot } from '../support/browser.js';
import { openUi } from '../support/ui-app.js';
import { codeText } from '../support/code-editor.js';

const missing = chromiumMissing();

const SHOP = `openapi: 3.0.3
info: { title: Shop, version: 1.0.0 }
paths:
  /orders:
    post:
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Order' }
      responses: { '201': { description: Placed } }
components:
  schemas:
    Order:
      type: object
      required: [owner, items, payment]
      properties:
        owner: { $ref: '#/components/schemas/Person' }
        items: { type: array, minItems: 1, items: { $ref: '#/components/schemas/Line' } }
        tags: { type: array, maxItems: 5, items: { type: string } }
        address: { $ref: '#/components/schemas/Address' }
        payment:
          oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Transfer' }]
          discriminator: { propertyName: method, mapping: { card: '#/components/schemas/Card', transfer: '#/components/schemas/Transfer' } }
        giftWrap: { type: boolean }
        note: { type: string, nullable: true, maxLength: 200, description: Printed on the packing slip. }
        priority: { type: string, enum: [normal, express, overnight] }
    Person:
      type: object
      required: [name]
      properties: { name: { type: string, minLength: 1 }, email: { type: string, format: email } }
    Line:
      type: object
      required: [sku, quantity]
      properties: { sku: { type: string, pattern: '^[A-Z]{3}-[0-9]+$' }, quantity: { type: integer, minimum: 1, maximum: 99 } }
    Address:
      type: object
      required: [lines, country]
      properties: { lines: { type: array, minItems: 1, maxItems: 3, items: { type: string } }, country: { type: string, enum: [NL, BE, DE, FR] } }
    Card:
      title: Card
      type: object
      required: [method, number]
      properties: { method: { type: string }, number: { type: string, minLength: 12 }, expires: { type: string, example: 12/27 } }
    Transfer:
      title: Bank transfer
      type: object
      required: [method, iban]
      properties: { method: { type: string }, iban: { type: string } }
`;

const ORDER = {
  owner: { name: 'Ann' },
  items: [{ sku: 'ABC-1', quantity: 2 }],
  payment: { method: 'card', number: '4111111111111111' },
  note: null,
  priority: 'express',
};

/** A project with one API imported from SHOP and one request linked to POST /orders. */
async function shopProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-shop-'));
  const store = await ProjectStore.open(dir, { create: true, name: 'Shop' });
  try {
    const api = await store.createApi({
      name: 'Shop API',
      baseUrl: 'http://127.0.0.1:9',
      api: { definition: { format: 'openapi-3.0', cached: [`${DEFINITION_DIR}/openapi.yaml`], fingerprint: 'shop-1', apiVersion: '1.0.0' } },
    });
    const body = { ...emptyBody(), kind: 'raw' as const, raw: { language: 'json' as const, text: JSON.stringify(ORDER, null, 2) } };
    const request = { version: 1 as const, id: 'r_shop_order', name: 'Place an order', method: 'POST', url: '/orders', pathParams: [], query: [], headers: [], body, auth: { type: 'inherit' as const }, settings: defaultSettings(), operation: { method: 'post', path: '/orders' } };
    await store.commit([{ path: join(store.apiDir(api.id), DEFINITION_DIR, 'openapi.yaml'), content: SHOP }, store.newRequestChange(api.id, '', request)]);
  } finally {
    await store.close();
  }
  return dir;
}

describe.skipIf(missing !== null)('Form editor', () => {
  let app: RunningApp;
  let browser: BrowserContext;
  let page: Page;

  const view = (name: 'Text' | 'Form') => page.getByRole('radiogroup', { name: 'Body view' }).getByRole('radio', { name });
  const form = () => page.getByRole('region', { name: 'Body form' });
  const text = () => page.getByLabel('Body', { exact: true });
  const bodyTab = () => page.getByRole('tablist', { name: 'Request sections' }).getByRole('tab', { name: /^Body/ });

  beforeAll(async () => {
    // a missing element fails with its locator, well inside the test's time
    ({ app, browser, page } = await openUi(['--demo', await shopProject()], { stepMs: 10_000 }));
    await page.getByRole('treeitem', { name: /Pet Store/ }).click();
    await page.getByRole('treeitem', { name: 'pets' }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('the Form editor round-trips to JSON', async () => {
    await page.getByRole('treeitem', { name: /Create a pet/ }).click();
    await bodyTab().click();
    await view('Form').click();
    await expect(view('Form').getAttribute('aria-checked')).resolves.toBe('true');

    const name = form().getByLabel('name', { exact: true });
    await expect(name.inputValue()).resolves.toBe('Biscuit');
    await expect(form().getByLabel('tag', { exact: true }).inputValue()).resolves.toBe('dog');
    await expect(text().isVisible()).resolves.toBe(false);
    await expect(form().locator('.bf-title').textContent()).resolves.toBe('NewPet');
    await screenshot(page, 'form-editor-form');

    // Edit the required name; remove the optional tag, then add it back.
    await name.fill('Comet');
    await form().getByRole('button', { name: 'Remove tag' }).click();
    await expect(form().getByLabel('tag', { exact: true }).count()).resolves.toBe(0);
    await expect(form().getByRole('button', { name: 'Remove name' }).count()).resolves.toBe(0); // required: no Remove
    await screenshot(page, 'form-editor-tag-removed');
    await form().getByRole('button', { name: 'Add tag' }).click();
    // The cursor is in the new field: type straight away.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('tag');
    await page.keyboard.type('cat');

    await view('Text').click();
    await expect(text().isVisible()).resolves.toBe(true);
    await expect(codeText(text())).resolves.toBe('{\n  "name": "Comet",\n  "tag": "cat"\n}');

    // Text edits show in the form, unknown properties and ${expansions} included, and survive form edits.
    await text().fill('{"legs": 4, "name": "${petName}", "tag": "cat"}');
    await view('Form').click();
    await expect(form().getByLabel('name', { exact: true }).inputValue()).resolves.toBe('${petName}');
    await expect(form().getByText('not in schema').count()).resolves.toBe(1);
    await form().getByLabel('tag', { exact: true }).fill('owl');
    await view('Text').click();
    await expect(codeText(text())).resolves.toBe('{\n  "legs": 4,\n  "name": "${petName}",\n  "tag": "owl"\n}');
  });

  it('shows a message and a way back to Text for a body that is not valid JSON', async () => {
    await text().fill('{"name": "Comet",');
    await view('Form').click();
    const alert = page.locator('.body-form-host').getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/The form cannot show this body\.The body is not valid JSON: .* at line 1, column 18\./);
    await expect(form().count()).resolves.toBe(0);
    await expect(text().isVisible()).resolves.toBe(false);
    await screenshot(page, 'form-editor-not-json');
    await alert.getByRole('button', { name: 'Back to Text' }).click();
    await expect(view('Text').getAttribute('aria-checked')).resolves.toBe('true');
    await expect(codeText(text())).resolves.toBe('{"name": "Comet",'); // left exactly as it was
  });

  it('sends the body the form made, and looks right in the dark theme', async () => {
    await text().fill('{"name": "Biscuit"}');
    await view('Form').click();
    await form().getByLabel('name', { exact: true }).fill('Nova');
    await form().getByRole('button', { name: 'Add tag' }).click();
    await form().getByLabel('tag', { exact: true }).fill('fox');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('status').waitFor();
    await expect(page.getByTestId('status').textContent()).resolves.toContain('201');
    await expect(codeText(page.getByLabel('Response body'))).resolves.toMatch(/"name":\s*"Nova"[\s\S]*"tag":\s*"fox"/);
    await screenshot(page, 'form-editor-sent');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.waitForSelector('html[data-theme="dark"]');
    await screenshot(page, 'form-editor-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await page.waitForSelector('html[data-theme="light"]');
  });

  it('offers no switch for a body whose operation declares none', async () => {
    const openBody = async (request: RegExp) => {
      await page.getByRole('treeitem', { name: request }).click();
      await bodyTab().click();
    };
    await openBody(/List pets/);
    await page.getByRole('radio', { name: 'Raw' }).click();
    // Its schema question goes first; once Create a pet's answer is in, so is this one.
    await openBody(/Create a pet/);
    await view('Text').waitFor();
    await openBody(/List pets/);
    await text().waitFor();
    await expect(page.getByRole('radiogroup', { name: 'Body view' }).count()).resolves.toBe(0);
  });
  it('edits nested objects, array items, a oneOf variant, an enum and a nullable field, all written to the JSON', async () => {
    await page.setViewportSize({ width: 1440, height: 1700 }); // the request pane takes 55% of it: room for the whole form
    await page.getByRole('treeitem', { name: /Shop API/ }).click();
    await page.getByRole('treeitem', { name: /Place an order/ }).click();
    await bodyTab().click();
    await view('Form').click();
    const field = (label: string) => form().getByLabel(label, { exact: true });
    await expect(field('owner.name').inputValue()).resolves.toBe('Ann');
    await expect(field('items[0].sku').inputValue()).resolves.toBe('ABC-1');
    await expect(form().getByLabel('Variant of payment').inputValue()).resolves.toBe('0');
    await expect(field('payment.number').inputValue()).resolves.toBe('4111111111111111');
    await screenshot(page, 'form-editor-nested');

    await form().getByRole('button', { name: 'Add address' }).click();
    await field('address.lines[0]').fill('1 Canal Street');
    await form().getByRole('button', { name: 'Add item to address.lines' }).click();
    await field('address.lines[1]').fill('Amsterdam');
    await field('address.country').selectOption('FR');
    await form().getByRole('button', { name: 'Add item to items' }).click();
    await field('items[1].sku').fill('XYZ-9');
    await field('items[1].quantity').fill('2.5');
    await expect(form().getByText('A whole number is expected.').count()).resolves.toBe(1);
    await field('items[1].quantity').fill('3');
    await form().getByLabel('Variant of payment').selectOption({ label: 'Bank transfer' });
    await field('payment.iban').fill('NL91ABNA0417164300');
    await form().getByLabel('Type of note').selectOption('string');
    await field('note').fill('Leave at the door');
    await form().getByRole('button', { name: 'Add giftWrap' }).click();
    await field('giftWrap').check();
    await screenshot(page, 'form-editor-nested-edited');

    await view('Text').click();
    expect(JSON.parse(await codeText(text()))).toEqual({
      owner: { name: 'Ann' },
      items: [
        { sku: 'ABC-1', quantity: 2 },
        { sku: 'XYZ-9', quantity: 3 },
      ],
      payment: { method: 'transfer', iban: 'NL91ABNA0417164300' },
      note: 'Leave at the door',
      priority: 'express',
      address: { lines: ['1 Canal Street', 'Amsterdam'], country: 'FR' },
      giftWrap: true,
    });
  });
});
