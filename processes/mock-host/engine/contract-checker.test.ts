/**
 * The mock's contract checker on the project's checker engine: parameters read as text and
 * coerced the way OpenAPI's default styles write them, request bodies, response bodies, and the
 * stub findings the checker process computes with it. Also a real mock served through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractRequest } from './index.js';
import type { MockProblem } from '../../../protocol/model/mock.js';
import { MockServer, indexContract, loadSampledContract, newMockFromContract, type SampledContract } from './index.js';
import { contractChecker } from './contract-checker.js';
import { mockFindings } from './mock-findings.js';
import { documentsOf, json, loadContractFixture, mockOf, operation, send } from './test-support/mocks.js';
import { multipartBody, type Field } from './test-support/multipart.js';

let contract: SampledContract;
beforeAll(async () => {
  contract = await loadContractFixture('pets.openapi.yaml', ['pets.schemas.yaml']);
});

function request(partial: Partial<ContractRequest>): ContractRequest {
  return { method: 'GET', path: '/', pathParams: {}, query: {}, headers: [], contentType: '', body: '', ...partial };
}

describe('request checks', () => {
  it('coerces query and path parameters before validating them', async () => {
    const checker = contractChecker(contract);
    const listPets = { method: 'GET', path: '/pets' };
    await expect(checker.checkRequest(listPets, request({ query: { limit: ['5'], kind: ['cat'] } }))).resolves.toEqual({ problems: [] });
    const bad = await checker.checkRequest(listPets, request({ query: { limit: ['500'], kind: ['horse'] } }));
    expect(bad.problems.map((p) => [p.in, p.pointer])).toEqual([
      ['query', 'kind'],
      ['query', 'limit'],
    ]);
    const notNumber = await checker.checkRequest(listPets, request({ query: { limit: ['lots'] } }));
    expect(notNumber.problems).toEqual([expect.objectContaining({ in: 'query', pointer: 'limit' })]);

    const getPet = { method: 'GET', path: '/pets/{petId}' };
    await expect(checker.checkRequest(getPet, request({ pathParams: { petId: '42' } }))).resolves.toEqual({ problems: [] });
    const word = await checker.checkRequest(getPet, request({ pathParams: { petId: 'tom' } }));
    expect(word.problems).toEqual([expect.objectContaining({ in: 'path', pointer: 'petId' })]);
  });

  it('checks a JSON request body without quoting its values, and a missing required body', async () => {
    const checker = contractChecker(contract);
    const createPet = { method: 'POST', path: '/pets' };
    const json = { contentType: 'application/json', method: 'POST' };
    await expect(checker.checkRequest(createPet, request({ ...json, body: '{"name":"Tom","kind":"cat"}' }))).resolves.toEqual({ problems: [] });
    const bad = await checker.checkRequest(createPet, request({ ...json, body: '{"name":"","kind":"horse"}' }));
    expect(bad.problems.map((p) => [p.in, p.pointer]).sort()).toEqual([
      ['body', '/kind'],
      ['body', '/name'],
    ]);
    expect(JSON.stringify(bad)).not.toContain('horse');
    const missing = await checker.checkRequest(createPet, request({ method: 'POST' }));
    expect(missing.problems).toEqual([{ in: 'body', pointer: '', message: 'The operation requires a request body.' }]);
    const notJson = await checker.checkRequest(createPet, request({ ...json, body: '{"name":' }));
    expect(notJson.problems[0]).toMatchObject({ in: 'body', pointer: '' });
    const wrongType = await checker.checkRequest(createPet, request({ method: 'POST', contentType: 'text/csv', body: 'a,b' }));
    expect(wrongType.problems).toEqual([expect.objectContaining({ in: 'header', pointer: 'Content-Type' })]);
  });

  it('answers on the spot as it does through the promise, reads the bytes as received strictly as UTF-8, and remembers each Content-Type', () => {
    const checker = contractChecker(contract);
    const createPet = { method: 'POST', path: '/pets' };
    const good = '{"name":"Tom","kind":"cat"}';
    const json = (contentType: string, body: string, bytes?: Uint8Array) => request({ method: 'POST', contentType, body, ...(bytes ? { bodyBytes: bytes } : {}) });
    expect(checker.checkRequestNow!(createPet, json('application/json', good, Buffer.from(good)))).toEqual({ problems: [] });
    const bad = '{"name":"","kind":"cat"}';
    expect(checker.checkRequestNow!(createPet, json('application/json; charset=utf-8', bad, Buffer.from(bad))).problems).toEqual([expect.objectContaining({ in: 'body', pointer: '/name' })]);
    // The same Content-Type again (now remembered) selects the same way; another one is still refused.
    expect(checker.checkRequestNow!(createPet, json('application/json; charset=utf-8', good, Buffer.from(good)))).toEqual({ problems: [] });
    expect(checker.checkRequestNow!(createPet, json('text/csv', 'a,b')).problems).toEqual([expect.objectContaining({ in: 'header', pointer: 'Content-Type' })]);
    const notUtf8 = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","kind":"cat"}')]);
    expect(checker.checkRequestNow!(createPet, json('application/json', notUtf8.toString('utf8'), notUtf8)).problems).toEqual([
      { in: 'body', pointer: '', message: 'expected valid JSON; the body is not UTF-8 text' },
    ]);
  });

  it('stops at its deadline and says it gave up, keeping what it found', async () => {
    let t = 0;
    // A clock that jumps past the deadline every time it is read.
    const checker = contractChecker(contract, { deadlineMs: 5, now: () => (t += 10) });
    const pets = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: i === 0 ? '' : 'Tom', kind: 'cat' }));
    const outcome = await checker.checkResponseBody({ method: 'GET', path: '/pets' }, { status: 200, contentType: 'application/json', body: JSON.stringify(pets) });
    expect(outcome.gaveUp).toMatch(/longer than/);
  });
});

describe('patterns', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'p', version: '1' },
    paths: {
      '/w': {
        post: {
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { w: { type: 'string', pattern: '^(?!b)(a+)+$' } } } } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string', pattern: '^(?!b)a+$' } } } } },
        },
      },
    },
  };
  const op = { method: 'POST', path: '/w' };

  it('runs a lookahead pattern only where asked (the check worker); elsewhere the check gives up naming it', async () => {
    const inWorker = contractChecker(indexContract(document), { backtracking: true });
    expect(inWorker.checkRequestNow(op, request({ ...op, contentType: 'application/json', body: '{"w":"baa"}' })).problems).toEqual([
      { in: 'body', pointer: '/w', message: 'expected to match the pattern ^(?!b)(a+)+$' },
    ]);
    await expect(inWorker.checkResponseBody(op, { status: 200, contentType: 'application/json', body: '"aaa"' })).resolves.toEqual({ problems: [] });

    // On the listener's thread such a pattern is not run: the check is handed to a worker.
    expect(contractChecker(indexContract(document)).checkRequestInline(op, request({ ...op, contentType: 'application/json', body: '{"w":"baa"}' }))).toBeUndefined();

    // Stubs are checked where nothing could stop a runaway test: never a pass, and the finding says why.
    const stubs = contractChecker(indexContract(document));
    await expect(stubs.checkResponseBody(op, { status: 200, contentType: 'application/json', body: '"aaa"' })).resolves.toEqual({
      problems: [],
      gaveUp:
        'the schema could not be fully evaluated: the pattern "^(?!b)a+$" at #/paths/~1w/post/responses/200/content/application~1json/schema was not evaluated: it uses a lookahead, which needs a backtracking engine, run only where a check can be stopped',
    });
  });
});

describe('on the listener thread (inline)', () => {
  const listPets = { method: 'GET', path: '/pets' };
  const createPet = { method: 'POST', path: '/pets' };

  it('answers a quick bounded check on the spot, as the full check would', () => {
    const checker = contractChecker(contract);
    const bad = request({ query: { limit: ['500'], kind: ['horse'] } });
    expect(checker.checkRequestInline(listPets, bad)).toEqual(checker.checkRequestNow(listPets, bad));
    expect(checker.checkRequestInline(listPets, request({ query: { limit: ['5'] } }))).toEqual({ problems: [] });
  });

  it('hands to a worker a body over 64 KiB, a format on a long string, and a check past its leash', () => {
    const body = JSON.stringify({ name: 'x'.repeat(70 * 1024), kind: 'cat' });
    expect(contractChecker(contract).checkRequestInline(createPet, request({ ...createPet, contentType: 'application/json', body }))).toBeUndefined();

    const document = {
      openapi: '3.1.0',
      info: { title: 'f', version: '1' },
      paths: { '/f': { post: { requestBody: { content: { 'application/json': { schema: { type: 'array', items: { type: 'string', format: 'email' } } } } }, responses: { '204': { description: 'ok' } } } } },
    };
    const op = { method: 'POST', path: '/f' };
    const emails = (list: string[]) => request({ ...op, contentType: 'application/json', body: JSON.stringify(list) });
    expect(contractChecker(indexContract(document)).checkRequestInline(op, emails(['a@example.org']))).toEqual({ problems: [] });
    expect(contractChecker(indexContract(document)).checkRequestInline(op, emails([`${'a'.repeat(600)}@example.org`]))).toBeUndefined();

    // A clock that has always run past the leash when it is looked at.
    let t = 0;
    const slow = contractChecker(indexContract(document), { now: () => (t += 50) });
    expect(slow.checkRequestInline(op, emails(Array.from({ length: 600 }, () => 'a@example.org')))).toBeUndefined();
  });
});

describe('OpenAPI 3.x form bodies: checked against their schema as the object of their fields', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'forms', version: '1' },
    paths: {
      '/profiles': {
        post: {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  allOf: [{ $ref: '#/components/schemas/Named' }],
                  type: 'object',
                  required: ['avatar'],
                  additionalProperties: false,
                  properties: {
                    name: {},
                    age: { type: 'integer', minimum: 0 },
                    kind: { type: 'string', enum: ['cat', 'dog'] },
                    subscribed: { type: 'boolean' },
                    tags: { type: 'array', items: { type: 'integer' } },
                    avatar: { type: 'string', format: 'binary' },
                    photos: { type: 'array', items: { type: 'string', format: 'binary' } },
                    meta: { type: 'object', required: ['color'], properties: { color: { type: 'string' } } },
                    // A computed key: an own property named __proto__, as a parsed document has.
                    ['__proto__']: { type: 'integer' },
                  },
                },
              },
              'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/Search' }, encoding: { ids: { style: 'form', explode: false }, words: { style: 'pipeDelimited', explode: false } } },
            },
          },
          responses: { '204': { description: 'ok' } },
        },
      },
    },
    components: {
      schemas: {
        Named: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
        Search: {
          type: 'object',
          required: ['q'],
          properties: { q: { type: 'string' }, limit: { type: 'integer', maximum: 50 }, ids: { type: 'array', items: { type: 'integer' } }, words: { type: 'array', maxItems: 2 }, tags: { type: 'array', items: { type: 'integer' } } },
        },
      },
    },
  };
  const op = { method: 'POST', path: '/profiles' };
  const checker = contractChecker(indexContract(document));
  const avatar: Field = ['avatar', { file: '\x89PNG', type: 'image/png', filename: 'tom.png' }];
  const fitting: Field[] = [['name', 'Tom'], ['age', '3'], ['kind', 'cat'], ['subscribed', 'true'], ['tags', '1'], ['tags', '2'], avatar, ['photos', { file: 'a' }], ['photos', { file: 'b' }], ['meta', '{"color":"red"}'], ['__proto__', '7']];
  const without = (name: string, ...more: Field[]): Field[] => [...fitting.filter(([n]) => n !== name), ...more];
  const body = (pointer: string, message: string): MockProblem => ({ in: 'body', pointer, message });
  const multipart = async (fields: Field[]) => {
    const { contentType, body: bytes } = await multipartBody(fields);
    return request({ ...op, contentType, body: bytes.toString('utf8'), bodyBytes: bytes });
  };

  it.each<[string, Field[], MockProblem[]]>([
    ['a fitting multipart body', fitting, []],
    ['only the required fields', [['name', 'Tom'], avatar], []],
    ['a JSON part sent as a file (a Blob in FormData): present, its content not read', without('meta', ['meta', { file: '{"color":1}', type: 'application/json' }]), []],
    ['a field of the wrong type', without('age', ['age', 'old']), [body('age', 'age: expected integer, found string')]],
    ['a boolean that is not true or false', without('subscribed', ['subscribed', 'yes']), [body('subscribed', 'subscribed: expected boolean, found string')]],
    ['a value outside the enum', without('kind', ['kind', 'horse']), [body('kind', 'kind: expected one of: "cat", "dog"')]],
    ['a required field missing (required by an allOf member)', without('name'), [body('name', 'The form field name is required.')]],
    ['a field under its allOf member\'s minLength', without('name', ['name', '']), [body('name', 'name: expected at least 1 characters')]],
    ['the required binary field missing', without('avatar'), [body('avatar', 'The form field avatar is required.')]],
    ['a text part where a binary field is expected', without('avatar', ['avatar', 'tom.png']), [body('avatar', 'The form field avatar must be a file, but a text field was sent.')]],
    ['a text part among an array of binaries', [...fitting, ['photos', 'c']], [body('photos', 'The form field photos must be a file, but a text field was sent.')]],
    ['a repeated array field with an item that is not an integer', without('tags', ['tags', '1'], ['tags', 'x']), [body('tags', 'tags/1: expected integer, found string')]],
    ['a scalar field repeated', [...fitting, ['age', '4']], [body('age', 'age: expected integer, found array')]],
    ['a JSON object part that breaks its schema', without('meta', ['meta', '{"color":1}']), [body('meta', 'meta/color: expected string, found number')]],
    ['an object part that is not JSON', without('meta', ['meta', 'red']), [body('meta', 'meta: expected object, found string')]],
    ['a field named __proto__ of the wrong type', without('__proto__', ['__proto__', 'x']), [body('__proto__', '__proto__: expected integer, found string')]],
  ])('%s', async (_, fields, problems) => {
    expect(checker.checkRequestNow(op, await multipart(fields)).problems).toEqual(problems);
  });

  it('names a field the schema does not allow, even one named constructor', async () => {
    expect(checker.checkRequestNow(op, await multipart([...fitting, ['constructor', 'x']])).problems).toEqual([body('constructor', 'constructor: property not allowed by the schema')]);
  });

  it.each<[string, (contentType: string, bytes: Buffer) => [string, Buffer], string]>([
    ['no boundary in the Content-Type', (_, bytes) => ['multipart/form-data', bytes], 'missing boundary in content-type header'],
    ['a body cut short', (contentType, bytes) => [contentType, bytes.subarray(0, bytes.length - 40)], 'expected boundary after body'],
    ['a body that is not multipart at all', (contentType) => [contentType, Buffer.from('{"name":"Tom"}')], 'no boundary found in multipart body'],
  ])('a malformed multipart body (%s) is one problem naming what was wrong', async (_, spoil, wrong) => {
    const good = await multipartBody(fitting);
    const [contentType, bytes] = spoil(good.contentType, good.body);
    const outcome = checker.checkRequestNow(op, request({ ...op, contentType, body: bytes.toString('utf8'), bodyBytes: bytes }));
    expect(outcome).toEqual({ problems: [body('', `The multipart/form-data body could not be read: ${wrong}.`)] });
  });

  it.each<[string, string, MockProblem[]]>([
    ['a fitting urlencoded body, an unexploded array split by its style', 'q=cats&limit=10&ids=1,2,3&words=a|b&tags=1&tags=2', []],
    ['a field over its maximum', 'q=cats&limit=99', [body('limit', 'limit: expected at most 50')]],
    ['an item of an unexploded array that is not an integer', 'q=cats&ids=1,x', [body('ids', 'ids/1: expected integer, found string')]],
    ['a pipe-delimited array with too many items', 'q=cats&words=a|b|c', [body('words', 'words: expected at most 2 items')]],
    ['a required field missing', 'limit=1', [body('q', 'The form field q is required.')]],
  ])('%s', (_, text, problems) => {
    const outcome = checker.checkRequestNow(op, request({ ...op, contentType: 'application/x-www-form-urlencoded', body: text }));
    expect(outcome.problems).toEqual(problems);
  });

  it('stops reading fields at its deadline: a worker\'s check gives up, the listener hands it to a worker', async () => {
    const many = await multipart([...fitting, ...Array.from({ length: 100 }, (_, i): Field => [`extra${i}`, 'x'])]);
    let t = 0;
    // A clock that has run past any deadline each time it is read.
    const late = contractChecker(indexContract(document), { now: () => (t += 10_000) });
    expect(late.checkRequestNow(op, many)).toEqual({ problems: [], gaveUp: 'the check took longer than 1000 ms' });
    expect(late.checkRequestInline(op, many)).toBeUndefined();
  });

  it('reads a multipart body over 16 KiB in a worker, not on the listener', async () => {
    expect(checker.checkRequestInline(op, await multipart(fitting))).toEqual({ problems: [] });
    const big = await multipart(without('avatar', ['avatar', { file: 'x'.repeat(17 * 1024) }]));
    expect(checker.checkRequestInline(op, big)).toBeUndefined();
    expect(checker.checkRequestNow(op, big)).toEqual({ problems: [] });
  });
});

describe('response bodies and stub findings', () => {
  it('checks a response body against the schema of its status and media type', async () => {
    const checker = contractChecker(contract);
    const getPet = { method: 'GET', path: '/pets/{petId}' };
    await expect(checker.checkResponseBody(getPet, { status: 200, contentType: 'application/json', body: '{"id":1,"name":"Tom","kind":"cat"}' })).resolves.toEqual({ problems: [] });
    const bad = await checker.checkResponseBody(getPet, { status: 200, contentType: 'application/json', body: '{"name":"Tom","kind":"cat"}' });
    expect(bad.problems).toEqual([expect.objectContaining({ in: 'body', pointer: '' })]);
    // No schema for a status the operation does not document: nothing to say about the body.
    await expect(checker.checkResponseBody(getPet, { status: 418, contentType: 'application/json', body: '{}' })).resolves.toEqual({ problems: [] });
  });

  it('finds stubs the contract does not allow, and warns of operations it no longer has', async () => {
    const documents = await documentsOf('pets.openapi.yaml', ['pets.schemas.yaml']);
    let n = 0;
    const mock = newMockFromContract(await loadSampledContract(documents.openapi), { name: 'pets', api: 'a1', newId: () => `id${++n}` });
    expect((await mockFindings(mock, documents)).findings).toEqual([]);

    const getPet = mock.operations.find((op) => op.operationId === 'getPet')!;
    getPet.responses.push(json('Missing id', { name: 'Tom', kind: 'cat' }));
    mock.operations.find((op) => op.operationId === 'listPets')!.responses.push(json('Teapot', [], { status: 418 }));
    mock.operations.push(operation({ name: 'gone', method: 'GET', path: '/gone', responses: [json('Default', {})] }));
    const { findings, warnings } = await mockFindings(mock, documents);
    expect(findings.map((f) => [f.operation, f.response ?? '', f.rule])).toEqual([
      ['listPets', 'Teapot', 'undocumented-status'],
      ['getPet', 'Missing id', 'body-schema'],
      ['gone', '', 'operation-not-in-contract'],
    ]);
    expect(warnings).toEqual(['The contract no longer has GET /gone: the responses of gone are not checked.']);
  });
});

describe('a mock served with this checker', () => {
  const servers: MockServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('refuses a request that breaks the contract with 400 and the problems', async () => {
    const mock = mockOf(
      [operation({ name: 'createPet', method: 'POST', path: '/pets', responses: [json('Default', { id: 1, name: 'Tom', kind: 'cat' }, { status: 201 })] })],
      { contractCheck: 'refuse' },
    );
    const server = new MockServer({ mock, checker: contractChecker(contract) });
    servers.push(server);
    const { port } = await server.start();
    const refused = await send(port, { method: 'POST', path: '/pets', headers: { 'Content-Type': 'application/json' }, body: '{"kind":"cow"}' });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'mock-contract-refused', operation: 'createPet' });
    const ok = await send(port, { method: 'POST', path: '/pets', headers: { 'Content-Type': 'application/json' }, body: '{"name":"Rex","kind":"dog"}' });
    expect(ok.status).toBe(201);
  });
});
