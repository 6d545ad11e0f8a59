/**
 * Swagger 2.0 is read the same way for sends and mocks (issue 12): a mock of a real 2.0 definition
 * refuses a request, and judges a stub, with the very problems (pointer and message) the checker
 * engine finds in the same exchange when it reads the cached documents as a send's check does
 * (the one definition both are handed, the 2.0 document as written, never swagger2openapi's conversion).
 *
 * Fixtures: test/fixtures/checker/petstore-separate (five files with `$ref`s between them, a
 * basePath, a body parameter, a csv query array, an int64 path parameter; provenance in each file)
 * and test/fixtures/importers/openapi/learn-openapis/v2.0/json/uber.json (required number query
 * parameters; provenance in that folder's SOURCES.md). No corpus file has `formData` or a
 * `collectionFormat` other than csv: those rows use a small 2.0 document written here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Definition } from '../../../protocol/model/verdict.js';
import type { MockProblem } from '../../../protocol/model/mock.js';
import { isObject } from '../../../protocol/json-pointer.js';
import { PreparedDefinition, checkExchange, listOperations, matchOperation, validateValue, type Loc } from '../../checker/engine/index.js';
import { MockServer } from './mock-server.js';
import { loadSampledContract } from './contract.js';
import { contractChecker } from './contract-checker.js';
import { mockFindings } from './mock-findings.js';
import { newMockFromDocuments } from './new-mock.js';
import { cachedDefinition, json, mockOf, operation, send } from './test-support/mocks.js';
import { multipartBody, type Field } from './test-support/multipart.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');

/** An API folder's cached files as the supervisor reads them: one definition, handed to a mock and to the checker child alike. */
function api(folder: string, names: string[]): { mock: { openapi: Definition }; checker: Definition } {
  const checker = cachedDefinition(
    names.map((name) => {
      const text = readFileSync(join(folder, name), 'utf8');
      return [name, name.endsWith('.json') ? (JSON.parse(text) as unknown) : parseYaml(text)] as const;
    }),
  );
  return { mock: { openapi: checker }, checker };
}

const petstore = api(join(fixtures, 'checker/petstore-separate'), ['spec/swagger.yaml', 'spec/Pet.yaml', 'spec/NewPet.yaml', 'spec/parameters.yaml', 'common/Error.yaml']);
const uber = api(join(fixtures, 'importers/openapi/learn-openapis/v2.0/json'), ['uber.json']);

/** What 2.0 says that no corpus file does: a form (formData), pipes-separated arrays, x-nullable. */
const formsDocument = {
  swagger: '2.0',
  info: { title: 'forms', version: '1' },
  basePath: '/forms',
  paths: {
    '/pets/{petId}': {
      post: {
        consumes: ['application/x-www-form-urlencoded'],
        parameters: [
          { name: 'petId', in: 'path', required: true, type: 'integer' },
          { name: 'name', in: 'formData', required: true, type: 'string', minLength: 1 },
          { name: 'age', in: 'formData', type: 'integer', minimum: 0 },
          { name: 'photo', in: 'formData', type: 'file' },
          { name: 'tags', in: 'query', type: 'array', collectionFormat: 'pipes', items: { type: 'integer' } },
        ],
        responses: { 200: { description: 'ok', schema: { type: 'object', properties: { note: { type: 'string', 'x-nullable': true } } } } },
      },
    },
  },
};
const formsDefinition = cachedDefinition({ 'swagger.json': formsDocument });
const forms = { mock: { openapi: formsDefinition }, checker: formsDefinition };

/** A 2.0 upload: formData fields of a multipart body, a required `type: file` among them. */
const uploadDocument = {
  swagger: '2.0',
  info: { title: 'uploads', version: '1' },
  paths: {
    '/uploads': {
      post: {
        consumes: ['multipart/form-data'],
        parameters: [
          { name: 'name', in: 'formData', required: true, type: 'string', minLength: 1 },
          { name: 'age', in: 'formData', type: 'integer', minimum: 0 },
          { name: 'kind', in: 'formData', type: 'string', enum: ['cat', 'dog'] },
          { name: 'photo', in: 'formData', required: true, type: 'file' },
          { name: 'tags', in: 'formData', type: 'array', collectionFormat: 'multi', items: { type: 'integer' } },
          { name: 'sizes', in: 'formData', type: 'array', items: { type: 'integer' }, maxItems: 2 },
          { name: '__proto__', in: 'formData', type: 'integer' },
          { name: 'constructor', in: 'formData', required: true, type: 'boolean' },
        ],
        responses: { 200: { description: 'ok' } },
      },
    },
  },
};
const uploadDefinition = cachedDefinition({ 'swagger.json': uploadDocument });

