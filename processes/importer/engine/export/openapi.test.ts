/**
 * The OpenAPI 3.1 export of an API without a definition (docs/export.md): valid under
 * @apidevtools/swagger-parser; paths and path parameters from the requests' URLs, operations per
 * method, schemas inferred from the saved examples and JSON request bodies, security schemes
 * from the auth; an API with a definition is refused.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import type { ExportRequest } from '../../../../protocol/export/scope.js';
import { exportOpenApi, pathOf } from './openapi.js';
import { roundTripScope } from './round-trip-fixture.js';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function scopeWithExamples() {
  const scope = roundTripScope();
  const first = scope.root.items[0] as ExportRequest;
  first.examples = [
    { status: 201, statusText: 'Created', name: 'Created', recordedAt: '2025-01-02T03:04:05.000Z', headers: [['Content-Type', 'application/json; charset=utf-8']], body: json({ id: 7, name: 'Rex', tags: ['a'], owner: { id: 1.5, active: true, note: null } }), size: 80, truncated: false, masked: false },
    { status: 404, statusText: 'Not Found', name: 'Missing', recordedAt: '2025-01-02T03:04:05.000Z', headers: [['content-type', 'text/plain']], body: json('gone'), size: 6, truncated: false, masked: false },
  ];
  return scope;
}

describe('OpenAPI 3.1 export', () => {
  it('is a valid OpenAPI 3.1 document with paths, parameters, inferred schemas and security', async () => {
    const { text, requests } = exportOpenApi(scopeWithExamples());
    const doc = JSON.parse(text) as { openapi: string; paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema: unknown }> }>; security?: unknown[] }>>; components: { securitySchemes: Record<string, unknown> } };
    await expect(SwaggerParser.validate(JSON.parse(text) as never)).resolves.toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
    expect(requests).toBe(10);
    expect(Object.keys(doc.paths)).toEqual(['/pets/{id}', '/pets', '/admin', '/upload', '/blob', '/graphql', '/me', '/xml', '/text', '/q']);
    const post = doc.paths['/pets/{id}']!.post!;
    expect(post.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'limit', in: 'query', schema: { type: 'string' } },
      { name: 'q', in: 'query', schema: { type: 'string' } },
      { name: 'off', in: 'query', schema: { type: 'string' } },
      { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
      { name: 'X-Off', in: 'header', schema: { type: 'string' } },
    ]);
    expect(post.requestBody!.content['application/json']!.schema).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    expect(post.responses['201']!.content!['application/json']!.schema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, owner: { type: 'object', properties: { id: { type: 'number' }, active: { type: 'boolean' }, note: { type: 'null' } }, required: ['id', 'active', 'note'] } },
      required: ['id', 'name', 'tags', 'owner'],
    });
    expect(post.responses['404']!.content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
    // The API's Basic auth, a folder's API key, a request's Bearer, OAuth 2 and an API key in the query.
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey_header_X-Api-Key', 'apiKey_query_key', 'basicAuth', 'bearerAuth', 'oauth2_client_credentials']);
    expect(post.security).toEqual([{ basicAuth: [] }]);
  });

  it('refuses an API that has a definition: its own document is the one to share', () => {
    const scope = roundTripScope();
    scope.api.definition = { format: 'openapi-3.1', cached: ['definition/openapi.json'], fingerprint: 'x' };
    expect(() => exportOpenApi(scope)).toThrow(/was imported from a definition/);
  });

  it.each([
    ['${baseUrl}/pets/{id}', '/pets/{id}'],
    ['https://api.example.com/v1/orders/:orderId/items?x=1', '/v1/orders/{orderId}/items'],
    ['/users/${userId}/posts', '/users/{userId}/posts'],
    ['pets', '/pets'],
  ])('the path of %s is %s', (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});
