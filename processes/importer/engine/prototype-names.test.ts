/**
 * ARCHITECTURE.md "Names from outside", for every importer: each name field a source can carry
 * (header, query, form and path parameter names, auth types and their parameters, variable,
 * folder, request, environment and property names, security scheme, server variable, tag,
 * schema property and XML names) takes any `Object.prototype` name, in any case. Every import
 * then succeeds with the names kept as plain names, or fails with a typed error of its own (never
 * a library's TypeError, raw or wrapped in a ParleyError).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../../protocol/errors.js';
import { ImportResult, type DefinitionUpdateJob } from '../../../protocol/model/import.js';
import type { Request } from '../../../protocol/model/request.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { queryAsRows } from '../../../protocol/request-url.js';
import { PROTOTYPE_NAMES } from '../../../test/support/prototype-names.js';
import { convertCurlCommand } from './curl/convert-command.js';
import { runDefinitionApply, runDefinitionPreview } from './run-job.js';
import { FIXED_CLOCK, counterIds, importSource, runHttpImportJob, type HttpImportResult } from './test-support.js';

/** Seeded: the same cases on every run (RELIABILITY.md's bench run uses more). */
const RUNS = { numRuns: 40, seed: 2611 };

/** An Object.prototype name as written, upper-cased or capitalised (header tables lower-case what they index). */
const protoName = fc.constantFrom(...PROTOTYPE_NAMES).chain((n) => fc.constantFrom(n, n.toUpperCase(), n[0]!.toUpperCase() + n.slice(1)));
/** The names one input carries: mostly prototype names, sometimes an ordinary one beside them. */
function names<K extends string>(...slots: K[]): fc.Arbitrary<Record<K, string>> {
  const one = (slot: string) => fc.oneof({ weight: 5, arbitrary: protoName }, { weight: 1, arbitrary: fc.constant(`plain-${slot}`) });
  return fc.record(Object.fromEntries(slots.map((s) => [s, one(s)])) as Record<K, fc.Arbitrary<string>>) as fc.Arbitrary<Record<K, string>>;
}

