/** Operation, response and media type selection (Contract-check rules 1 to 4). */
import { describe, expect, test } from 'vitest';
import { PreparedDefinition } from './definition.js';
import { listOperations, matchOperation, serverPathPrefix } from './select-operation.js';
import { isJsonMediaType, selectMediaType, selectResponseKey } from './select-response.js';

const ok = { responses: { '200': { description: 'ok' } } };

function ops(document: Record<string, unknown>) {
  return listOperations(new PreparedDefinition([{ uri: 'api.yaml', document }], 'fp'));
}

const api = ops({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  servers: [{ url: 'https://api.example.com/v2' }, { url: '/{base}', variables: { base: { default: 'api' } } }],
  paths: {
    '/users/{id}': { get: ok, put: ok },
    '/users/me': { get: ok },
    '/a/{x}/c': { get: ok },
    '/a/b/{y}': { get: ok },
    '/reports/{id}.json': { get: ok },
    '/files/{name}': { get: ok },
    '/café': { get: ok },
    '/admin/stats': { get: { ...ok, servers: [{ url: 'https://admin.example.com/internal' }] } },
  },
});

const path = (method: string, url: string, link?: { method: string; path: string }) => matchOperation(api, method, url, link)?.path;

describe('matching by method and path', () => {
  test('a concrete path beats a templated one, whatever the document order', () => {
    expect(path('GET', 'https://api.example.com/v2/users/me')).toBe('/users/me');
    expect(path('GET', 'https://api.example.com/v2/users/42')).toBe('/users/{id}');
  });

  test('between templated paths, the one with literals earlier wins', () => {
    expect(path('GET', 'http://h/v2/a/b/c')).toBe('/a/b/{y}');
  });

  test('the method must be declared', () => {
    expect(path('PUT', 'http://h/v2/users/me')).toBe('/users/{id}');
    expect(path('DELETE', 'http://h/v2/users/me')).toBeUndefined();
    expect(path('get', 'http://h/v2/users/me')).toBe('/users/me');
  });

  test('any host; each server prefix (variables at their default) is removed', () => {
    expect(path('GET', 'http://127.0.0.1:9000/v2/users/1')).toBe('/users/{id}');
    expect(path('GET', 'http://127.0.0.1:9000/api/users/1')).toBe('/users/{id}');
    expect(path('GET', 'http://127.0.0.1:9000/users/1')).toBe('/users/{id}');
    expect(path('GET', 'http://127.0.0.1:9000/v3/users/1')).toBeUndefined();
  });

  test('operation servers replace the document servers', () => {
    expect(path('GET', 'http://localhost/internal/admin/stats')).toBe('/admin/stats');
  });

  test('templates inside a segment, encoded segments, trailing slash, query', () => {
    expect(path('GET', 'http://h/v2/reports/7.json')).toBe('/reports/{id}.json');
    expect(path('GET', 'http://h/v2/reports/7.xml')).toBeUndefined();
    expect(path('GET', 'http://h/v2/files/a%20b')).toBe('/files/{name}');
    expect(path('GET', 'http://h/v2/caf%C3%A9')).toBe('/café');
    expect(path('GET', 'http://h/v2/users/me/?x=1#y')).toBe('/users/me');
  });

  test('a bare path works as the URL', () => {
    expect(path('GET', '/v2/users/9')).toBe('/users/{id}');
  });
});

describe('the linked operation', () => {
  test('is used while the request still calls it, even where a concrete path would win', () => {
    expect(path('GET', 'http://h/v2/users/me', { method: 'get', path: '/users/{id}' })).toBe('/users/{id}');
  });

  test('is dropped when the method changed', () => {
    expect(matchOperation(api, 'PUT', 'http://h/v2/users/me', { method: 'get', path: '/users/me' })).toMatchObject({ method: 'put', path: '/users/{id}' });
  });

  test('is dropped when the path no longer fits it', () => {
    expect(path('GET', 'http://h/v2/users/7', { method: 'get', path: '/users/me' })).toBe('/users/{id}');
  });

  test('is dropped when the definition no longer has it', () => {
    expect(path('GET', 'http://h/v2/users/me', { method: 'get', path: '/people/{id}' })).toBe('/users/me');
  });
});

