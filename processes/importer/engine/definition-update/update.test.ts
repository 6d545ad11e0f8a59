/**
 * Definition update rules 1-5, case by case: an API imported from version 1 of a document,
 * edited by the user, then updated to version 2. Each case names the rule it checks.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Request as RequestSchema } from '../../../../protocol/model/request.js';
import type { Api } from '../../../../protocol/model/api.js';
import type { DefinitionUpdateResult } from '../../../../protocol/model/import.js';
import type { Request } from '../../../../protocol/model/request.js';
import { checkAll } from '../../../../protocol/validate-node.js';
import { queryAsRows } from '../../../../protocol/request-url.js';
import { fingerprintDocuments } from '../load/document-set.js';
import type { ReadDefinition } from '../openapi/definition.js';
import { counterIds, importSource } from '../test-support.js';
import { applyDefinitionUpdate } from './apply.js';
import { readCachedDefinition } from './definitions.js';
import { previewDefinitionUpdate } from './preview.js';

const json = (example: unknown) => ({ 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', example } } } } });

const V1 = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1.0' },
  servers: [{ url: 'https://v1.example.com' }],
  security: [{ key: [] }],
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      bearer: { type: 'http', scheme: 'bearer' },
    },
  },
  paths: {
    '/items': {
      get: {
        summary: 'List',
        tags: ['Items'],
        parameters: [
          { name: 'q', in: 'query', example: 'a' },
          { name: 'limit', in: 'query', schema: { type: 'integer', default: 10 } },
          { name: 'page', in: 'query', schema: { type: 'integer', default: 1 } },
          { name: 'X-Trace', in: 'header', example: 't1' },
        ],
        responses: { '200': { description: 'ok', content: { 'application/json': {} } } },
      },
      post: { summary: 'Create', tags: ['Items'], requestBody: { content: json('n1') }, responses: { '201': { description: 'made' } } },
    },
    '/items/{id}': {
      get: { summary: 'Get', tags: ['Items'], parameters: [{ name: 'id', in: 'path', required: true, example: 1 }], responses: { '200': { description: 'ok' } } },
      delete: { summary: 'Delete', tags: ['Items'], parameters: [{ name: 'id', in: 'path', required: true }], responses: { '204': { description: 'gone' } } },
    },
    '/old': { get: { summary: 'Old', responses: { '200': { description: 'ok' } } } },
  },
};

const V2 = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '2.0' },
  servers: [{ url: 'https://v2.example.com' }],
  security: [{ bearer: [] }],
  components: V1.components,
  paths: {
    '/items': {
      get: {
        summary: 'List',
        tags: ['Items'],
        parameters: [
          { name: 'q', in: 'query', example: 'b' },
          { name: 'limit', in: 'query', required: true, schema: { type: 'integer', default: 20 } },
          { name: 'page', in: 'query', required: true, schema: { type: 'integer', default: 1 } },
          { name: 'extra', in: 'query', required: true },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] } },
          { name: 'X-New', in: 'header', required: true, example: 'n' },
        ],
        responses: { '200': { description: 'ok', content: { 'application/json': {} } } },
      },
      post: { summary: 'Create', tags: ['Items'], requestBody: { content: json('n2') }, responses: { '201': { description: 'made' } } },
    },
    '/items/{id}': {
      get: {
        summary: 'Get',
        tags: ['Items'],
        servers: [{ url: 'https://files.example.com' }],
        security: [{ key: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, example: 1 }],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/things/{id}': { delete: { summary: 'Delete', parameters: [{ name: 'id', in: 'path', required: true }], responses: { '204': { description: 'gone' } } } },
    '/new': { get: { summary: 'New', tags: ['Fresh'], responses: { '200': { description: 'ok' } } } },
  },
};

async function read(doc: object): Promise<ReadDefinition> {
  return readCachedDefinition([{ path: 'openapi.yaml', bytes: new TextEncoder().encode(stringify(doc)) }]);
}

/** v1 imported, then the user's edits, then the update to `to`. */
async function scenario(edit: (api: Api, requests: Request[]) => void = () => {}, to: object = V2, from: object = V1) {
  const { result } = await importSource({ kind: 'paste', text: stringify(from) });
  const imported = result.apis[0];
  if (!imported) throw new Error('no API');
  const api = structuredClone(imported.api);
  const requests = imported.requests.map((p) => structuredClone(p.request));
  edit(api, requests);
  const before = structuredClone(requests);
  const input = { api, requests, old: await read(from), next: await read(to) };
  const preview = previewDefinitionUpdate(input);
  const applied = applyDefinitionUpdate(input, { newId: counterIds(), expectedFingerprint: preview.fingerprint });
  return { api, before, preview, applied, input };
}