/** What a library says when a name found a prototype member: never part of an import's answer. */
const LIBRARY_TYPE_ERROR = /is not a function|Cannot read properties|Cannot set properties|undefined \(reading|unable to upsert|is not iterable|Maximum call stack/;

function noLibraryError(err: unknown): never {
  if (!(err instanceof ParleyError)) throw new Error(`an import threw ${(err as Error)?.name ?? typeof err}, not a typed error: ${(err as Error)?.message}`);
  expect(err.message).not.toMatch(LIBRARY_TYPE_ERROR);
  throw new Error(`the import was refused (${err.code}): ${err.message}`);
}

async function imported(text: string, format = 'auto'): Promise<HttpImportResult> {
  try {
    const { result } = await importSource({ kind: 'paste', text }, {}, { offline: true }, format);
    expect(checkAll(ImportResult, result)).toEqual([]);
    return result;
  } catch (err) {
    return noLibraryError(err);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'parley-proto-names-'));
let files = 0;
async function importedFile(text: string, fileName: string): Promise<HttpImportResult> {
  const path = join(dir, `${++files}-${fileName}`);
  writeFileSync(path, text);
  try {
    const { result } = await importSource({ kind: 'file', path });
    expect(checkAll(ImportResult, result)).toEqual([]);
    return result;
  } catch (err) {
    return noLibraryError(err);
  }
}

const requestsOf = (result: HttpImportResult): Request[] => result.apis.flatMap((a) => a.requests.map((r) => r.request));
const rowNames = (rows: readonly { name: string }[]) => rows.map((r) => r.name);
const json = (value: unknown) => JSON.stringify(value);

describe('curl', () => {
  it('header, query, form and multipart field names are kept as written', async () => {
    await fc.assert(
      fc.asyncProperty(names('header', 'repeated', 'query', 'form', 'part', 'cookie'), async (n) => {
        const form = await convert(`curl -X POST 'https://h.example/p?${n.query}=1' -H '${n.header}: v' -H '${n.repeated}: a' -H '${n.repeated}: b' -b '${n.cookie}=c' -d '${n.form}=v' --url-query '${n.query}=q'`);
        expect(rowNames(form.request.headers)).toEqual(expect.arrayContaining([n.header, n.repeated]));
        expect(rowNames(queryAsRows(form.request).query)).toEqual([n.query, n.query]);
        expect(form.request.body.kind === 'form' && rowNames(form.request.body.form)).toEqual([n.form]);
        expect(form.report.preview.headerNames).toEqual(expect.arrayContaining([n.header, n.repeated]));

        const multipart = await convert(`curl https://h.example/p -H '${n.header};' -H '${n.repeated}:' -F '${n.part}=x' -F '${n.form}=@file.txt' --proxy-header '${n.header}: p'`);
        expect(rowNames(multipart.request.headers)).toContain(n.header);
        expect(multipart.request.body.kind === 'multipart' && multipart.request.body.multipart.map((p) => p.name)).toEqual([n.part, n.form]);
      }),
      RUNS,
    );
  });

  it('an option named like a prototype member is an unknown option, as curl says', async () => {
    for (const name of PROTOTYPE_NAMES) {
      await expect(convertCurlCommand(`curl --${name} https://h.example/p`, { id: 'r1' })).rejects.toMatchObject({ code: 'import-malformed', message: `The curl command could not be read: option --${name}: is unknown.` });
    }
  });

  async function convert(command: string) {
    try {
      return await convertCurlCommand(command, { id: 'r1' });
    } catch (err) {
      return noLibraryError(err);
    }
  }
});

describe('Postman', () => {
  const schema = (v: '2.0' | '2.1') => `https://schema.getpostman.com/json/collection/v${v}.0/collection.json`;

  it('collections (v2.0 and v2.1): auth types and parameters, variables, folder, request, header, query, path and form names', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('2.0' as const, '2.1' as const),
        names('authType', 'folderAuthType', 'authParam', 'apiKeyName', 'variable', 'folder', 'request', 'header', 'query', 'pathVariable', 'form', 'part', 'language', 'bodyMode', 'grant', 'listen', 'id'),
        async (version, n) => {
          const params = (entries: Record<string, string>) => (version === '2.0' ? entries : Object.entries(entries).map(([key, value]) => ({ key, value })));
          const collection = {
            info: { name: n.request, schema: schema(version), _postman_id: n.id },
            variable: [{ key: n.variable, value: 'v' }],
            auth: { type: n.authType, [n.authType]: params({ [n.authParam]: 'x' }) },
            event: [{ listen: n.listen, script: { exec: ['x'] } }],
            item: [
              {
                name: n.folder,
                id: n.id,
                auth: { type: n.folderAuthType, [n.folderAuthType]: params({ [n.authParam]: 'x' }) },
                item: [
                  {
                    name: n.request,
                    id: n.id,
                    request: {
                      method: 'POST',
                      auth: { type: 'apikey', apikey: params({ key: n.apiKeyName, value: '{{k}}', in: 'header', [n.authParam]: 'x' }) },
                      url: { raw: `https://h.example/:${n.pathVariable}?${n.query}=1`, host: ['h', 'example'], path: [`:${n.pathVariable}`], query: [{ key: n.query, value: '1' }], variable: [{ key: n.pathVariable, value: 'x' }] },
                      header: [{ key: n.header, value: 'v' }],
                      body: { mode: 'urlencoded', urlencoded: [{ key: n.form, value: 'v' }] },
                    },
                  },
                  { name: 'multipart', request: { method: 'POST', url: `https://h.example/?${n.query}=2`, header: `${n.header}: w`, body: { mode: 'formdata', formdata: [{ key: n.part, value: 'v' }, { key: n.form, type: 'file', src: 'f.txt' }] } } },
                  { name: 'raw', request: { method: 'POST', url: 'https://h.example/', body: { mode: 'raw', raw: 'x', options: { raw: { language: n.language } } } } },
                  { name: 'mode', request: { method: 'POST', url: 'https://h.example/', body: { mode: n.bodyMode, [n.bodyMode]: 'x' } } },
                  { name: 'oauth', request: { method: 'GET', url: 'https://h.example/', auth: { type: 'oauth2', oauth2: params({ grant_type: n.grant }) } } },
                  { name: 'basic', request: { method: 'GET', url: 'https://h.example/', auth: { type: 'basic', basic: params({ username: n.authParam, [n.authParam]: 'x' }) } } },
                  {
                    name: 'saved',
                    request: { method: 'GET', url: 'https://h.example/' },
                    response: [{ name: n.request, originalRequest: { method: 'GET', url: 'https://h.example/', header: [{ key: n.header, value: 'v' }], auth: { type: n.authType, [n.authType]: params({ [n.authParam]: 'x' }) } }, header: [{ key: n.header, value: 'v' }] }],
                  },
                ],
              },
            ],
          };
          const result = await imported(json(collection));
          const api = result.apis[0]!;
          expect(api.folders.map((f) => f.path)).toEqual([n.folder]);
          const [first, multipart, , , , basic] = api.requests.map((r) => r.request);
          expect(first!.name).toBe(n.request);
          expect(first!.auth).toMatchObject({ type: 'apikey', name: n.apiKeyName });
          expect(rowNames(first!.headers)).toEqual([n.header]);
          expect(rowNames(queryAsRows(first!).query)).toEqual([n.query]);
          expect(rowNames(first!.pathParams)).toEqual([n.pathVariable]);
          expect(first!.body.kind === 'form' && rowNames(first!.body.form)).toEqual([n.form]);
          expect(rowNames(multipart!.headers)).toEqual([n.header]);
          expect(multipart!.body.kind === 'multipart' && multipart!.body.multipart.map((p) => p.name)).toEqual([n.part, n.form]);
          expect(basic!.auth).toMatchObject({ type: 'basic', username: n.authParam });
          expect(rowNames(result.properties ?? [])).toContain(n.variable);
          // An auth type Parley lacks is named in the report, never looked up as a member.
          const unimported = result.report.unimported.map((u) => u.reason).join('\n');
          expect(unimported).toContain(`${n.authType} authentication is not one Parley has`);
          expect(unimported).toContain(`OAuth 2 with the ${n.grant} grant`);
        },
      ),
      RUNS,
    );
  });

  it('environment and globals exports: names, variable names', async () => {
    await fc.assert(
      fc.asyncProperty(names('environment', 'variable', 'secret'), async (n) => {
        const env = await imported(json({ id: 'e', name: n.environment, values: [{ key: n.variable, value: 'v', enabled: true }, { key: n.secret, value: 's', type: 'secret' }], _postman_variable_scope: 'environment' }));
        expect(env.environments).toEqual([{ name: n.environment, variables: [expect.objectContaining({ name: n.variable, secret: false }), expect.objectContaining({ name: n.secret, secret: true })] }]);
        const globals = await imported(json({ id: 'g', name: 'Globals', values: [{ key: n.variable, value: 'v', enabled: true }], _postman_variable_scope: 'globals' }));
        expect(globals.globals?.map((v) => v.name)).toEqual([n.variable]);
      }),
      RUNS,
    );
  });
});