test('OpenAPI 3.2: the query method and additionalOperations', () => {
  const list = ops({ openapi: '3.2.0', info: { title: 't', version: '1' }, paths: { '/search': { query: ok, additionalOperations: { COPY: ok } } } });
  expect(matchOperation(list, 'QUERY', 'http://h/search')?.method).toBe('query');
  expect(matchOperation(list, 'COPY', 'http://h/search')?.method).toBe('COPY');
});

test('Swagger 2.0: basePath is the prefix', () => {
  const list = ops({ swagger: '2.0', info: { title: 't', version: '1' }, basePath: '/api/', paths: { '/pets': { get: ok } } });
  expect(matchOperation(list, 'GET', 'http://other/api/pets')?.path).toBe('/pets');
});

test('a path item by $ref', () => {
  const list = ops({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/things': { $ref: '#/components/pathItems/Things' } },
    components: { pathItems: { Things: { get: ok } } },
  });
  expect(matchOperation(list, 'GET', 'http://h/things')?.path).toBe('/things');
});

test('server path prefixes', () => {
  expect(serverPathPrefix('https://api.example.com/v1/', undefined, 'parley:/api.yaml')).toBe('/v1');
  expect(serverPathPrefix('{scheme}://{host}/{v}', { v: { default: 'beta' } }, 'parley:/api.yaml')).toBe('/beta');
  expect(serverPathPrefix('/', undefined, 'parley:/api.yaml')).toBe('');
  expect(serverPathPrefix('v1', undefined, 'https://example.com/docs/openapi.json')).toBe('/docs/v1');
});

describe('response key', () => {
  const keys = ['200', '4XX', 'default'];
  test('exact, then range in any case, then default', () => {
    expect(selectResponseKey(keys, 200)).toBe('200');
    expect(selectResponseKey(keys, 404)).toBe('4XX');
    expect(selectResponseKey(['4xx'], 418)).toBe('4xx');
    expect(selectResponseKey(keys, 500)).toBe('default');
    expect(selectResponseKey(['200'], 201)).toBeUndefined();
  });
});

describe('media type', () => {
  test('parameters are ignored on both sides', () => {
    expect(selectMediaType(['application/json; charset=utf-8'], 'Application/JSON;charset=UTF-8')).toBe('application/json; charset=utf-8');
  });

  test('a +json type matches exactly first, then application/json', () => {
    expect(selectMediaType(['application/json', 'application/problem+json'], 'application/problem+json')).toBe('application/problem+json');
    expect(selectMediaType(['application/json'], 'application/vnd.api+json')).toBe('application/json');
  });

  test('then wildcard ranges', () => {
    expect(selectMediaType(['text/plain', 'application/*'], 'application/hal+json')).toBe('application/*');
    expect(selectMediaType(['*/*'], 'application/json')).toBe('*/*');
  });

  test('no Content-Type means application/json', () => {
    expect(selectMediaType(['application/xml', 'application/json'], undefined)).toBe('application/json');
  });

  test('nothing fits', () => {
    expect(selectMediaType(['application/xml'], 'application/json')).toBeUndefined();
  });

  test('which types are JSON', () => {
    expect(isJsonMediaType('application/json')).toBe(true);
    expect(isJsonMediaType('application/problem+json; charset=utf-8')).toBe(true);
    expect(isJsonMediaType('text/json')).toBe(true);
    expect(isJsonMediaType('application/x-ndjson')).toBe(false);
    expect(isJsonMediaType('text/html')).toBe(false);
    expect(isJsonMediaType('application/xml')).toBe(false);
  });
});
