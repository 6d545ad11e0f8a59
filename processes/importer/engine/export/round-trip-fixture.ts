/**
 * A scope covering every field the export formats hold, for the round-trip tests
 * (import(export(x)) gives x back, order included): each body kind, every auth, folder auth and
 * variables, headers and query rows switched off, a path parameter, assertions and captures,
 * secret references, and items whose order is not by name (a request before a folder, Z before A).
 * It is a fixpoint of what each format writes explicitly: a binary body's Content-Type and a
 * GraphQL request's Accept are headers of their own, GraphQL variables are pretty JSON.
 */
import type { ExportFolder, ExportItem, ExportScope } from '../../../../protocol/export/scope.js';
import type { Auth } from '../../../../protocol/model/auth.js';
import { defaultSettings, emptyBody, type Body, type Request } from '../../../../protocol/model/request.js';

let n = 0;
function request(name: string, method: string, url: string, fields: Partial<Request> = {}): ExportItem {
  return {
    kind: 'request',
    examples: [],
    request: { version: 1, id: `r_${++n}`, name, method, url, pathParams: [], query: [], headers: [], body: emptyBody(), auth: { type: 'inherit' }, settings: defaultSettings(), ...fields },
  };
}
function body(fields: Partial<Body>): Body {
  return { ...emptyBody(), ...fields };
}
function folder(name: string, items: ExportItem[], settings: Partial<ExportFolder['settings']> = {}): ExportFolder {
  return { kind: 'folder', name, items, settings: { auth: { type: 'inherit' }, headers: [], variables: [], ...settings } };
}

const apiAuth: Auth = { type: 'basic', username: '${user}', password: '${secret:api/a_1/password}' };

export function roundTripScope(): ExportScope {
  n = 0;
  return {
    of: 'api',
    projectName: 'Round trip',
    properties: [
      { name: 'baseUrl', value: 'http://127.0.0.1:8080', enabled: true },
      { name: 'limit', value: '10', enabled: true },
      { name: 'unused', value: 'off', enabled: false },
    ],
    api: { version: 1, id: 'a_1', name: 'Round trip API', baseUrl: '', auth: apiAuth },
    above: [],
    root: folder('Round trip API', [
      request('Zeta first', 'POST', '${baseUrl}/pets/{id}?limit=${limit}&q=a%20b', {
        pathParams: [{ name: 'id', value: '${petId}' }],
        query: [{ name: 'off', value: 'x', enabled: false }],
        headers: [
          { name: 'X-Trace', value: '${traceId}', enabled: true },
          { name: 'X-Off', value: 'no', enabled: false },
        ],
        body: body({ kind: 'raw', raw: { language: 'json', text: '{\n  "name": "${petName}"\n}' } }),
        description: 'Makes a pet.',
        assertions: [
          { enabled: true, source: 'status', path: '', op: 'equals', value: '201' },
          { enabled: true, source: 'body', path: '$.items[?(@.id > 2)]', op: 'exists', value: '' },
          { enabled: false, source: 'time', path: '', op: 'less', value: '500' },
        ],
        captures: [
          { enabled: true, name: 'petId', source: 'jsonpath', expression: '$.id', scope: 'session' },
          { enabled: true, name: 'where', source: 'header', expression: 'Location', scope: 'environment' },
          { enabled: true, name: 'title', source: 'xpath', expression: '/pet/title', scope: 'session' },
        ],
      }),
      folder(
        'Pets',
        [
          request('List', 'GET', '${baseUrl}/pets', { auth: { type: 'bearer', token: '${secret:request/r_2/token}' } }),
          folder('Admin', [request('Form', 'POST', '${baseUrl}/admin', { auth: { type: 'none' }, body: body({ kind: 'form', form: [{ name: 'a', value: '1', enabled: true }, { name: 'b', value: '${petName}', enabled: false }] }) })], { auth: { type: 'none' } }),
          request('Upload', 'POST', '${baseUrl}/upload', {
            body: body({ kind: 'multipart', multipart: [{ kind: 'text', name: 'title', value: 'Rex', enabled: true }, { kind: 'file', name: 'photo', file: 'files/pet.png', contentType: 'image/png', enabled: true }] }),
          }),
        ],
        { auth: { type: 'apikey', name: 'X-Api-Key', value: '${secret:folder/f1/value}', in: 'header' }, variables: [{ name: 'region', value: 'eu', enabled: true }] },
      ),
      folder('Empty', []),
      request('Binary', 'PUT', '${baseUrl}/blob', { headers: [{ name: 'Content-Type', value: 'image/png', enabled: true }], body: body({ kind: 'binary', binary: { file: 'files/pet.png', contentType: 'image/png' } }) }),
      request('Graph', 'POST', '${baseUrl}/graphql', {
        version: 4,
        headers: [{ name: 'Accept', value: 'application/graphql-response+json, application/json;q=0.9', enabled: true }],
        body: body({ kind: 'graphql', graphql: { query: 'query Pet($id: ID!) { pet(id: $id) { name } }', variables: '{\n  "id": "${petId}"\n}', operationName: 'Pet', schemaFile: '' } }),
      }),
      request('OAuth', 'GET', '${baseUrl}/me', {
        auth: { type: 'oauth2', grant: 'client_credentials', tokenUrl: '${baseUrl}/token', authorizationUrl: '', clientId: 'app', clientSecret: '${secret:request/r_7/clientSecret}', scope: 'read write', usePkce: false },
      }),
      request('Xml', 'POST', '${baseUrl}/xml', { body: body({ kind: 'raw', raw: { language: 'xml', text: '<pet/>' } }) }),
      request('Text', 'PUT', '${baseUrl}/text', { body: body({ kind: 'raw', raw: { language: 'text', text: 'plain ${petName}' } }) }),
      request('Api key in query', 'GET', '${baseUrl}/q', { auth: { type: 'apikey', name: 'key', value: '${secret:request/r_10/value}', in: 'query' } }),
    ]),
  };
}
