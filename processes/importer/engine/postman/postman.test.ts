/**
 * Postman collections, environments and globals through the whole import job (read, detect,
 * convert), over the real exports in test/fixtures/importers/postman (SOURCES.md) and generated
 * edge cases. Each SPEC rule is a row of a table.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportResult, type ImportJob } from '../../../../protocol/model/import.js';
import { Request } from '../../../../protocol/model/request.js';
import { checkAll } from '../../../../protocol/validate-node.js';
import { FIXED_CLOCK, counterIds, runHttpImportJob, type HttpImportResult } from '../test-support.js';

const FIXTURES = join(import.meta.dirname, '../../../../test/fixtures/importers/postman');
const network = { proxy: '', caPem: '' };

async function importFile(path: string, format = 'auto') {
  const job: ImportJob = { source: { kind: 'file', path }, format, options: {}, network };
  return runHttpImportJob(job, { newId: counterIds(), now: FIXED_CLOCK });
}
async function importText(text: string, format = 'auto') {
  return runHttpImportJob({ source: { kind: 'paste', text }, format, options: {}, network }, { newId: counterIds(), now: FIXED_CLOCK });
}
const fixture = (path: string) => join(FIXTURES, path);
function requestsOf(result: HttpImportResult) {
  return result.apis.flatMap((a) => a.requests);
}
function named(result: HttpImportResult, name: string) {
  const found = requestsOf(result).find((p) => p.request.name === name);
  if (!found) throw new Error(`no request ${name} in ${requestsOf(result).map((p) => p.request.name).join(', ')}`);
  return found;
}

describe('Postman collections: auto-detect', () => {
  it.each([
    ['v2.0/bearerAuthTest.json', 'Postman collection v2.0', 'content'],
    ['v2.1/bearerAuthTest.json', 'Postman collection v2.1', 'content'],
    ['bruno/postman-v21-wrapped.json', 'Postman collection v2.1', 'content'],
    ['newman/multi-level-folders-v2.postman_collection.json', 'Postman collection v2.0', 'file-name'],
    ['environments/global-env.json', 'Postman globals', 'content'],
    ['environments/postman-env-mixed-enabled.json', 'Postman environment', 'content'],
    ['environments/Vampi Secure.postman_environment.json', 'Postman environment', 'file-name'],
  ])('%s is recognised as %s by its %s', async (file, label, by) => {
    const { detection } = await importFile(fixture(file));
    expect(detection).toMatchObject({ label, settledBy: by });
  });

  it('a file name settles the format over content that looks like another', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pm-detect-'));
    // An environment export's content, under a collection's file name: the name wins, and the collection importer says what it is not.
    const path = join(dir, 'x.postman_collection.json');
    await writeFile(path, JSON.stringify({ name: 'E', values: [], _postman_variable_scope: 'environment' }));
    await expect(importFile(path)).rejects.toMatchObject({ code: 'import-malformed', message: expect.stringContaining('not a Postman collection') });
  });
  // Item 6 of issue 31: detection reads the parsed document. PHP's json_encode (and exports made with
  // it) writes every slash as `\/`; the escaped schema URL names the same schema.
  it.each([
    ['top level', (text: string) => text],
    ['under a top-level collection, as the API exports it', (text: string) => `{"collection":${text}}`],
    ['with its keys written as unicode escapes', (text: string) => text.replace('"info"', '"\\u0069nfo"').replace('"schema"', '"sch\\u0065ma"')],
  ])('a v2.0 export whose schema URL escapes its slashes is recognised by content (%s)', async (_, wrap) => {
    const plain = await readFile(fixture('v2.0/nestedEntities.json'), 'utf8');
    // JSON has a slash only inside strings, so this is the same document written as PHP writes it.
    const escaped = wrap(plain.replaceAll('/', '\\/'));
    expect(escaped).toContain('"https:\\/\\/schema.getpostman.com\\/json\\/collection\\/v2.0.0\\/collection.json"');
    const dir = await mkdtemp(join(tmpdir(), 'pm-escaped-'));
    const path = join(dir, 'export.json');
    await writeFile(path, escaped);
    const escapedImport = await importFile(path);
    expect(escapedImport.detection).toMatchObject({ format: 'postman-collection', label: 'Postman collection v2.0', settledBy: 'content' });
    const plainImport = await importFile(fixture('v2.0/nestedEntities.json'));
    expect(requestsOf(escapedImport.result).map((p) => p.request)).toEqual(requestsOf(plainImport.result).map((p) => p.request));
  });
});

describe('Postman collections: conversion', () => {
  it('v2.0 and v2.1 exports of the same collections give the same requests', async () => {
    // (formdata-body's and apikeyAuthTest's two copies differ in their contents, so they are not among them.)
    for (const file of ['bearerAuthTest', 'reqBodyGraphQL', 'nestedEntities', 'httpbin']) {
      const a = (await importFile(fixture(`v2.0/${file}.json`))).result;
      const b = (await importFile(fixture(`v2.1/${file}.json`))).result;
      expect(requestsOf(a).map((p) => ({ ...p, request: { ...p.request, id: '' } })), file).toEqual(requestsOf(b).map((p) => ({ ...p, request: { ...p.request, id: '' } })));
      expect(checkAll(ImportResult, a), file).toEqual([]);
    }
  });

  it('folders nest, requests keep method, URL, query, headers; {{name}} becomes ${name}; variables become properties', async () => {
    const { result } = await importFile(fixture('bruno/postman-v21.json'));
    expect(result.apis).toHaveLength(1);
    expect(result.apis[0]!.api).toMatchObject({ name: 'Postman v2.1 Collection', baseUrl: '', auth: { type: 'none' } });
    const get = named(result, 'Get Users').request;
    expect(get).toMatchObject({ method: 'GET', url: '${baseUrl}/users', query: [{ name: 'page', value: '1', enabled: true }], auth: { type: 'inherit' } });
    // A credential header made only of a scheme and variables holds no secret: kept.
    expect(get.headers).toEqual([{ name: 'Authorization', value: 'Bearer ${token}', enabled: true }]);
    const create = named(result, 'Create User').request;
    expect(create.body).toMatchObject({ kind: 'raw', raw: { language: 'json', text: expect.stringContaining('"John Doe"') } });
    expect(result.properties).toEqual([{ name: 'baseUrl', value: 'https://api.example.com', enabled: true }]);
    expect(result.report).toMatchObject({ format: 'postman-collection', declaredVersion: 'postman-collection-2.1', requestCount: 2 });
    for (const p of requestsOf(result)) expect(checkAll(Request, p.request)).toEqual([]);
  });

  it('multi-level folders become folder paths', async () => {
    const { result } = await importFile(fixture('newman/multi-level-folders-v2.postman_collection.json'));
    const folders = result.apis[0]!.folders;
    expect(folders.some((f) => f.path.includes('/'))).toBe(true);
    for (const p of requestsOf(result)) expect(folders.some((f) => f.path === p.folder) || p.folder === '').toBe(true);
  });

  it('every body kind: form data with text and file parts, GraphQL into the GraphQL body kind, binary file', async () => {
    const form = (await importFile(fixture('v2.1/formdata-body.json'))).result;
    const parts = requestsOf(form)[0]!.request.body;
    expect(parts.kind).toBe('multipart');
    expect(parts.multipart.map((p) => p.kind)).toEqual(['file', 'file', 'file', 'text']);
    const graphql = (await importFile(fixture('v2.1/reqBodyGraphQL.json'))).result;
    const body = requestsOf(graphql)[0]!.request.body;
    expect(body.kind).toBe('graphql');
    expect(body.graphql).toEqual({ query: 'query Test { hello }', variables: '{\n  "foo": "bar"\n}', operationName: 'Test', schemaFile: '' });
    expect(requestsOf(graphql)[0]!.request.version).toBe(4);
    // Postman's default Accept goes with it, so the request on the wire is newman's.
    expect(requestsOf(graphql)[0]!.request.headers).toContainEqual({ name: 'Accept', value: '*/*', enabled: true });
    const binary = (await importFile(fixture('bruno/postman-import-binary-body-mode.json'))).result;
    expect(requestsOf(binary).some((p) => p.request.body.kind === 'binary')).toBe(true);
  });

  it('urlencoded bodies, path variables, disabled rows and descriptions', async () => {
    const collection = {
      info: { name: 'Edge', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json', description: 'About' },
      item: [
        {
          name: 'Folder',
          description: 'A folder',
          item: [
            {
              name: 'Update user',
              request: {
                method: 'put',
                description: 'Updates one user',
                url: { raw: 'https://api.test/users/:id/items/:item?x=1&y=2', host: ['api', 'test'], protocol: 'https', path: ['users', ':id', 'items', ':item'], query: [{ key: 'x', value: '1' }, { key: 'y', value: '2', disabled: true }], variable: [{ key: 'id', value: '{{userId}}' }, { key: 'item', value: '7' }] },
                header: [{ key: 'X-Off', value: 'a', disabled: true }],
                body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: '{{b}}' }, { key: 'c', value: 'd', disabled: true }] },
              },
            },
          ],
        },
      ],
    };
    const { result } = await importText(JSON.stringify(collection));
    const placed = named(result, 'Update user');
    expect(placed.folder).toBe('Folder');
    expect(placed.request).toMatchObject({
      method: 'PUT',
      url: 'https://api.test/users/{id}/items/{item}',
      pathParams: [{ name: 'id', value: '${userId}' }, { name: 'item', value: '7' }],
      query: [{ name: 'x', value: '1', enabled: true }, { name: 'y', value: '2', enabled: false }],
      headers: [{ name: 'X-Off', value: 'a', enabled: false }],
      body: { kind: 'form', form: [{ name: 'a', value: '${b}', enabled: true }, { name: 'c', value: 'd', enabled: false }] },
      description: 'Updates one user',
    });
  });

  it('an API key in the query string, per request, with its key value not carried', async () => {
    const { result } = await importFile(fixture('bruno/postman-import-apikey-query-collection.json'));
    expect(requestsOf(result)[0]!.request.auth).toMatchObject({ type: 'apikey', in: 'query', value: '' });
    expect(JSON.stringify(result)).not.toContain('"hello"');
  });

  it('auth: per request, folder auth kept on its folder (its requests inherit), unsupported schemes reported, credentials not carried', async () => {
    const schema = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
    const collection = {
      info: { name: 'Auth', schema },
      auth: { type: 'bearer', bearer: [{ key: 'token', value: 'literal-collection-token' }] },
      item: [
        { name: 'Inherit', request: { method: 'GET', url: 'https://a.test/1' } },
        { name: 'None', request: { method: 'GET', url: 'https://a.test/2', auth: { type: 'noauth' } } },
        { name: 'Basic', request: { method: 'GET', url: 'https://a.test/3', auth: { type: 'basic', basic: [{ key: 'username', value: 'ann' }, { key: 'password', value: 'hunter2' }] } } },
        { name: 'Var token', request: { method: 'GET', url: 'https://a.test/4', auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] } } },
        { name: 'Hawk', request: { method: 'GET', url: 'https://a.test/5', auth: { type: 'hawk', hawk: [{ key: 'authId', value: 'x' }] } } },
        { name: 'F', auth: { type: 'apikey', apikey: [{ key: 'key', value: 'X-Key' }, { key: 'value', value: 'k-123' }, { key: 'in', value: 'header' }] }, item: [{ name: 'In folder', request: { method: 'GET', url: 'https://a.test/6' } }] },
        { name: 'G', auth: { type: 'hawk', hawk: [{ key: 'authId', value: 'x' }] }, item: [{ name: 'In hawk folder', request: { method: 'GET', url: 'https://a.test/8' } }] },
        { name: 'OAuth', request: { method: 'GET', url: 'https://a.test/7', auth: { type: 'oauth2', oauth2: [{ key: 'grant_type', value: 'client_credentials' }, { key: 'accessTokenUrl', value: 'https://id.test/token' }, { key: 'clientId', value: 'cid' }, { key: 'clientSecret', value: 'shh' }, { key: 'scope', value: 'read' }] } } },
      ],
    };
    const { result } = await importText(JSON.stringify(collection));
    expect(result.apis[0]!.api.auth).toEqual({ type: 'bearer', token: '' });
    expect(named(result, 'Inherit').request.auth).toEqual({ type: 'inherit' });
    expect(named(result, 'None').request.auth).toEqual({ type: 'none' });
    expect(named(result, 'Basic').request.auth).toEqual({ type: 'basic', username: 'ann', password: '' });
    expect(named(result, 'Var token').request.auth).toEqual({ type: 'bearer', token: '${token}' });
    expect(named(result, 'Hawk').request.auth).toEqual({ type: 'none' });
    expect(named(result, 'In folder').request.auth).toEqual({ type: 'inherit' });
    const folders = new Map(result.apis[0]!.folders.map((f) => [f.path, f]));
    expect(folders.get('F')!.auth).toEqual({ type: 'apikey', name: 'X-Key', value: '', in: 'header' });
    // An auth Parley does not have, on a folder: none, rather than the collection's credentials.
    expect(folders.get('G')!.auth).toEqual({ type: 'none' });
    expect(named(result, 'In hawk folder').request.auth).toEqual({ type: 'inherit' });
    expect(named(result, 'OAuth').request.auth).toMatchObject({ type: 'oauth2', grant: 'client_credentials', tokenUrl: 'https://id.test/token', clientId: 'cid', clientSecret: '', scope: 'read' });
    expect(result.report.unimported).toContainEqual(expect.objectContaining({ item: 'Auth of Hawk', reason: expect.stringContaining('hawk') }));
    expect(result.report.unimported).toContainEqual(expect.objectContaining({ item: 'Auth of folder G', path: '/item/6/auth' }));
    const text = JSON.stringify(result);
    for (const secret of ['literal-collection-token', 'hunter2', 'k-123', 'shh']) expect(text).not.toContain(secret);
    expect(result.report.warnings).toContainEqual({ message: expect.stringMatching(/^Credentials are not carried across/) });
  });

  it("a folder's auth and variables stay on the folder (a real collection: postman-schemas' nestedEntities)", async () => {
    for (const version of ['v2.0', 'v2.1']) {
      const { result } = await importFile(fixture(`${version}/nestedEntities.json`));
      const [api] = result.apis;
      expect(api!.api.auth, version).toEqual({ type: 'basic', username: '${username}', password: '${token}' });
      // (`key` looks like a credential's name: its value is not carried across, on the folder as in the properties.)
      expect(api!.folders, version).toEqual([{ path: 'F1', order: expect.any(String), auth: { type: 'basic', username: '${username}', password: '${token}' }, variables: [{ name: 'key', value: '', enabled: true }] }]);
      // The collection's variable is a project property; the folder's (same name) is the folder's own.
      expect(result.properties, version).toEqual([{ name: 'key', value: '', enabled: true }]);
      expect(named(result, 'Basic').folder, version).toBe('F1');
      expect(result.report.notes, version).toContainEqual({ message: expect.stringMatching(/^1 folder variable is kept on its folder/) });
      expect(checkAll(ImportResult, result), version).toEqual([]);
    }
  });

  it('folder variables: credentials are not carried, the first of a name wins, disabled ones stay disabled', async () => {
    const schema = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
    const collection = {
      info: { name: 'Vars', schema },
      item: [
        {
          name: 'Orders',
          variable: [
            { key: 'region', value: 'eu' },
            { key: 'region', value: 'us' },
            { key: 'apiToken', value: 'tok-literal' },
            { key: 'team', value: '{{teamName}}', disabled: true },
          ],
          item: [{ name: 'List', request: { method: 'GET', url: 'https://a.test/{{region}}' } }],
        },
      ],
    };
    const { result } = await importText(JSON.stringify(collection));
    expect(result.apis[0]!.folders[0]!.variables).toEqual([
      { name: 'region', value: 'eu', enabled: true },
      { name: 'apiToken', value: '', enabled: true },
      { name: 'team', value: '${teamName}', enabled: false },
    ]);
    expect(result.properties ?? []).toEqual([]);
    expect(JSON.stringify(result)).not.toContain('tok-literal');
  });

  it('scripts are reported as not carried across, never kept as code', async () => {
    const { result } = await importFile(fixture('bruno/postman-with-scripts.json'));
    const scripts = result.report.unimported.filter((u) => /script/i.test(u.item));
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(result.apis)).not.toContain('pm.environment.set');
  });

  it('dynamic variables are kept as written with one warning', async () => {
    const { result } = await importFile(fixture('newman/dynamic-var-replacement.postman_collection.json'));
    expect(JSON.stringify(requestsOf(result))).toContain('{{$');
    expect(result.report.warnings.filter((w) => w.message.startsWith('Dynamic variables'))).toHaveLength(1);
  });

  it('collection variables: an existing name keeps its first definition; disabled ones stay disabled', async () => {
    const { result } = await importFile(fixture('bruno/postman-collection-vars-mixed-disabled.json'));
    const names = (result.properties ?? []).map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect((result.properties ?? []).some((p) => !p.enabled)).toBe(true);
  });

  it('two runs give the same result', async () => {
    const a = await importFile(fixture('v2.1/httpbin.json'));
    const b = await importFile(fixture('v2.1/httpbin.json'));
    expect(a).toEqual(b);
    const ids = requestsOf(a.result).map((p) => p.request.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('Postman collections: malformed inputs give a clear error', () => {
  const schema = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
  let deep = '';
  for (let i = 0; i < 50_000; i++) deep += '{"name":"f","item":[';
  deep = `{"info":{"name":"Deep","schema":"${schema}"},"item":[${deep}${']}'.repeat(50_000)}]}`;
  it.each([
    ['truncated JSON', '{"info":{"name":"T","schema":"' + schema + '"},"item":[{"name":"a"', 'postman-collection', /not valid JSON/],
    ['no info', (FIXTURE_MISSING_INFO), 'postman-collection', /no info object/],
    ['item is not a list', JSON.stringify({ info: { name: 'W', schema }, item: 'nope' }), 'postman-collection', /item must be a list/],
    ['50,000-deep nesting', deep, 'auto', /nested more than 200 levels/],
    ['a v1 collection', JSON.stringify({ id: 'x', name: 'Old', order: [], requests: [] }), 'postman-collection', /collection v1/],
    ['another schema', JSON.stringify({ info: { name: 'S', schema: 'https://example.com/other.json' }, item: [] }), 'postman-collection', /not Postman collection v2.0 or v2.1/],
  ])('%s', async (_title, text, format, message) => {
    await expect(importText(text, format)).rejects.toMatchObject({ code: 'import-malformed', message: expect.stringMatching(message) });
  });

  it('the malformed fixture is refused as not valid JSON', async () => {
    await expect(importFile(fixture('bruno/postman-malformed.json'), 'postman-collection')).rejects.toMatchObject({ code: 'import-malformed' });
  });
});

const FIXTURE_MISSING_INFO = JSON.stringify({ item: [{ name: 'x', request: { method: 'GET', url: 'https://a.test' } }] });

describe('Postman environment and globals exports', () => {
  it('an environment: name, values, enabled, secret-typed values marked secret; never active is the supervisor’s', async () => {
    const { result } = await importFile(fixture('environments/postman-env-mixed-enabled.json'));
    expect(result.apis).toEqual([]);
    expect(result.environments).toHaveLength(1);
    const env = result.environments![0]!;
    expect(env.variables.some((v) => !v.enabled)).toBe(true);
    expect(result.report.format).toBe('postman-environment');
  });

  it('globals: the secret-typed value is marked secret, plain ones are not', async () => {
    const { result } = await importFile(fixture('environments/global-env.json'));
    expect(result.environments).toBeUndefined();
    expect(result.globals?.find((g) => g.name === 'secretApiToken')).toEqual({ name: 'secretApiToken', value: 'global-secret-token-67890', enabled: true, secret: true });
    expect(result.globals?.find((g) => g.name === 'host')).toMatchObject({ secret: false });
  });

  it.each([
    ['a UTF-8 BOM', 'environments/bom-in-environment-file.postman_environment.json'],
    ['UTF-16LE', 'environments/utf16-le-encoding-in-env.postman_environment.json'],
  ])('an export written with %s reads', async (_title, file) => {
    const { result } = await importFile(fixture(file));
    expect(result.environments?.[0]?.variables.length).toBeGreaterThan(0);
  });

  it.each([
    ['{{name}} becomes ${name}', [{ key: 'url', value: '{{host}}/v1' }], { name: 'url', value: '${host}/v1', enabled: true, secret: false }, null],
    ['a disabled variable stays disabled', [{ key: 'off', value: '1', enabled: false }], { name: 'off', value: '1', enabled: false, secret: false }, null],
    ['a secret with no value arrives empty with a warning', [{ key: 'token', value: '', type: 'secret' }], { name: 'token', value: '', enabled: true, secret: true }, /no exported value/],
    ['a dynamic variable is kept as written with one warning', [{ key: 'id', value: '{{$guid}}' }, { key: 'ts', value: '{{$timestamp}}' }], { name: 'id', value: '{{$guid}}', enabled: true, secret: false }, /^Dynamic variables/],
    ['a number value becomes its text', [{ key: 'n', value: 42 }], { name: 'n', value: '42', enabled: true, secret: false }, null],
  ])('%s', async (_title, values, expected, warning) => {
    const { result } = await importText(JSON.stringify({ name: 'Env', values, _postman_variable_scope: 'environment' }));
    expect(result.environments![0]!.variables[0]).toEqual(expected);
    if (warning) expect(result.report.warnings.filter((w) => (warning as RegExp).test(w.message))).toHaveLength(1);
    else expect(result.report.warnings).toEqual([]);
  });

  it.each([
    ['the bulk data dump', JSON.stringify({ version: 1, collections: [{}], environments: [{}, {}] }), 'auto', 'import-refused', /data dump \(1 collection, 2 environments\)/],
    ['a zip archive', 'PK\u0003\u0004\u0014\u0000\u0008\u0000', 'postman-environment', 'import-malformed', /not valid JSON: it is a zip archive/],
    ['JSON that is not an export', JSON.stringify({ hello: 'world' }), 'postman-environment', 'import-refused', /not a Postman environment or globals export/],
    ['a list of exports', JSON.stringify([{ name: 'A', values: [] }]), 'postman-environment', 'import-refused', /not a Postman environment or globals export/],
    ['a collection given as an environment', JSON.stringify({ info: { name: 'C', schema: 'x' }, item: [] }), 'postman-environment', 'import-refused', /is a Postman collection/],
    ['a globals export given as an environment', JSON.stringify({ name: 'G', values: [], _postman_variable_scope: 'globals' }), 'postman-environment', 'import-refused', /globals export/],
    ['truncated JSON', '{"name":"E","values":[{"key":"a"', 'postman-environment', 'import-malformed', /not valid JSON/],
  ])('refuses %s with a clear message', async (_title, text, format, code, message) => {
    await expect(importText(text, format)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
  });
});