const named = (result: DefinitionUpdateResult | Request[], name: string, method?: string): Request => {
  const list = Array.isArray(result) ? result : result.requests;
  const found = list.find((r) => r.name === name && (method === undefined || r.method === method));
  if (!found) throw new Error(`no request ${name}`);
  return found;
};
const row = <R extends { name: string }>(rows: R[], name: string): R | undefined => rows.find((r) => r.name === name);
/** Every query row of a request as the editor shows them: its URL's pairs, then the rows switched off. */
const queryOf = (request: Request) => queryAsRows(request).query;

describe('rule 1: the preview', () => {
  it('lists added and removed operations, changed ones with reasons, and the API-wide line', async () => {
    const { preview, input } = await scenario();
    expect(preview.added).toEqual([
      { method: 'delete', path: '/things/{id}' },
      { method: 'get', path: '/new' },
    ]);
    expect(preview.removed).toEqual([
      { method: 'delete', path: '/items/{id}' },
      { method: 'get', path: '/old' },
    ]);
    expect(preview.changed).toEqual([
      { method: 'get', path: '/items', reasons: ['parameters'] },
      { method: 'post', path: '/items', reasons: ['request-body'] },
      { method: 'get', path: '/items/{id}', reasons: ['security', 'servers'] },
    ]);
    expect(preview.apiWide).toEqual({ servers: true, security: true, version: { from: '1.0', to: '2.0' } });
    expect(preview.fingerprint).toBe(fingerprintDocuments(input.next.set.documents));
    expect(preview.declaredVersion).toBe('openapi-3.0');
  });

  it('the same document twice previews no change at all', async () => {
    const { preview, applied } = await scenario(() => {}, V1);
    expect(preview).toMatchObject({ added: [], removed: [], changed: [] });
    expect(preview.apiWide).toBeUndefined();
    expect(applied.counts).toEqual({ added: 0, rewritten: 0, orphaned: 0, restored: 0 });
  });

  it('formatting and key order are not changes', async () => {
    const reordered = { ...V1, paths: Object.fromEntries(Object.entries(V1.paths).reverse()) };
    const { preview } = await scenario(() => {}, reordered);
    expect(preview.changed).toEqual([]);
  });
});