describe('HAR', () => {
  it('header, query, cookie, form field, page and creator names', async () => {
    await fc.assert(
      fc.asyncProperty(names('header', 'query', 'cookie', 'form', 'page', 'key', 'responseHeader'), async (n) => {
        const entry = (method: string, path: string) => ({
          pageref: n.page,
          startedDateTime: '2024-01-01T00:00:00Z',
          time: 1,
          request: {
            method,
            url: `https://h.example/${path}?${n.query}=1`,
            httpVersion: 'HTTP/1.1',
            headers: [{ name: n.header, value: 'v' }, { name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
            queryString: [{ name: n.query, value: '1' }],
            cookies: [{ name: n.cookie, value: 'c' }],
            postData: { mimeType: 'application/x-www-form-urlencoded', text: `${n.form}=1`, params: [{ name: n.form, value: '1' }] },
            headersSize: -1,
            bodySize: 1,
            [n.key]: 1,
          },
          response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [{ name: n.responseHeader, value: 'v' }], cookies: [{ name: n.cookie, value: 'c' }], content: { size: 1, mimeType: 'application/json', text: `{"${n.key}":1}` }, redirectURL: '', headersSize: -1, bodySize: 1 },
          cache: {},
          timings: { send: 0, wait: 0, receive: 0 },
          [n.key]: 1,
        });
        const har = { log: { version: '1.2', creator: { name: n.key, version: '1' }, pages: [{ id: n.page, title: n.page, startedDateTime: '2024-01-01T00:00:00Z', pageTimings: {} }], entries: [entry('POST', n.key), entry('GET', 'b')], [n.key]: 1 } };
        const result = await imported(json(har));
        const [post, get] = requestsOf(result);
        expect(post!.name).toBe(`POST /${n.key}`);
        expect(rowNames(post!.headers)).toEqual([n.header]);
        expect(rowNames(queryAsRows(post!).query)).toEqual([n.query]);
        expect(post!.body.kind === 'form' && rowNames(post!.body.form)).toEqual([n.form]);
        expect(rowNames(queryAsRows(get!).query)).toEqual([n.query]);
      }),
      RUNS,
    );
  });
});

describe('OpenAPI', () => {
  const slots = ['path', 'query', 'header', 'cookie', 'scheme', 'keyName', 'flow', 'scope', 'tag', 'operationId', 'serverVar', 'schema', 'property', 'formField', 'example', 'media', 'status', 'extra'] as const;

  it('3.0 and 3.1: parameters, security schemes, flows, tags, server variables, schemas and their properties, examples', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('3.0.3', '3.1.0'), names(...slots), async (version, n) => {
        const doc = {
          openapi: version,
          info: { title: n.extra, version: '1' },
          servers: [{ url: `https://{${n.serverVar}}.example`, variables: { [n.serverVar]: { default: 'api', enum: ['api'] } } }],
          tags: [{ name: n.tag }],
          security: [{ [n.scheme]: [] }],
          paths: {
            [`/p/{${n.path}}`]: {
              parameters: [{ name: n.path, in: 'path', required: true, schema: { type: 'string' } }],
              [n.extra]: { summary: 'not a method' },
              post: {
                operationId: n.operationId,
                tags: [n.tag],
                parameters: [
                  { name: n.query, in: 'query', schema: { type: 'string' }, examples: { [n.example]: { value: 'v' } } },
                  { name: n.header, in: 'header', schema: { type: 'string' } },
                  { name: n.cookie, in: 'cookie', schema: { type: 'string' } },
                ],
                requestBody: {
                  content: {
                    'application/json': { schema: { $ref: `#/components/schemas/${n.schema}` }, examples: { [n.example]: { value: { [n.property]: 'from-example' } } } },
                    'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { [n.formField]: { type: 'string' } } }, encoding: { [n.formField]: { style: 'form' } } },
                    [n.media]: { schema: { type: 'string' } },
                  },
                },
                responses: { [n.status]: { description: 'x' }, '200': { description: 'ok', headers: { [n.header]: { schema: { type: 'string' } } }, links: { [n.extra]: {} } } },
                callbacks: { [n.extra]: {} },
              },
            },
            // Form and multipart fields from a schema whose example lacks them, one with an encoding.
            '/form': {
              put: { requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { [n.formField]: { type: 'string' } } }, example: {} } } }, responses: { '204': { description: 'x' } } },
              patch: {
                requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { [n.formField]: { type: 'string' }, [n.property]: { type: 'string', format: 'binary' } } }, example: {}, encoding: { [n.example]: { contentType: 'text/plain' } } } } },
                responses: { '204': { description: 'x' } },
              },
            },
          },
          components: {
            schemas: { [n.schema]: { type: 'object', required: [n.property], properties: { [n.property]: { type: 'string' } }, discriminator: { propertyName: n.property, mapping: { [n.extra]: `#/components/schemas/${n.schema}` } } } },
            securitySchemes: {
              [n.scheme]: { type: 'apiKey', name: n.keyName, in: 'header' },
              oauth: { type: 'oauth2', flows: { [n.flow]: { tokenUrl: 'https://t.example', scopes: { [n.scope]: 'x' } }, clientCredentials: { tokenUrl: 'https://t.example', scopes: { [n.scope]: 'x' } } } },
              http: { type: 'http', scheme: n.extra },
            },
            [n.extra]: {},
          },
          [n.extra]: 'x',
          ...(version === '3.1.0' ? { webhooks: { [n.extra]: { post: { responses: { '200': { description: 'x' } } } } } } : {}),
        };
        const result = await imported(json(doc));
        const api = result.apis[0]!;
        expect(api.api.baseUrl).toBe('https://api.example');
        expect(api.api.auth).toMatchObject({ type: 'apikey', name: n.keyName });
        expect(api.folders.map((f) => f.path)).toEqual([n.tag]);
        const [request, form, multipart] = requestsOf(result);
        expect(form!.body).toMatchObject({ kind: 'form', form: [{ name: n.formField, value: '' }] });
        expect(multipart!.body).toMatchObject({ kind: 'multipart', multipart: [{ kind: 'text', name: n.formField, value: '' }, { kind: 'file', name: n.property, contentType: n.property === n.example ? 'text/plain' : 'application/octet-stream' }] });
        expect(rowNames(request!.pathParams)).toEqual([n.path]);
        expect(rowNames(queryAsRows(request!).query)).toEqual([n.query]);
        expect(rowNames(request!.headers)).toContain(n.header);
        expect(request!.body.kind === 'raw' && JSON.parse(request!.body.raw.text)).toEqual({ [n.property]: 'from-example' });
        expect(result.report.securitySchemes.map((s) => s.name)).toEqual(expect.arrayContaining([n.scheme, 'oauth']));
      }),
      RUNS,
    );
  });

  it('2.0: parameters in every place, security definitions and flows, definitions, shared parameters', async () => {
    await fc.assert(
      fc.asyncProperty(names(...slots), async (n) => {
        const doc = {
          swagger: '2.0',
          info: { title: n.extra, version: '1' },
          host: 'h.example',
          basePath: '/',
          securityDefinitions: { [n.scheme]: { type: 'apiKey', name: n.keyName, in: 'query' }, oauth: { type: 'oauth2', flow: n.flow, tokenUrl: 'https://t.example', scopes: { [n.scope]: 'x' } } },
          security: [{ [n.scheme]: [] }],
          paths: {
            [`/p/{${n.path}}`]: {
              [n.extra]: {},
              post: {
                operationId: n.operationId,
                tags: [n.tag],
                consumes: ['application/x-www-form-urlencoded'],
                parameters: [
                  { name: n.path, in: 'path', required: true, type: 'string' },
                  { name: n.query, in: 'query', type: 'string' },
                  { name: n.header, in: 'header', type: 'string' },
                  { name: n.formField, in: 'formData', type: 'string' },
                  { $ref: `#/parameters/${n.extra}` },
                ],
                responses: { [n.status]: { description: 'x' }, '200': { description: 'ok', schema: { $ref: `#/definitions/${n.schema}` }, headers: { [n.header]: { type: 'string' } }, examples: { [n.media]: {} } } },
              },
            },
          },
          definitions: { [n.schema]: { type: 'object', properties: { [n.property]: { type: 'string' } } } },
          parameters: { [n.extra]: { name: n.cookie, in: 'query', type: 'string' } },
          tags: [{ name: n.tag }],
        };
        const result = await imported(json(doc));
        expect(result.apis[0]!.api.auth).toMatchObject({ type: 'apikey', name: n.keyName, in: 'query' });
        const [request] = requestsOf(result);
        expect(rowNames(request!.pathParams)).toEqual([n.path]);
        expect(rowNames(queryAsRows(request!).query)).toEqual(expect.arrayContaining([n.query, n.cookie]));
        expect(rowNames(request!.headers)).toContain(n.header);
        expect(request!.body.kind === 'form' && rowNames(request!.body.form)).toEqual([n.formField]);
        expect(result.report.securitySchemes.map((s) => s.name)).toEqual(expect.arrayContaining([n.scheme, 'oauth']));
        // 2.0's flow names are renamed to 3.x's by a table: a flow named like a member is kept as written.
        expect(result.report.securitySchemes.find((s) => s.name === 'oauth')!.details).toBe(`OAuth 2: ${n.flow} (token https://t.example), scopes ${n.scope}`);
      }),
      RUNS,
    );
  });

  it('1.2: authorizations and grant types, parameters, models', async () => {
    await fc.assert(
      fc.asyncProperty(names(...slots), async (n) => {
        const doc = {
          swaggerVersion: '1.2',
          basePath: 'https://h.example',
          resourcePath: '/r',
          authorizations: { [n.scheme]: { type: 'apiKey', passAs: 'header', keyname: n.keyName }, oauth: { type: 'oauth2', grantTypes: { [n.flow]: {}, implicit: { loginEndpoint: { url: 'https://l.example' } } }, scopes: [{ scope: n.scope }] } },
          apis: [
            {
              path: `/p/{${n.path}}`,
              operations: [
                {
                  method: 'POST',
                  nickname: n.operationId,
                  type: n.schema,
                  parameters: [
                    { name: n.path, paramType: 'path', type: 'string', required: true },
                    { name: n.query, paramType: 'query', type: n.extra },
                    { name: n.header, paramType: 'header', type: 'string' },
                    { name: n.formField, paramType: 'form', type: 'string' },
                  ],
                  authorizations: { [n.scheme]: [] },
                },
              ],
            },
            { path: '/model', operations: [{ method: 'PUT', nickname: 'put', parameters: [{ name: 'body', paramType: 'body', type: n.schema }] }] },
          ],
          models: { [n.schema]: { id: n.schema, properties: { [n.property]: { type: 'string' } } } },
        };
        const result = await imported(json(doc), 'openapi');
        const [request, put] = requestsOf(result);
        // A model named like a member is the model (not a primitive type), with its property.
        expect(put!.body.kind === 'raw' && JSON.parse(put!.body.raw.text)).toEqual({ [n.property]: 'string' });
        expect(rowNames(request!.pathParams)).toEqual([n.path]);
        expect(rowNames(queryAsRows(request!).query)).toEqual([n.query]);
        expect(rowNames(request!.headers)).toContain(n.header);
        expect(request!.body.kind === 'form' && rowNames(request!.body.form)).toEqual([n.formField]);
        expect(result.report.securitySchemes.map((s) => s.name)).toEqual(expect.arrayContaining([n.scheme, 'oauth']));
      }),
      RUNS,
    );
  });
});