const running: MockServer[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

/** New Mock of the API, refusing what breaks the contract, served as the mock host serves it. */
async function serve(documents: { openapi: Definition }): Promise<number> {
  let n = 0;
  const mock = { ...(await newMockFromDocuments(documents, { name: 'm', api: 'a', newId: () => `id${++n}` })), contractCheck: 'refuse' as const };
  const server = new MockServer({ mock, checker: contractChecker(await loadSampledContract(documents.openapi)) });
  running.push(server);
  return (await server.start()).port;
}

interface Refusal {
  status: number;
  operation?: string;
  problems: MockProblem[];
}

async function refusal(port: number, method: string, path: string, contentType?: string, body?: string | Buffer): Promise<Refusal> {
  const answer = await send(port, { method, path, ...(contentType ? { headers: { 'Content-Type': contentType } } : {}), ...(body === undefined ? {} : { body }) });
  if (answer.status !== 400) return { status: answer.status, problems: [] };
  const problem = answer.json() as { operation: string; problems: MockProblem[] };
  return { status: 400, operation: problem.operation, problems: problem.problems };
}

/** The operation a send's check selects for the URL, in the definition as the checker child reads it. */
function selected(def: PreparedDefinition, method: string, url: string) {
  const op = matchOperation(listOperations(def), method, url);
  if (!op) throw new Error(`the checker selects no operation for ${method} ${url}`);
  return op;
}

/** The checker engine on a request body: the 2.0 body parameter's schema, in the user's file. */
function checkerBodyProblems(def: PreparedDefinition, opLoc: Loc, body: unknown): MockProblem[] {
  const { parameters } = def.schemaValue(opLoc) as { parameters: unknown[] };
  const param = parameters
    .map((_, i) => def.follow({ docUri: opLoc.docUri, pointer: `${opLoc.pointer}/parameters/${i}` }))
    .find((p) => typeof p !== 'string' && isObject(p.value) && p.value.in === 'body');
  if (!param || typeof param === 'string') throw new Error('the operation has no body parameter');
  const { verdict } = validateValue(def, { docUri: param.loc.docUri, pointer: `${param.loc.pointer}/schema` }, body, 'request');
  return verdict.problems.map((p) => ({ in: 'body', pointer: p.pointer, message: p.message }));
}

describe('a Swagger 2.0 request: the mock refuses it with the problems the checker engine finds', () => {
  let port: number;
  let def: PreparedDefinition;
  beforeAll(async () => {
    port = await serve(petstore.mock);
    def = new PreparedDefinition(petstore.checker, 'petstore');
  });

  it.each([
    ['an empty pet (NewPet: allOf Pet, both require name; Pet requires id)', {}],
    ['a name that is a number', { id: 1, name: 5 }],
    ['a description of the wrong type (NewPet.yaml says integer)', { id: 1, name: 'Tom', description: 'calm' }],
    ['an id that is text', { id: 'seven', name: 'Tom' }],
  ])('POST /api/pets with %s', async (_, body) => {
    const got = await refusal(port, 'POST', '/api/pets', 'application/json', JSON.stringify(body));
    const op = selected(def, 'POST', `http://127.0.0.1:${port}/api/pets`);
    expect(got.status).toBe(400);
    expect(got.operation).toBe('addPet');
    expect(op.path).toBe('/pets');
    const expected = checkerBodyProblems(def, op.loc, body);
    expect(expected.length).toBeGreaterThan(0);
    expect(got.problems).toEqual(expected);
  });

  it('a pet that fits NewPet.yaml is answered', async () => {
    expect((await refusal(port, 'POST', '/api/pets', 'application/json', JSON.stringify({ id: 1, name: 'Tom', description: 3 }))).status).toBe(200);
  });

  it.each([
    ['a path id that is not an integer', 'GET', '/api/pets/abc', [{ in: 'path', pointer: 'id', message: 'id: expected integer, found string' }]],
    ['a limit that is not an integer (parameters.yaml#/limitsParam)', 'GET', '/api/pets?limit=ten', [{ in: 'query', pointer: 'limit', message: 'limit: expected integer, found string' }]],
    ['a body of a type the operation does not consume', 'POST', '/api/pets', [{ in: 'header', pointer: 'Content-Type', message: 'Content-Type text/plain is not declared for the request body (declared: application/json).' }], 'text/plain', 'x'],
    ['no body where one is required', 'POST', '/api/pets', [{ in: 'body', pointer: '', message: 'The operation requires a request body.' }]],
  ])('%s', async (_, method, path, problems, contentType?: string, body?: string) => {
    const got = await refusal(port, method, path, contentType, body);
    expect(got.problems).toEqual(problems);
  });

  it('routes below the basePath and at the bare path to the operation the checker selects', async () => {
    for (const path of ['/api/pets/12', '/pets/12']) {
      expect(selected(def, 'GET', `http://127.0.0.1:${port}${path}`).path).toBe('/pets/{id}');
      expect((await refusal(port, 'GET', path)).status).toBe(200);
    }
    expect((await refusal(port, 'GET', '/api/pets?tags=a,b&limit=3')).status).toBe(200);
  });
});

describe('required 2.0 query parameters (Uber API)', () => {
  it.each([
    ['both missing', '/v1/products', [
      { in: 'query', pointer: 'latitude', message: 'The query parameter latitude is required.' },
      { in: 'query', pointer: 'longitude', message: 'The query parameter longitude is required.' },
    ]],
    ['one not a number', '/v1/products?latitude=north&longitude=2.5', [{ in: 'query', pointer: 'latitude', message: 'latitude: expected number, found string' }]],
    ['both numbers', '/v1/products?latitude=48.8&longitude=2.35', []],
  ])('%s', async (_, path, problems) => {
    const port = await serve(uber.mock);
    expect((await refusal(port, 'GET', path)).problems).toEqual(problems);
  });
});

describe('2.0 forms and collection formats, read as 2.0', () => {
  let port: number;
  beforeAll(async () => {
    port = await serve(forms.mock);
  });
  const form = 'application/x-www-form-urlencoded';

  it.each([
    ['a required form field missing', '/forms/pets/1', 'age=3', [{ in: 'body', pointer: 'name', message: 'The formData parameter name is required.' }]],
    ['a form field of the wrong type', '/forms/pets/1', 'name=Tom&age=old', [{ in: 'body', pointer: 'age', message: 'age: expected integer, found string' }]],
    ['a form field below its minimum', '/forms/pets/1', 'name=Tom&age=-1', [{ in: 'body', pointer: 'age', message: 'age: expected at least 0' }]],
    ['an empty form: every required field named', '/forms/pets/1', '', [{ in: 'body', pointer: 'name', message: 'The formData parameter name is required.' }]],
    ['pipes-separated integers', '/forms/pets/1?tags=1|2|3', 'name=Tom', []],
    ['a pipes-separated item that is not an integer', '/forms/pets/1?tags=1|x', 'name=Tom', [{ in: 'query', pointer: 'tags', message: 'tags/1: expected integer, found string' }]],
    ['a fitting form', '/forms/pets/1', 'name=Tom&age=3', []],
  ])('%s', async (_, path, body, problems) => {
    expect((await refusal(port, 'POST', path, form, body)).problems).toEqual(problems);
  });
});

describe('2.0 formData over multipart/form-data: each field checked as a urlencoded one is', () => {
  let port: number;
  beforeAll(async () => {
    port = await serve({ openapi: uploadDefinition });
  });
  const photo: Field = ['photo', { file: '\x89PNG', type: 'image/png', filename: 'tom.png' }];
  const fitting: Field[] = [['name', 'Tom'], ['age', '3'], ['kind', 'cat'], photo, ['tags', '1'], ['tags', '2'], ['sizes', '1,2'], ['__proto__', '7'], ['constructor', 'true']];
  const without = (name: string, ...more: Field[]): Field[] => [...fitting.filter(([n]) => n !== name), ...more];
  const body = (pointer: string, message: string): MockProblem => ({ in: 'body', pointer, message });

  it.each<[string, Field[], MockProblem[]]>([
    ['a fitting upload', fitting, []],
    ['only the required fields', [['name', 'Tom'], photo, ['constructor', 'false']], []],
    ['a field of the wrong type', without('age', ['age', 'old']), [body('age', 'age: expected integer, found string')]],
    ['a field below its minimum', without('age', ['age', '-1']), [body('age', 'age: expected at least 0')]],
    ['a value outside the enum', without('kind', ['kind', 'horse']), [body('kind', 'kind: expected one of: "cat", "dog"')]],
    ['a required field missing', without('name'), [body('name', 'The formData parameter name is required.')]],
    ['the required file missing', without('photo'), [body('photo', 'The formData parameter photo is required.')]],
    ['a text part where the file is required', without('photo', ['photo', 'tom.png']), [body('photo', 'The formData parameter photo must be a file, but a text field was sent.')]],
    ['a file part where text is expected', without('name', ['name', { file: 'Tom' }]), [body('name', 'The formData parameter name must be a text field, but a file was sent.')]],
    ['a `multi` array: an item that is not an integer', without('tags', ['tags', '1'], ['tags', 'x']), [body('tags', 'tags/1: expected integer, found string')]],
    ['a csv array with too many items', without('sizes', ['sizes', '1,2,3']), [body('sizes', 'sizes: expected at most 2 items')]],
    ['a field named __proto__ of the wrong type', without('__proto__', ['__proto__', 'x']), [body('__proto__', '__proto__: expected integer, found string')]],
    ['a required field named constructor missing', without('constructor'), [body('constructor', 'The formData parameter constructor is required.')]],
    ['fields the operation does not declare, named like Object.prototype members', [...fitting, ['toString', 'x'], ['hasOwnProperty', { file: 'x' }]], []],
  ])('%s', async (_, fields, problems) => {
    const { contentType, body: bytes } = await multipartBody(fields);
    expect((await refusal(port, 'POST', '/uploads', contentType, bytes)).problems).toEqual(problems);
  });

  it.each<[string, (contentType: string, bytes: Buffer) => [string, Buffer], string]>([
    ['no boundary in the Content-Type', (_, bytes) => ['multipart/form-data', bytes], 'missing boundary in content-type header'],
    ['a body cut short', (contentType, bytes) => [contentType, bytes.subarray(0, bytes.length - 40)], 'expected boundary after body'],
  ])('a malformed multipart body (%s) is refused, naming what was wrong', async (_, spoil, wrong) => {
    const good = await multipartBody(fitting);
    const [contentType, bytes] = spoil(good.contentType, good.body);
    expect((await refusal(port, 'POST', '/uploads', contentType, bytes)).problems).toEqual([body('', `The multipart/form-data body could not be read: ${wrong}.`)]);
  });
});

describe('a Swagger 2.0 stub: the mock finds in it what a send\'s check finds in the same response', () => {
  it.each([
    ['GET', '/pets/{id}', '/api/pets/1', 200, { id: 'x' }],
    ['GET', '/pets', '/api/pets', 200, [{ id: 1, name: 'Tom' }, { id: 2 }]],
    ['GET', '/pets/{id}', '/api/pets/1', 500, { code: 'E1' }],
    ['DELETE', '/pets/{id}', '/api/pets/1', 404, {}],
  ])('%s %s answering %s with %s', async (method, path, url, status, body) => {
    const mock = mockOf([operation({ name: 'op', method, path, responses: [json('Stub', body, { status })] })]);
    const { findings } = await mockFindings(mock, petstore.mock);
    const verdict = checkExchange(new PreparedDefinition(petstore.checker, 'petstore'), {
      method,
      url: `http://127.0.0.1:4010${url}`,
      status,
      contentType: 'application/json',
      body: new TextEncoder().encode(JSON.stringify(body)),
    });
    expect(verdict.kind).toBe('problems');
    expect(findings.map((f) => ({ pointer: f.pointer, message: f.message }))).toEqual(verdict.problems.map((p) => ({ pointer: p.pointer, message: p.message })));
  });

  it('x-nullable is read as 2.0 says: null passes, a number does not, as in a send', async () => {
    for (const [note, kind] of [[null, 'pass'], [3, 'problems']] as const) {
      const mock = mockOf([operation({ name: 'op', method: 'POST', path: '/pets/{petId}', responses: [json('Stub', { note })] })]);
      const { findings } = await mockFindings(mock, forms.mock);
      const verdict = checkExchange(new PreparedDefinition(forms.checker, 'forms'), { method: 'POST', url: 'http://h/forms/pets/1', status: 200, contentType: 'application/json', body: new TextEncoder().encode(JSON.stringify({ note })) });
      expect(verdict.kind).toBe(kind);
      expect(findings.map((f) => f.message)).toEqual(verdict.problems.map((p) => p.message));
    }
  });
});