describe('rule 3: a field is rewritten only while it still equals what the old document generated', () => {
  type Case = [string, (requests: Request[], api: Api) => void, (applied: DefinitionUpdateResult, before: Request[]) => void];
  const cases: Case[] = [
    [
      'an untouched query row takes the new value',
      () => {},
      (a) => expect(row(queryOf(named(a, 'List')), 'q')).toEqual({ name: 'q', value: 'b', enabled: false }),
    ],
    [
      'an edited query row keeps the user’s value',
      (rs) => Object.assign(row(named(rs, 'List').query, 'q') ?? {}, { value: 'mine' }),
      (a) => expect(row(queryOf(named(a, 'List')), 'q')).toEqual({ name: 'q', value: 'mine', enabled: false }),
    ],
    [
      'a parameter the new document adds arrives as a generated row',
      () => {},
      (a) => expect(row(queryOf(named(a, 'List')), 'sort')).toEqual({ name: 'sort', value: 'asc', enabled: false }),
    ],
    [
      'a parameter no longer declared is removed while still as generated',
      () => {},
      (a) => expect(row(named(a, 'List').headers, 'X-Trace')).toBeUndefined(),
    ],
    [
      'a parameter no longer declared is kept when edited',
      (rs) => Object.assign(row(named(rs, 'List').headers, 'X-Trace') ?? {}, { value: 'edited' }),
      (a) => expect(row(named(a, 'List').headers, 'X-Trace')).toEqual({ name: 'X-Trace', value: 'edited', enabled: false }),
    ],
    [
      'header rows follow the same rule, and a new one arrives',
      () => {},
      (a) => expect(named(a, 'List').headers).toEqual([
        { name: 'Accept', value: 'application/json', enabled: true },
        { name: 'X-New', value: 'n', enabled: true },
      ]),
    ],
    [
      'a row the user added is kept',
      (rs) => {
        named(rs, 'List').headers.push({ name: 'X-Mine', value: '1', enabled: true });
        named(rs, 'List').query.push({ name: 'debug', value: 'on', enabled: false });
      },
      (a) => {
        expect(row(named(a, 'List').headers, 'X-Mine')).toEqual({ name: 'X-Mine', value: '1', enabled: true });
        expect(row(queryOf(named(a, 'List')), 'debug')).toEqual({ name: 'debug', value: 'on', enabled: false });
      },
    ],
    [
      'a generated row the user deleted stays deleted',
      (rs) => {
        const list = named(rs, 'List');
        list.query = list.query.filter((r) => r.name !== 'q');
      },
      (a) => expect(row(queryOf(named(a, 'List')), 'q')).toBeUndefined(),
    ],
    [
      'an untouched body takes the new sample; its content type stays',
      () => {},
      (a) => {
        expect(named(a, 'Create').body.raw.text).toBe('{\n  "name": "n2"\n}');
        expect(named(a, 'Create').generated?.body).toBe('{\n  "name": "n2"\n}');
      },
    ],
    [
      'an edited body is kept',
      (rs) => {
        named(rs, 'Create').body.raw.text = '{"name": "mine"}';
      },
      (a) => expect(named(a, 'Create').body.raw.text).toBe('{"name": "mine"}'),
    ],
    [
      'an untouched URL takes the new one (an operation-level server made it absolute)',
      () => {},
      (a) => expect(named(a, 'Get').url).toBe('https://files.example.com/items/{id}'),
    ],
    [
      'an edited URL is kept',
      (rs) => {
        named(rs, 'Get').url = '/items/{id}/v';
      },
      (a) => expect(named(a, 'Get').url).toBe('/items/{id}/v'),
    ],
    [
      'untouched request auth takes the new generation',
      () => {},
      (a) => expect(named(a, 'Get').auth).toEqual({ type: 'apikey', name: 'X-Key', value: '', in: 'header' }),
    ],
    [
      'edited request auth is kept',
      (rs) => {
        named(rs, 'Get').auth = { type: 'basic', username: 'me', password: '${secret:pw}' };
      },
      (a) => expect(named(a, 'Get').auth).toEqual({ type: 'basic', username: 'me', password: '${secret:pw}' }),
    ],
    [
      'path parameter rows keep an edited value',
      (rs) => {
        (named(rs, 'Get').pathParams[0] as { value: string }).value = '77';
      },
      (a) => expect(named(a, 'Get').pathParams).toEqual([{ name: 'id', value: '77' }]),
    ],
    [
      'generated is the new document’s generation afterwards',
      () => {},
      (a) => expect(named(a, 'List').generated?.query.map((r) => r.name)).toEqual(['q', 'limit', 'page', 'extra', 'sort']),
    ],
    [
      'a request with no operation link is left exactly as it is',
      (rs) => {
        rs.push({ ...structuredClone(named(rs, 'List')), id: 'r_mine', name: 'Mine', operation: undefined, generated: undefined });
        delete (rs[rs.length - 1] as Partial<Request>).operation;
        delete (rs[rs.length - 1] as Partial<Request>).generated;
      },
      (a, before) => expect(named(a, 'Mine')).toEqual(named(before, 'Mine')),
    ],
  ];
  it.each(cases)('%s', async (_name, edit, check) => {
    const { applied, before } = await scenario((_api, requests) => edit(requests, _api));
    check(applied, before);
    for (const request of applied.requests) expect(checkAll(RequestSchema, request)).toEqual([]);
  });
});