/** A WSDL whose service, port, binding, port type, operation, message, part, element, type, attribute and prefix are the names given. */
function wsdlOf(n: Record<'service' | 'port' | 'binding' | 'portType' | 'operation' | 'message' | 'part' | 'element' | 'child' | 'type' | 'attribute' | 'prefix', string>): string {
  return `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:${n.prefix}="urn:calc" xmlns:tns="urn:calc" targetNamespace="urn:calc" name="${n.service}">
  <types><xsd:schema targetNamespace="urn:calc" elementFormDefault="qualified">
    <xsd:element name="${n.element}"><xsd:complexType><xsd:sequence><xsd:element name="${n.child}" type="xsd:int"/><xsd:element name="typed" type="${n.prefix}:${n.type}"/></xsd:sequence><xsd:attribute name="${n.attribute}" type="xsd:string"/></xsd:complexType></xsd:element>
    <xsd:complexType name="${n.type}"><xsd:sequence><xsd:element name="${n.child}" type="xsd:string"/></xsd:sequence></xsd:complexType>
    <xsd:element name="Out" type="xsd:int"/>
  </xsd:schema></types>
  <message name="${n.message}"><part name="${n.part}" element="${n.prefix}:${n.element}"/></message><message name="OutMessage"><part name="p" element="tns:Out"/></message>
  <message name="RpcIn"><part name="${n.part}" type="xsd:int"/></message>
  <portType name="${n.portType}"><operation name="${n.operation}"><input message="tns:${n.message}" name="${n.operation}"/><output message="tns:OutMessage"/></operation><operation name="Rpc"><input message="tns:RpcIn"/><output message="tns:OutMessage"/></operation></portType>
  <binding name="${n.binding}" type="tns:${n.portType}"><s:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="${n.operation}"><s:operation soapAction="urn:calc#${n.operation}"/><input name="${n.operation}"><s:body use="literal"/></input><output><s:body use="literal"/></output></operation>
    <operation name="Rpc"><s:operation soapAction="Rpc" style="rpc"/><input><s:body use="literal" namespace="urn:calc"/></input><output><s:body use="literal"/></output></operation>
  </binding>
  <service name="${n.service}"><port name="${n.port}" binding="tns:${n.binding}"><s:address location="http://127.0.0.1:9/calc"/></port></service>
</definitions>`;
}
const WSDL_SLOTS = ['service', 'port', 'binding', 'portType', 'operation', 'message', 'part', 'element', 'child', 'type', 'attribute', 'prefix'] as const;

