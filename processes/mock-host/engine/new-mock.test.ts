import { afterEach, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { Mock } from '../../../protocol/model/mock.js';
import { folderEntry, parseMockFolder, serializeMockFolder } from '../../../protocol/project/mock-files.js';
import { bundleOpenApi } from './definition-bundle.js';
import { indexContract } from './contract.js';
import { newMockFromContract, operationName, pickDefaultStatus } from './new-mock.js';
import { findStubProblems } from './stub-findings.js';
import { MockServer } from './mock-server.js';
import { contractChecker } from './contract-checker.js';
import { cachedDefinition, documentsOf, loadContractFixture, send } from './test-support/mocks.js';

function counter() {
  let n = 0;
  return () => `id${++n}`;
}

const running: MockServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

describe('New Mock from the Redocly museum document', () => {
  it('makes one operation per contract operation, each with a Default from the lowest 2xx example', async () => {
    const contract = await loadContractFixture('redocly-museum.openapi.yaml');
    const mock = newMockFromContract(contract, { name: 'Museum', api: 'api-museum', newId: counter() });
    expect(Value.Check(Mock, mock)).toBe(true);
    expect(mock.operations.map((o) => `${o.name} ${o.method} ${o.path}`)).toEqual([
      'getMuseumHours GET /museum-hours',
      'createSpecialEvent POST /special-events',
      'listSpecialEvents GET /special-events',
      'getSpecialEvent GET /special-events/{eventId}',
      'updateSpecialEvent PATCH /special-events/{eventId}',
      'deleteSpecialEvent DELETE /special-events/{eventId}',
      'buyMuseumTickets POST /tickets',
      'getTicketCode GET /tickets/{ticketId}/qr',
    ]);
    for (const op of mock.operations) expect(op.responses.map((r) => r.name)).toEqual(['Default']);

    const byName = Object.fromEntries(mock.operations.map((o) => [o.name, o.responses[0]!]));
    expect(byName.createSpecialEvent).toMatchObject({ status: 201, headers: [{ name: 'Content-Type', value: 'application/json' }], body: { kind: 'json' } });
    // The named example (#/components/examples/CreateSpecialEventResponseExample), not a generated sample.
    expect(JSON.parse(byName.createSpecialEvent!.body.text)).toMatchObject({ eventId: 'dad4bce8-f5cb-4078-a211-995864315e39', name: 'Mermaid Treasure Identification and Analysis' });
    expect(byName.deleteSpecialEvent).toMatchObject({ status: 204, headers: [], body: { kind: 'none', text: '' } });
    // image/png with `type: string, format: binary`: a real 1x1 PNG, not the schema's sample text `string`.
    expect(byName.getTicketCode).toMatchObject({ status: 200, headers: [{ name: 'Content-Type', value: 'image/png' }], body: { kind: 'binary' } });
    const png = Buffer.from(byName.getTicketCode!.body.text, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');

    // Every generated stub is allowed by the contract it came from.
    expect(await findStubProblems(mock, contract, contractChecker(contract))).toEqual([]);
  });

  it('is deterministic and saves as a version 3 mock folder (a binary body) that loads back', async () => {
    const contract = await loadContractFixture('redocly-museum.openapi.yaml');
    const a = newMockFromContract(contract, { name: 'Museum', api: 'api-museum', newId: counter() });
    const b = newMockFromContract(contract, { name: 'Museum', api: 'api-museum', newId: counter() });
    expect(a).toEqual(b);
    const changes = serializeMockFolder(a, new Map());
    // The PNG is written as its bytes, held as base64 as readMockFolder reads it.
    const png = changes.find((c) => c.path === 'operations/getTicketCode/Default.body.bin')!.content;
    expect(png).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(png as Uint8Array).subarray(1, 4).toString('latin1')).toBe('PNG');
    const files = new Map(changes.map((c) => [c.path, folderEntry(c.path, c.content!)]));
    expect(files.get('mock.yaml')).toMatch(/^version: 3$/m);
    expect(files.get('operations/getTicketCode/Default.response.yaml')).toMatch(/^body: binary$/m);
    const loaded = parseMockFolder('Museum', files);
    expect(loaded.problems).toEqual([]);
    // On disk operations have no order of their own: they load sorted by folder name.
    expect(loaded.mock).toEqual({ ...a, operations: [...a.operations].sort((x, y) => x.name.localeCompare(y.name)) });
  });
});

describe('New Mock from a document split across files', () => {
  it('follows $refs into the other document and samples a schema without an example', async () => {
    const contract = await loadContractFixture('pets.openapi.yaml', ['pets.schemas.yaml']);
    const mock = newMockFromContract(contract, { name: 'Pets', api: 'api-pets', newId: counter() });
    const byName = Object.fromEntries(mock.operations.map((o) => [o.name, o]));
    expect(Object.keys(byName)).toEqual(['listPets', 'createPet', 'myPets', 'getPet', 'deletePet', 'get-pets-petId-photo-format', 'getOrder']);
    expect(JSON.parse(byName.listPets!.responses[0]!.body.text)).toEqual([{ id: 1, name: 'Tom', kind: 'cat' }]);
    // createPet has no example: a sample of the allOf schema from pets.schemas.yaml.
    const sampled = JSON.parse(byName.createPet!.responses[0]!.body.text) as Record<string, unknown>;
    expect(Object.keys(sampled).sort()).toEqual(['id', 'kind', 'name']);
    expect(byName.myPets!.responses[0]).toMatchObject({ headers: [{ name: 'Content-Type', value: 'text/plain' }], body: { kind: 'text', text: 'all mine' } });
    expect(byName.getOrder!.responses[0]!.body).toEqual({
      kind: 'xml',
      text: '<?xml version="1.0" encoding="UTF-8"?>\n<order>\n  <id>o-1</id>\n  <total>9.5</total>\n</order>\n',
    });
    // image/* with `format: binary`: a PNG, served as its bytes.
    const photo = byName['get-pets-petId-photo-format']!.responses[0]!;
    expect(photo.headers).toEqual([{ name: 'Content-Type', value: 'image/png' }]);
    expect(photo.body.kind).toBe('binary');
    expect(await findStubProblems(mock, contract, contractChecker(contract))).toEqual([]);

    // And the new mock serves its stubs.
    const server = new MockServer({ mock, checker: contractChecker(contract) });
    running.push(server);
    const { port } = await server.start();
    const answer = await send(port, { path: '/pets?kind=cat' });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual([{ id: 1, name: 'Tom', kind: 'cat' }]);
    const image = await send(port, { path: '/pets/1/photo.png' });
    expect([image.status, image.headers['content-type']]).toEqual([200, 'image/png']);
    expect(image.bytes).toEqual(Buffer.from(photo.body.text, 'base64'));
    expect(image.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('reads a Swagger 2.0 document too', async () => {
    const doc = {
      swagger: '2.0',
      info: { title: 'Old', version: '1' },
      paths: { '/things': { get: { operationId: 'things', produces: ['application/json'], responses: { 200: { description: 'ok', schema: { type: 'array', items: { type: 'string' } } } } } } },
    };
    const contract = indexContract(await bundleOpenApi(cachedDefinition({ 'swagger.json': doc })));
    const mock = newMockFromContract(contract, { name: 'Old', api: 'a', newId: counter() });
    expect(mock.operations[0]!.responses[0]).toMatchObject({ status: 200, body: { kind: 'json', text: '[\n  "string"\n]\n' } });
  });

  it('takes one document whose $refs stay inside it as it is, as a copy', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Self-contained', version: '1' },
      paths: { '/things': { get: { responses: { 200: { $ref: '#/components/responses/Things' } } } } },
      components: {
        responses: { Things: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
        schemas: { Thing: { type: 'object', properties: { $ref: { type: 'string' }, next: { $ref: '#/components/schemas/Thing' } } } },
      },
    };
    const bundled = await bundleOpenApi(cachedDefinition({ 'api.json': doc }));
    expect(bundled).toEqual(doc);
    expect(bundled).not.toBe(doc);
    (bundled.info as { title: string }).title = 'changed';
    expect(doc.info.title).toBe('Self-contained');
    // A recursive YAML alias makes a cycle: still one pass over it.
    const cyclic = structuredClone(doc) as typeof doc & { 'x-loop'?: unknown[] };
    cyclic['x-loop'] = [cyclic];
    await expect(bundleOpenApi(cachedDefinition({ 'api.json': cyclic }))).resolves.toMatchObject({ openapi: '3.0.3' });
  });

  it('refuses a document set without the entry or with a $ref to a document it does not hold', async () => {
    await expect(bundleOpenApi([])).rejects.toMatchObject({ code: 'contract-unavailable' });
    const docs = await documentsOf('pets.openapi.yaml');
    await expect(bundleOpenApi(docs.openapi)).rejects.toMatchObject({ code: 'contract-unavailable' });
  });
});

describe('names and statuses', () => {
  it('derives portable, unique operation names', () => {
    expect(operationName({ method: 'GET', path: '/a/{id}/b.{ext}' })).toBe('get-a-id-b-ext');
    expect(operationName({ method: 'GET', path: '/x', operationId: 'pets/../list all' })).toBe('pets-list-all');
    expect(operationName({ method: 'GET', path: '/', operationId: '..' })).toBe('get');
    expect(operationName({ method: 'GET', path: '/', operationId: 'aux' })).toBe('aux_');
    expect(operationName({ method: 'GET', path: '/', operationId: 'Com1' })).toBe('Com1_');
  });

  it('picks the lowest documented 2xx, then 2XX, then default', () => {
    expect(pickDefaultStatus(['404', '201', '200'])).toEqual({ key: '200', status: 200 });
    expect(pickDefaultStatus(['404', '2XX'])).toEqual({ key: '2XX', status: 200 });
    expect(pickDefaultStatus(['default', '404'])).toEqual({ key: 'default', status: 200 });
    expect(pickDefaultStatus(['404', '400'])).toEqual({ key: '400', status: 400 });
    expect(pickDefaultStatus([])).toBeUndefined();
  });
});