describe('rule 4: a query parameter the new document makes required is switched on', () => {
  it('an edited row is switched on with its value kept; an untouched one simply becomes the new row', async () => {
    const { applied } = await scenario((_api, rs) => Object.assign(row(named(rs, 'List').query, 'limit') ?? {}, { value: '50' }));
    expect(row(queryOf(named(applied, 'List')), 'limit')).toEqual({ name: 'limit', value: '50', enabled: true });
    expect(row(queryOf(named(applied, 'List')), 'page')).toEqual({ name: 'page', value: '1', enabled: true });
  });

  it('a row the user added is never switched on this way', async () => {
    const { applied } = await scenario((_api, rs) => named(rs, 'List').query.push({ name: 'extra', value: 'x', enabled: false }));
    expect(queryOf(named(applied, 'List')).filter((r) => r.name === 'extra')).toEqual([{ name: 'extra', value: 'x', enabled: false }]);
  });

  it('a row the user switched off on purpose stays off when the parameter was already required', async () => {
    const required = structuredClone(V1);
    (required.paths['/items'].get.parameters[1] as { required?: boolean }).required = true;
    const { applied } = await scenario((_api, rs) => Object.assign(row(named(rs, 'List').query, 'limit') ?? {}, { enabled: false }), V2, required);
    expect(row(queryOf(named(applied, 'List')), 'limit')).toEqual({ name: 'limit', value: '10', enabled: false });
  });
});

describe('rules 2 and 5: identity by method and path; nothing is deleted', () => {
  it('a removed operation orphans its request, which is kept whole', async () => {
    const { applied, before } = await scenario();
    const old = named(applied, 'Old');
    expect(old.orphaned).toBe(true);
    const { orphaned: _o, ...rest } = old;
    expect(rest).toEqual(named(before, 'Old'));
    expect(applied.counts.orphaned).toBe(2);
  });

  it('a renamed path reads as one removed and one added', async () => {
    const { applied } = await scenario();
    expect(named(applied, 'Delete').orphaned).toBe(true);
    expect(named(applied, 'Delete').operation).toEqual({ method: 'delete', path: '/items/{id}' });
    const added = applied.added.map((p) => [p.folder, p.request.name, (p.request as Request).operation]);
    expect(added).toEqual([
      ['', 'Delete', { method: 'delete', path: '/things/{id}' }],
      ['Fresh', 'New', { method: 'get', path: '/new' }],
    ]);
    expect(applied.counts.added).toBe(2);
  });

  it('every request passed in comes back, none removed', async () => {
    const { applied, before } = await scenario();
    expect(applied.requests.map((r) => r.id)).toEqual(before.map((r) => r.id));
  });

  it('leaves its inputs untouched, so a failed save leaves the API exactly as it was', async () => {
    const { applied, before, input } = await scenario();
    const apiBefore = structuredClone(input.api);
    expect(input.requests).toEqual(before);
    expect(applied.requests).not.toBe(input.requests);
    applyDefinitionUpdate(input, { newId: counterIds() });
    expect(input.api).toEqual(apiBefore);
    expect(input.requests).toEqual(before);
  });

  it('two applies of the same update give the same result', async () => {
    const { input } = await scenario();
    expect(applyDefinitionUpdate(input, { newId: counterIds() })).toEqual(applyDefinitionUpdate(input, { newId: counterIds() }));
  });

  it('a request the user deleted is not brought back', async () => {
    const { applied } = await scenario((_api, rs) => rs.splice(rs.findIndex((r) => r.name === 'Create'), 1));
    expect(applied.added.map((p) => p.request.name)).not.toContain('Create');
  });

  it('an orphan whose operation comes back is restored and counted', async () => {
    const first = await scenario();
    const input = { api: first.applied.api, requests: first.applied.requests, old: await read(V2), next: await read(V1) };
    const back = applyDefinitionUpdate(input, { newId: counterIds() });
    const old = named(back, 'Old');
    expect(old.orphaned).toBeUndefined();
    expect(old.restored).toBe(true);
    expect(back.counts.restored).toBe(2);
    // A later update clears the one-time restored mark.
    const again = applyDefinitionUpdate({ ...input, requests: back.requests, old: await read(V1) }, { newId: counterIds() });
    expect(named(again, 'Old').restored).toBeUndefined();
    expect(again.counts.restored).toBe(0);
  });

  it('counts requests whose visible fields were rewritten', async () => {
    const { applied } = await scenario();
    // List (rows), Create (body), Get (URL and auth).
    expect(applied.counts.rewritten).toBe(3);
  });
});