describe('WSDL', () => {
  it('service, port, binding, operation, message, part, element, type and prefix names', async () => {
    await fc.assert(
      fc.asyncProperty(names(...WSDL_SLOTS), async (n) => {
        const result = await imported(wsdlOf(n), 'wsdl');
        const api = result.apis[0]!;
        expect(api.api.name).toBe(n.binding);
        const operation = api.requests.find((r) => r.request.name === n.operation)!.request;
        expect(operation.body.kind === 'raw' && operation.body.raw.text).toContain(`:${n.element}>`);
        expect(operation.body.kind === 'raw' && operation.body.raw.text).toContain(`:${n.child}>`);
      }),
      RUNS,
    );
  });
});

describe('SoapUI', () => {
  it('project, interface, operation, call, header, property and environment names', async () => {
    await fc.assert(
      fc.asyncProperty(names(...WSDL_SLOTS), names('project', 'interface', 'call', 'header', 'property', 'environment', 'scope', 'element'), async (w, n) => {
        const wsdl = wsdlOf(w);
        const project = `<?xml version="1.0" encoding="UTF-8"?>
<con:soapui-project name="${n.project}" soapui-version="5.7.0" xmlns:con="http://eviware.com/soapui/config">
<con:interface xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="con:WsdlInterface" name="${n.interface}" type="wsdl" bindingName="{urn:calc}${w.binding}" soapVersion="1_1" definition="http://example.invalid/calc?wsdl">
<con:settings/><con:definitionCache type="TEXT" rootPart="http://example.invalid/calc?wsdl"><con:part><con:url>http://example.invalid/calc?wsdl</con:url><con:content><![CDATA[${wsdl}]]></con:content><con:type>http://schemas.xmlsoap.org/wsdl/</con:type></con:part></con:definitionCache>
<con:endpoints><con:endpoint>http://127.0.0.1:9/calc</con:endpoint></con:endpoints>
<con:operation name="${w.operation}" action="urn:calc#${w.operation}"><con:call name="${n.call}"><con:settings><con:setting id="com.eviware.soapui.impl.wsdl.WsdlRequest@request-headers">&lt;xml-fragment xmlns:con="http://eviware.com/soapui/config">&lt;con:entry key="${n.header}" value="\${#Project#${n.property}}"/>&lt;/xml-fragment></con:setting></con:settings><con:endpoint>http://127.0.0.1:9/calc</con:endpoint><con:request><![CDATA[<x>\${#Project#${n.property}} \${#${n.scope}#${n.property}}</x>]]></con:request></con:call></con:operation>
<con:operation name="Rpc" action="Rpc"/>
</con:interface>
<con:interface xsi:type="con:${n.scope}" name="${n.scope}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>
<con:${n.element}/>
<con:properties><con:property><con:name>${n.property}</con:name><con:value>1</con:value></con:property></con:properties>
<con:environment name="${n.environment}"><con:property><con:name>${n.property}</con:name><con:value>2</con:value></con:property></con:environment>
</con:soapui-project>`;
        const result = await importedFile(project, 'names-soapui-project.xml');
        expect(result.projectName).toBe(n.project);
        const api = result.apis[0]!;
        expect(api.api.name).toBe(n.interface);
        const call = api.requests.find((r) => r.request.name === n.call)!.request;
        expect(rowNames(call.headers)).toContain(n.header);
        expect(rowNames(result.properties ?? [])).toEqual([n.property]);
        expect(result.environments?.map((e) => [e.name, e.variables.map((v) => v.name)])).toEqual([[n.environment, [n.property]]]);
      }),
      { ...RUNS, numRuns: 20 },
    );
  });
});

