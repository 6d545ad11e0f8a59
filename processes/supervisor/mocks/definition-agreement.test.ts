/**
 * One definition, read once (issue 12): the supervisor hands a mock exactly the DefinitionDocument[]
 * it hands the checker, and the two read a cached definition of two files with relative `$ref`s
 * both ways (into a subfolder and back up) the same way: a stub, a refused request and New Mock's
 * own answers are judged with the problems a send's contract check finds.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../../protocol/model/api.js';
import type { MockProblem } from '../../../protocol/model/mock.js';
import type { Definition } from '../../../protocol/model/verdict.js';
import { PreparedDefinition, checkExchange, validateValue } from '../../checker/engine/index.js';
import { contractChecker } from '../../mock-host/engine/contract-checker.js';
import { openApiDefinition, readContract } from '../../mock-host/engine/contract.js';
import { mockFindings } from '../../mock-host/engine/mock-findings.js';
import { MockServer } from '../../mock-host/engine/mock-server.js';
import { newMockFromDocuments } from '../../mock-host/engine/new-mock.js';
import { json, mockOf, operation, send } from '../../mock-host/engine/test-support/mocks.js';
import { loadDefinition } from '../checks/definitions.js';
import { mockDocuments } from './mock-documents.js';

const ENTRY = `openapi: 3.0.3
info: { title: Pets, version: "1" }
paths:
  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "schemas/pet.yaml#/Pet" }
      responses:
        "201":
          description: made
          content:
            application/json:
              schema: { $ref: "schemas/pet.yaml#/Pet" }
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
      responses:
        "200":
          description: one pet
          content:
            application/json:
              schema: { $ref: "schemas/pet.yaml#/Pet" }
components:
  schemas:
    Owner:
      type: object
      required: [name]
      properties:
        name: { type: string, minLength: 1 }
`;

const PET = `Pet:
  type: object
  required: [id, name]
  properties:
    id: { type: integer }
    name: { type: string }
    owner: { $ref: "../openapi.yaml#/components/schemas/Owner" }
`;

let root: string;
let apiDir: string;
const api = {
  version: 1,
  id: 'a_pets',
  name: 'Pets',
  baseUrl: '',
  auth: { type: 'none' },
  definition: { format: 'openapi-3.0', cached: ['definition/openapi.yaml', 'definition/schemas/pet.yaml'], fingerprint: 'fp-agreement' },
} as Api;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'parley-definition-agreement-'));
  apiDir = join(root, 'apis', 'Pets');
  await mkdir(join(apiDir, 'definition', 'schemas'), { recursive: true });
  await writeFile(join(apiDir, 'definition', 'openapi.yaml'), ENTRY);
  await writeFile(join(apiDir, 'definition', 'schemas', 'pet.yaml'), PET);
});

const servers: MockServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await rm(root, { recursive: true, force: true });
});

/** What the mock host is handed, and the definition a send's contract check runs against. */
async function both(): Promise<{ mock: Definition; checker: PreparedDefinition }> {
  const documents = await mockDocuments(apiDir, api);
  const loaded = await loadDefinition(apiDir, api);
  return { mock: openApiDefinition(documents), checker: new PreparedDefinition(loaded.documents, loaded.fingerprint) };
}

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('a cached definition of two files, read by the mock and the checker', () => {
  it('is handed to both as the same documents, by their paths in the API folder', async () => {
    const documents = await mockDocuments(apiDir, api);
    const loaded = await loadDefinition(apiDir, api);
    expect(documents).toEqual({ openapi: loaded.documents });
    expect(loaded.documents.map((d) => d.uri)).toEqual(['file:///api/definition/openapi.yaml', 'file:///api/definition/schemas/pet.yaml']);
  });

  it.each([
    ['an id that is text', { id: 'seven', name: 'Tom' }],
    ['no name, and an owner (back in the entry document) with an empty name', { id: 1, owner: { name: '' } }],
    ['an owner with no name', { id: 1, name: 'Tom', owner: {} }],
  ])('judges a stub with %s as a send\'s check judges the same response', async (_, body) => {
    const { mock, checker } = await both();
    const stub = mockOf([operation({ name: 'getPet', method: 'GET', path: '/pets/{id}', responses: [json('Stub', body)] })]);
    const { findings } = await mockFindings(stub, { openapi: mock });
    const verdict = checkExchange(checker, { method: 'GET', url: 'http://127.0.0.1:4010/pets/1', status: 200, contentType: 'application/json', body: encode(body) });
    expect(verdict.kind).toBe('problems');
    expect(findings.map((f) => ({ pointer: f.pointer, message: f.message }))).toEqual(verdict.problems.map((p) => ({ pointer: p.pointer, message: p.message })));
  });

  it('refuses a request body with the problems the checker engine finds in the same schema', async () => {
    const { mock, checker } = await both();
    let n = 0;
    const made = await newMockFromDocuments({ openapi: mock }, { name: 'Pets', api: api.id, newId: () => `id${++n}` });
    const server = new MockServer({ mock: { ...made, contractCheck: 'refuse' }, checker: contractChecker(await readContract(mock)) });
    servers.push(server);
    const { port } = await server.start();
    const body = { id: 1, name: 'Tom', owner: { name: 7 } };
    const answer = await send(port, { method: 'POST', path: '/pets', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(answer.status).toBe(400);
    const schema = { docUri: checker.entryUri, pointer: '/paths/~1pets/post/requestBody/content/application~1json/schema' };
    const expected: MockProblem[] = validateValue(checker, schema, body, 'request').verdict.problems.map((p) => ({ in: 'body', pointer: p.pointer, message: p.message }));
    expect(expected.map((p) => p.pointer)).toEqual(['/owner/name']);
    expect((answer.json() as { problems: MockProblem[] }).problems).toEqual(expected);
  });

  it('makes New Mock answers a send\'s check passes', async () => {
    const { mock, checker } = await both();
    let n = 0;
    const made = await newMockFromDocuments({ openapi: mock }, { name: 'Pets', api: api.id, newId: () => `id${++n}` });
    expect(made.operations.map((op) => op.operationId)).toEqual(['addPet', 'getPet']);
    for (const op of made.operations) {
      const response = op.responses[0]!;
      const url = `http://127.0.0.1:4010${op.path.replace('{id}', '1')}`;
      const verdict = checkExchange(checker, { method: op.method, url, status: response.status, contentType: 'application/json', body: new TextEncoder().encode(response.body.text) });
      expect(verdict.kind, `${op.method} ${op.path}: ${JSON.stringify(verdict.problems)}`).toBe('pass');
    }
  });
});
