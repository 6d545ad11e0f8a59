/**
 * How document features become request fields: rows and their values, bodies of every kind,
 * auth from security, base URLs, folders, webhooks, options and what is reported unimported.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ImportProgress } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';
import { createDocumentLoader } from '../load/loader.js';
import { readImportInput } from '../load/read-input.js';
import { FIXED_CLOCK, counterIds, importSource, type HttpImportResult, httpOnly } from '../test-support.js';
import { ResultParts, type ImportResultPart } from '../../../../protocol/model/import-parts.js';
import { openApiImporter } from './importer.js';

async function paste(doc: object, options = {}): Promise<HttpImportResult> {
  return (await importSource({ kind: 'paste', text: stringify(doc) }, options)).result;
}

function request(result: HttpImportResult, name: string): Request {
  const found = result.apis[0]?.requests.find((r) => r.request.name === name)?.request;
  if (!found) throw new Error(`no request ${name} in ${result.apis[0]?.requests.map((r) => r.request.name).join(', ')}`);
  return found;
}

const info = { title: 'Shop', version: '2.3.4' };

describe('OpenAPI 3 operations into requests', () => {
  const doc = {
    openapi: '3.0.3',
    info,
    servers: [{ url: 'https://{region}.shop.example/{base}/', variables: { region: { default: 'eu', enum: ['eu', 'us'] }, base: { default: 'v2' } } }],
    paths: {
      '/items/{itemId}': {
        parameters: [
          { name: 'itemId', in: 'path', required: true, schema: { type: 'integer', example: 42 } },
          { name: 'lang', in: 'query', schema: { type: 'string', default: 'en' } },
        ],
        get: {
          summary: 'Get\n  an item',
          tags: ['Items', 'Other'],
          parameters: [
            { name: 'lang', in: 'query', required: true, schema: { type: 'string', enum: ['fr', 'de'] } },
            { name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
            { name: 'expand', in: 'query', examples: { one: { value: 'all' } } },
            { name: 'X-Trace', in: 'header', required: true, example: 'abc' },
            { name: 'X-Opt', in: 'header', schema: { type: 'string' } },
            { name: 'Accept', in: 'header', schema: { type: 'string' } },
            { name: 'Authorization', in: 'header', schema: { type: 'string' } },
            { name: 'session', in: 'cookie', schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'ok', content: { 'application/json': {}, 'application/xml': {} } },
            '404': { description: 'no', content: { 'application/problem+json': {} } },
          },
        },
      },
      '/items': {
        servers: [{ url: 'https://upload.shop.example' }],
        post: { operationId: 'createItem', responses: { default: { description: 'x', content: { 'text/plain': {} } } } },
        query: { summary: 'Not in 3.0', responses: {} },
      },
      '/plain': { delete: { responses: { '204': { description: 'gone' } } } },
    },
  };

  it('makes path, query and header rows: required ones on, optional ones off, values from examples and schemas', async () => {
    const result = await paste(doc);
    const get = request(result, 'Get an item');
    expect(get.method).toBe('GET');
    expect(get.url).toBe('/items/{itemId}');
    expect(get.operation).toEqual({ method: 'get', path: '/items/{itemId}' });
    expect(get.pathParams).toEqual([{ name: 'itemId', value: '42' }]);
    expect(get.query).toEqual([
      { name: 'lang', value: 'fr', enabled: true },
      { name: 'fields', value: 'a', enabled: false },
      { name: 'expand', value: 'all', enabled: false },
    ]);
    expect(get.headers).toEqual([
      { name: 'X-Trace', value: 'abc', enabled: true },
      { name: 'X-Opt', value: '', enabled: false },
      { name: 'Accept', value: 'application/json, application/xml', enabled: true },
    ]);
    expect(result.apis[0]?.requests.find((r) => r.request === get)?.folder).toBe('Items');
  });

  it('names requests by summary, else operationId, else method and path', async () => {
    const result = await paste(doc);
    expect(result.apis[0]?.requests.map((r) => r.request.name)).toEqual(['Get an item', 'createItem', 'DELETE /plain']);
  });

  it('takes the base URL from the first server with variables at their defaults; a path-level server makes the URL absolute', async () => {
    const result = await paste(doc);
    expect(result.apis[0]?.api.baseUrl).toBe('https://eu.shop.example/v2');
    expect(request(result, 'createItem').url).toBe('https://upload.shop.example/items');
    expect(request(result, 'createItem').headers).toEqual([{ name: 'Accept', value: 'text/plain', enabled: true }]);
  });

  it('reports cookie parameters and methods the version does not have', async () => {
    const result = await paste(doc);
    const items = result.report.unimported.map((u) => u.item);
    expect(items).toContain('cookie parameter session of GET /items/{itemId}');
    expect(items).toContain('QUERY /items');
    expect(result.report.unimported.find((u) => u.item === 'QUERY /items')?.path).toBe('/paths/~1items/query');
  });

  it('fills the summary: declared version, API version, base URL, counts', async () => {
    const { report } = await paste(doc);
    expect(report).toMatchObject({ format: 'openapi', declaredVersion: 'openapi-3.0', apiVersion: '2.3.4', baseUrl: 'https://eu.shop.example/v2', requestCount: 3, folderCount: 1, webhookCount: 0 });
    expect(report.importedAt).toBe(FIXED_CLOCK().toISOString());
  });
});

describe('request bodies', () => {
  const body = (content: object, required = true) => ({ requestBody: { required, content }, responses: {} });
  const doc = {
    openapi: '3.1.0',
    info,
    paths: {
      '/json-example': { post: { summary: 'json example', ...body({ 'application/json': { example: { a: 1 } } }) } },
      '/json-examples': { post: { summary: 'json examples', ...body({ 'application/json': { examples: { first: { $ref: '#/components/examples/E' } } } }) } },
      '/json-schema': { post: { summary: 'json schema', ...body({ 'application/xml': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } }) } },
      '/xml': { put: { summary: 'xml', ...body({ 'application/xml': { schema: { $ref: '#/components/schemas/Pet' } } }) } },
      '/form': { post: { summary: 'form', ...body({ 'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/Pet' } } }) } },
      '/multipart': {
        post: {
          summary: 'multipart',
          ...body({
            'multipart/form-data': {
              schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: 'image/png' }, note: { type: 'string', example: 'hi' } } },
              encoding: { file: { contentType: 'image/png, image/jpeg' } },
            },
          }),
        },
      },
      '/binary': { post: { summary: 'binary', ...body({ 'application/octet-stream': {} }) } },
      '/text': { post: { summary: 'text', ...body({ 'text/plain': { example: 'hello' } }) } },
    },
    components: {
      examples: { E: { value: { from: 'examples' } } },
      schemas: { Pet: { type: 'object', xml: { name: 'pet' }, required: ['name'], properties: { name: { type: 'string', example: 'Rex' }, age: { type: 'integer' }, id: { type: 'integer', readOnly: true } } } },
    },
  };

  it('JSON from the example, the first of examples, or a sample of the schema (preferring JSON)', async () => {
    const result = await paste(doc);
    expect(request(result, 'json example').body.raw).toEqual({ language: 'json', text: '{\n  "a": 1\n}' });
    expect(request(result, 'json examples').body.raw.text).toBe('{\n  "from": "examples"\n}');
    const schema = request(result, 'json schema');
    expect(schema.body.kind).toBe('raw');
    expect(JSON.parse(schema.body.raw.text)).toEqual({ name: 'Rex', age: 0 });
    expect(schema.headers).toContainEqual({ name: 'Content-Type', value: 'application/json', enabled: true });
    expect(schema.generated?.contentType).toBe('application/json');
    expect(schema.generated?.body).toBe(schema.body.raw.text);
  });

  it('XML, form, multipart, binary and text bodies get their own kind', async () => {
    const result = await paste(doc);
    const xml = request(result, 'xml');
    expect(xml.body.raw.language).toBe('xml');
    expect(xml.body.raw.text).toContain('<pet>');
    expect(xml.body.raw.text).toContain('<name>Rex</name>');
    const form = request(result, 'form');
    expect(form.body.kind).toBe('form');
    expect(form.body.form).toEqual([
      { name: 'name', value: 'Rex', enabled: true },
      { name: 'age', value: '0', enabled: false },
    ]);
    expect(form.headers.find((h) => h.name === 'Content-Type')).toBeUndefined();
    const multipart = request(result, 'multipart');
    expect(multipart.body.kind).toBe('multipart');
    expect(multipart.body.multipart).toEqual([
      { kind: 'file', name: 'file', file: '', contentType: 'image/png', enabled: true },
      { kind: 'text', name: 'note', value: 'hi', enabled: false },
    ]);
    const binary = request(result, 'binary');
    expect(binary.body.kind).toBe('binary');
    expect(binary.body.binary.contentType).toBe('application/octet-stream');
    expect(request(result, 'text').body.raw).toEqual({ language: 'text', text: 'hello' });
  });
});

describe('Swagger 2.0 parameters', () => {
  const doc = {
    swagger: '2.0',
    info,
    host: 'api.example.com:8443',
    basePath: '/v1/',
    schemes: ['https', 'http'],
    consumes: ['application/json'],
    produces: ['application/json', 'application/xml'],
    parameters: { limit: { name: 'limit', in: 'query', type: 'integer', default: 10 } },
    paths: {
      '/pets/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, type: 'string', 'x-example': 'p1' }],
        post: {
          summary: 'form post',
          consumes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
          parameters: [
            { name: 'name', in: 'formData', type: 'string', required: true, default: 'Rex' },
            { name: 'status', in: 'formData', type: 'string', enum: ['sold', 'free'] },
            { $ref: '#/parameters/limit' },
            { name: 'X-Req', in: 'header', type: 'string', required: true },
          ],
          responses: { '200': { description: 'ok' } },
        },
        put: {
          summary: 'upload',
          consumes: ['multipart/form-data'],
          parameters: [
            { name: 'file', in: 'formData', type: 'file', required: true },
            { name: 'caption', in: 'formData', type: 'string' },
          ],
          responses: { '200': { description: 'ok' } },
        },
        patch: {
          summary: 'json body',
          parameters: [{ name: 'pet', in: 'body', required: true, schema: { type: 'object', properties: { name: { type: 'string' } } } }],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  };

  it('builds the base URL from the first scheme, host and basePath', async () => {
    const result = await paste(doc);
    expect(result.apis[0]?.api.baseUrl).toBe('https://api.example.com:8443/v1');
    expect(result.report.declaredVersion).toBe('swagger-2.0');
  });

  it('formData becomes form rows (urlencoded) or multipart parts (with a file), body becomes JSON', async () => {
    const result = await paste(doc);
    const form = request(result, 'form post');
    expect(form.pathParams).toEqual([{ name: 'id', value: 'p1' }]);
    expect(form.query).toEqual([{ name: 'limit', value: '10', enabled: false }]);
    expect(form.headers).toEqual([
      { name: 'X-Req', value: '', enabled: true },
      { name: 'Accept', value: 'application/json, application/xml', enabled: true },
    ]);
    expect(form.body.kind).toBe('form');
    expect(form.body.form).toEqual([
      { name: 'name', value: 'Rex', enabled: true },
      { name: 'status', value: 'sold', enabled: false },
    ]);
    const upload = request(result, 'upload');
    expect(upload.body.kind).toBe('multipart');
    expect(upload.body.multipart).toEqual([
      { kind: 'file', name: 'file', file: '', contentType: 'application/octet-stream', enabled: true },
      { kind: 'text', name: 'caption', value: '', enabled: false },
    ]);
    const json = request(result, 'json body');
    expect(json.body.raw).toEqual({ language: 'json', text: '{\n  "name": "string"\n}' });
    expect(json.headers).toContainEqual({ name: 'Content-Type', value: 'application/json', enabled: true });
  });

  it('without a host, the base URL is the basePath', async () => {
    const result = await paste({ ...doc, host: undefined, schemes: undefined });
    expect(result.apis[0]?.api.baseUrl).toBe('/v1');
  });
});

describe('auth from security', () => {
  const doc = {
    openapi: '3.0.0',
    info,
    security: [{ oidc: [] }, { key: [] }],
    components: {
      securitySchemes: {
        key: { type: 'apiKey', in: 'query', name: 'api_key' },
        cookieKey: { type: 'apiKey', in: 'cookie', name: 'sid' },
        basic: { type: 'http', scheme: 'Basic' },
        digest: { type: 'http', scheme: 'digest' },
        oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example/.well-known/openid-configuration' },
        cc: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://id.example/token', scopes: { read: 'r', write: 'w' } } } },
        implicit: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://id.example/auth', scopes: {} } } },
      },
    },
    paths: {
      '/inherit': { get: { summary: 'inherit', responses: {} } },
      '/same': { get: { summary: 'same', security: [{ oidc: [] }, { key: [] }], responses: {} } },
      '/none': { get: { summary: 'none', security: [], responses: {} } },
      '/basic': { get: { summary: 'basic', security: [{ basic: [] }], responses: {} } },
      '/cc': { get: { summary: 'cc', security: [{ cc: ['read'] }], responses: {} } },
      '/cookie': { get: { summary: 'cookie', security: [{ cookieKey: [] }], responses: {} } },
    },
  };

  it('the API takes the first usable top-level requirement; requests inherit unless they say otherwise', async () => {
    const result = await paste(doc);
    expect(result.apis[0]?.api.auth).toEqual({ type: 'apikey', name: 'api_key', value: '', in: 'query' });
    expect(result.apis[0]?.api.generated?.auth).toEqual(result.apis[0]?.api.auth);
    expect(request(result, 'inherit').auth).toEqual({ type: 'inherit' });
    expect(request(result, 'same').auth).toEqual({ type: 'inherit' });
    expect(request(result, 'none').auth).toEqual({ type: 'none' });
    expect(request(result, 'basic').auth).toEqual({ type: 'basic', username: '', password: '' });
    expect(request(result, 'cc').auth).toEqual({ type: 'oauth2', grant: 'client_credentials', tokenUrl: 'https://id.example/token', authorizationUrl: '', clientId: '', clientSecret: '', scope: 'read', usePkce: false });
    expect(request(result, 'cookie').auth).toEqual({ type: 'none' });
  });

  it('lists every scheme with what Use would set, and reports the ones it cannot use', async () => {
    const { report } = await paste(doc);
    const byName = Object.fromEntries(report.securitySchemes.map((s) => [s.name, s]));
    expect(byName['cc']?.use).toMatchObject({ type: 'oauth2', scope: 'read write' });
    expect(byName['basic']?.use).toEqual({ type: 'basic', username: '', password: '' });
    for (const name of ['cookieKey', 'digest', 'oidc', 'implicit']) {
      expect(byName[name]?.use).toBeUndefined();
      expect(byName[name]?.unusable).toBeTruthy();
      expect(report.unimported.map((u) => u.item)).toContain(`security scheme ${name}`);
    }
  });
});

describe('webhooks, callbacks and links', () => {
  const doc = {
    openapi: '3.1.0',
    info,
    paths: {
      '/subscribe': {
        post: {
          summary: 'subscribe',
          callbacks: { onEvent: { '{$request.body#/callbackUrl}': { post: { requestBody: { content: { 'application/json': { example: { event: 'x' } } } }, responses: {} } } } },
          responses: { '201': { description: 'ok', links: { unsubscribe: { operationId: 'unsubscribe' } } } },
        },
      },
    },
    webhooks: { newPet: { post: { summary: 'New pet', requestBody: { content: { 'application/json': { example: { id: 1 } } } }, responses: {} } } },
    components: { links: { L: { operationId: 'x' } } },
  };

  it('go to the Webhooks collection in a folder named after the API; links are reported as skipped', async () => {
    const result = await paste(doc);
    expect(result.webhooks?.collection).toBe('Webhooks');
    expect(result.webhooks?.folder).toBe('Shop');
    const hooks = result.webhooks?.requests.map((r) => r.request) ?? [];
    expect(hooks.map((r) => [r.name, r.method, r.url])).toEqual([
      ['onEvent: POST {$request.body#/callbackUrl}', 'POST', '{$request.body#/callbackUrl}'],
      ['New pet', 'POST', ''],
    ]);
    expect(hooks.every((r) => r.operation === undefined && r.generated === undefined)).toBe(true);
    expect(hooks[1]?.body.raw.text).toBe('{\n  "id": 1\n}');
    expect(result.report.webhookCount).toBe(2);
    const items = result.report.unimported.map((u) => u.item);
    expect(items).toContain('link unsubscribe (POST /subscribe, response 201)');
    expect(items).toContain('link L (components)');
  });

  it('are left out, and reported, when Import webhooks & callbacks is off', async () => {
    const result = await paste(doc, { importWebhooks: false });
    expect(result.webhooks).toBeUndefined();
    expect(result.report.unimported.map((u) => u.item)).toContain('2 webhook and callback operations');
  });
});

describe('options and sources', () => {
  const doc = { openapi: '3.0.0', info, servers: [{ url: 'https://api.example.com/' }], paths: { '/a': { get: { responses: {} } } } };

  it('Name and Base URL overrides; the generated base URL is still recorded', async () => {
    const result = await paste(doc, { name: ' Mine ', baseUrl: 'http://localhost:9000' });
    const api = result.apis[0]?.api;
    expect(api?.name).toBe('Mine');
    expect(api?.baseUrl).toBe('http://localhost:9000');
    expect(api?.generated?.baseUrl).toBe('https://api.example.com');
    expect(result.report.baseUrl).toBe('http://localhost:9000');
  });

  it('pasted text records no source; caching can be turned off', async () => {
    const cached = await paste(doc);
    expect(cached.apis[0]?.api.definition?.source).toBeUndefined();
    expect(cached.apis[0]?.api.definition?.cached).toEqual(['definition/openapi.yaml']);
    expect(cached.apis[0]?.documents.map((d) => d.path)).toEqual(['openapi.yaml']);
    const uncached = await paste(doc, { cacheDefinition: false });
    expect(uncached.apis[0]?.api.definition?.cached).toEqual([]);
    expect(uncached.apis[0]?.documents).toEqual([]);
    expect(uncached.apis[0]?.api.definition?.fingerprint).toBe(cached.apis[0]?.api.definition?.fingerprint);
  });

  it('a relative reference in pasted text cannot resolve and is reported', async () => {
    const result = await paste({ ...doc, paths: { '/a': { $ref: 'paths.yaml#/a' } } });
    expect(result.report.errors.map((e) => e.message).join('\n')).toMatch(/relative reference in pasted text/);
    expect(result.apis[0]?.requests).toEqual([]);
  });

  it('report items point into JSON documents by pointer and line too', async () => {
    const text = JSON.stringify({ openapi: '3.0.0', info, paths: { '/a': { get: { parameters: [{ name: 'sid', in: 'cookie' }], responses: {} } } } }, null, 2);
    const { result } = await importSource({ kind: 'paste', text });
    expect(result.report.unimported).toEqual([
      { item: 'cookie parameter sid of GET /a', reason: 'Requests have no cookie rows; send it with a Cookie header or the cookie jar.', file: 'openapi.json', path: '/paths/~1a/get/parameters/0', line: 11 },
    ]);
    expect(text.split('\n')[10]).toMatch(/^\s+\{$/);
  });

  it('importing the same document twice makes two APIs with fresh ids', async () => {
    let n = 0;
    const newId = (p: string) => `${p}_${++n}`;
    const run = async () => {
      const loader = createDocumentLoader({ offline: true });
      const input = await readImportInput({ kind: 'file', path: join('test/fixtures/importers/openapi', 'learn-openapis/v3.1/tictactoe.yaml') }, loader);
      return httpOnly(await openApiImporter.convert(input, { newId, now: FIXED_CLOCK, loader, options: {} }));
    };
    const [first, second] = [await run(), await run()];
    const ids = (r: HttpImportResult) => [r.apis[0]?.api.id, ...(r.apis[0]?.requests ?? []).map((p) => p.request.id)];
    expect(ids(first).filter((id) => ids(second).includes(id))).toEqual([]);
    expect(second.apis[0]?.api.name).toBe(first.apis[0]?.api.name);
  });
});

describe('requests handed over in parts (the importer child)', () => {
  // 600 operations: two full parts of 250 and the rest, so order across parts is seen.
  const paths = Object.fromEntries(
    Array.from({ length: 300 }, (_, i) => [
      `/things/${i}`,
      {
        get: { tags: [`group${i % 7}`], summary: `Get thing ${i}`, responses: { '200': { description: 'ok' } } },
        post: { tags: [`group${i % 7}`], summary: `Make thing ${i}`, requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'integer', example: i } } } } } }, responses: { '201': { description: 'made' } } },
      },
    ]),
  );
  const doc = stringify({ openapi: '3.0.3', info, paths });

  async function convert(sendPart?: (part: ImportResultPart) => void, onProgress?: (p: ImportProgress) => void): Promise<HttpImportResult> {
    const loader = createDocumentLoader({ offline: true });
    try {
      const input = await readImportInput({ kind: 'paste', text: doc }, loader);
      return httpOnly(await openApiImporter.convert(input, { newId: counterIds(), now: FIXED_CLOCK, loader, options: {}, ...(sendPart ? { sendPart } : {}), ...(onProgress ? { onProgress } : {}) }));
    } finally {
      await loader.close();
    }
  }

  it('sends every request on as it is made and holds none in the result; joined, it is the same import', async () => {
    const whole = await convert();
    const parts: ImportResultPart[] = [];
    const rest = await convert((part) => parts.push(structuredClone(part)));
    expect(rest.apis[0]!.requests).toEqual([]);
    expect(parts.map((p) => (p.part === 'requests' ? `${p.api}:${p.items.length}` : p.part))).toEqual(['0:250', '0:250', '0:100']);
    // The count, the folders and the report are the whole import's.
    expect(rest.report.requestCount).toBe(600);
    expect(rest.apis[0]!.folders).toEqual(whole.apis[0]!.folders);
    const joined = new ResultParts();
    for (const part of parts) joined.add(part);
    expect(joined.join(rest)).toEqual(whole);
  });

  it('says how far the conversion is as it goes', async () => {
    const progress: ImportProgress[] = [];
    await convert(undefined, (p) => progress.push(p));
    expect(progress.filter((p) => p.phase === 'convert' && p.done !== undefined).map((p) => `${p.message} (${p.done}/${p.total})`)).toEqual(['Made 500 of 600 requests (500/600)']);
    expect(progress.at(-1)).toMatchObject({ phase: 'done', done: 600, total: 600 });
  });

  it('a request keeps its own copy of what was generated: editing it leaves the record as the document made it', async () => {
    const parts: ImportResultPart[] = [];
    await convert((part) => parts.push(part));
    const first = parts[0]!.part === 'requests' ? (parts[0]!.items[1]!.request as Request) : undefined;
    expect(first?.name).toBe('Make thing 0');
    first!.headers[0]!.value = 'edited';
    first!.body.raw.text = 'edited';
    expect(first!.generated?.headers[0]?.value).not.toBe('edited');
    expect(first!.generated?.body).toContain('"n"');
  });
});