describe('rule 3, API-wide: base URL, auth and definition version', () => {
  it('untouched values take the new document’s', async () => {
    const { applied } = await scenario();
    expect(applied.api.baseUrl).toBe('https://v2.example.com');
    expect(applied.api.auth).toEqual({ type: 'bearer', token: '' });
    expect(applied.api.definition?.apiVersion).toBe('2.0');
    expect(applied.api.generated).toEqual({ baseUrl: 'https://v2.example.com', auth: { type: 'bearer', token: '' }, apiVersion: '2.0' });
  });

  it('edited values are kept', async () => {
    const { applied } = await scenario((api) => {
      api.baseUrl = 'http://localhost:8080';
      api.auth = { type: 'apikey', name: 'X-Key', value: '${secret:key}', in: 'header' };
      if (api.definition) api.definition.apiVersion = 'pinned';
    });
    expect(applied.api.baseUrl).toBe('http://localhost:8080');
    expect(applied.api.auth).toEqual({ type: 'apikey', name: 'X-Key', value: '${secret:key}', in: 'header' });
    expect(applied.api.definition?.apiVersion).toBe('pinned');
  });

  it('the cached definition and fingerprint are rewritten; the recorded source stays unless replaced', async () => {
    const { applied, input, api } = await scenario();
    expect(applied.api.definition?.fingerprint).toBe(fingerprintDocuments(input.next.set.documents));
    expect(applied.documents.map((d) => d.path)).toEqual(['openapi.yaml']);
    expect(applied.api.definition?.cached).toEqual(['definition/openapi.yaml']);
    expect(applied.api.definition?.source).toEqual(api.definition?.source);
    const moved = applyDefinitionUpdate(input, { newId: counterIds(), source: { kind: 'file', location: '/defs/shop.yaml' } });
    expect(moved.api.definition?.source).toEqual({ kind: 'file', location: '/defs/shop.yaml' });
  });
});

describe('Apply after the sources changed', () => {
  it('is refused: nothing applied, and the code says to preview again', async () => {
    const { preview, input } = await scenario();
    const changed = await read({ ...V2, info: { title: 'Shop', version: '2.1' } });
    expect(() => applyDefinitionUpdate({ ...input, next: changed }, { newId: counterIds(), expectedFingerprint: preview.fingerprint })).toThrow(
      expect.objectContaining({ code: 'definition-changed' }),
    );
  });
});

describe('without the old documents (the API cached none)', () => {
  it('previews from the requests’ links and still merges by what each request recorded', async () => {
    const { result } = await importSource({ kind: 'paste', text: stringify(V1) });
    const api = result.apis[0]?.api as Api;
    const requests = (result.apis[0]?.requests ?? []).map((p) => p.request);
    const input = { api, requests, old: null, next: await read(V2) };
    const preview = previewDefinitionUpdate(input);
    expect(preview.removed).toEqual([
      { method: 'delete', path: '/items/{id}' },
      { method: 'get', path: '/old' },
    ]);
    expect(preview.changed).toEqual([]);
    expect(preview.apiWide?.version).toEqual({ from: '1.0', to: '2.0' });
    const applied = applyDefinitionUpdate(input, { newId: counterIds() });
    expect(row(queryOf(named(applied, 'List')), 'q')?.value).toBe('b');
    expect(applied.counts.added).toBe(2);
  });
});