describe('definition updates', () => {
  const network = { proxy: '', caPem: '' };

  /** v1 imported from a file, the file replaced by v2, then preview and Apply as the importer child runs them. */
  async function update(fileName: string, v1: string, v2: string) {
    const path = join(dir, `${++files}-${fileName}`);
    writeFileSync(path, v1);
    try {
      const { result } = await runHttpImportJob({ source: { kind: 'file', path }, format: 'auto', options: {}, network }, { newId: counterIds(), now: FIXED_CLOCK });
      const imported = result.apis[0]!;
      const job: DefinitionUpdateJob = { api: imported.api, requests: imported.requests.map((p) => p.request), cached: imported.documents.map((d) => ({ path: d.path, bytes: d.bytes })), source: { kind: 'file', path }, network };
      writeFileSync(path, v2);
      const preview = await runDefinitionPreview(job, { now: FIXED_CLOCK });
      const applied = await runDefinitionApply({ ...job, expectedFingerprint: preview.fingerprint }, { newId: counterIds(), now: FIXED_CLOCK });
      return { preview, applied };
    } catch (err) {
      return noLibraryError(err);
    }
  }

  it('OpenAPI: operations and parameters named like members are matched by name', async () => {
    await fc.assert(
      fc.asyncProperty(names('path', 'query', 'header', 'added', 'scheme'), async (n) => {
        const doc = (version: number) => ({
          openapi: '3.0.3',
          info: { title: 'T', version: String(version) },
          components: { securitySchemes: { [n.scheme]: { type: 'apiKey', name: n.header, in: 'query' } } },
          security: [{ [n.scheme]: [] }],
          paths: {
            [`/${n.path}`]: {
              get: {
                parameters: [{ name: n.query, in: 'query', example: `v${version}` }, ...(version === 2 ? [{ name: n.added, in: 'header', required: true, example: 'a' }] : [])],
                responses: { '200': { description: 'ok' } },
              },
            },
            ...(version === 2 ? { [`/${n.added}`]: { post: { responses: { '200': { description: 'ok' } } } } } : {}),
          },
        });
        const { preview, applied } = await update('names.json', json(doc(1)), json(doc(2)));
        expect(preview.changed).toEqual([{ method: 'get', path: `/${n.path}`, reasons: ['parameters'] }]);
        expect(preview.added).toEqual([{ method: 'post', path: `/${n.added}` }]);
        const get = applied.requests.find((r) => r.url.endsWith(`/${n.path}`))!;
        expect(get.query).toEqual([{ name: n.query, value: 'v2', enabled: false }]);
        expect(rowNames(get.headers)).toContain(n.added);
      }),
      { ...RUNS, numRuns: 15 },
    );
  });

  it('WSDL: operations and elements named like members', async () => {
    await fc.assert(
      fc.asyncProperty(names(...WSDL_SLOTS), async (n) => {
        const v1 = wsdlOf(n);
        const v2 = v1.replace(`soapAction="urn:calc#${n.operation}"`, `soapAction="urn:calc#${n.operation}-2"`);
        const { preview, applied } = await update('names.wsdl', v1, v2);
        expect(preview.changed).toEqual([{ method: 'SOAP', path: n.operation, reasons: ['action'] }]);
        expect(applied.requests.find((r) => r.name === n.operation)!.headers).toContainEqual({ name: 'SOAPAction', value: `"urn:calc#${n.operation}-2"`, enabled: true });
      }),
      { ...RUNS, numRuns: 15 },
    );
  });
});
