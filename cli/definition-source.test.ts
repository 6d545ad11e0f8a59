/**
 * The one reader of a definition named on the command line, which `parley check` and
 * `parley mock serve <document>` share: a path, a file: URL and an http(s) URL give the same
 * documents and fingerprint; what does not load, or is not OpenAPI 3.x / Swagger 2.0, fails with
 * one wording for both commands.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWireError } from '../protocol/errors.js';
import { isDefinitionUrl, readCommandLineDefinition } from './definition-source.js';

const SWAGGER_12 = resolve(import.meta.dirname, '../test/fixtures/importers/openapi/swagger-1.2/singleFile.json');

const ENTRY = `openapi: 3.0.3
info: { title: '  Pets  ', version: '1' }
paths:
  /pets/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: 'pet.yaml#/Pet' } } }
`;
const PET = `Pet: { type: object, required: [name], properties: { name: { type: string } } }\n`;

let dir = '';
let server: Server | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-definition-source-'));
  writeFileSync(join(dir, 'pets.yaml'), ENTRY);
  writeFileSync(join(dir, 'pet.yaml'), PET);
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (server) await new Promise((done) => server!.close(done));
  server = undefined;
});

/** Serves the two documents on 127.0.0.1, as a definition published at an http URL. */
async function serve(): Promise<string> {
  const texts = new Map([
    ['/api/pets.yaml', ENTRY],
    ['/api/pet.yaml', PET],
  ]);
  server = createServer((req, res) => {
    const text = texts.get(req.url ?? '');
    res.writeHead(text === undefined ? 404 : 200, { 'content-type': 'application/yaml' }).end(text ?? 'no');
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(where: string): Promise<{ code: string; message: string }> {
  const err = await readCommandLineDefinition(where).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isWireError(err)) throw new Error(`expected a coded error for ${where}, got ${String(err)}`);
  return { code: err.code, message: err.message };
}

describe('readCommandLineDefinition', () => {
  it('a path, a file: URL and an http URL give the entry first and its $ref target, by the address each was read from', async () => {
    const byPath = await readCommandLineDefinition(join(dir, 'pets.yaml'));
    expect(byPath.name).toBe(join(dir, 'pets.yaml'));
    expect(byPath.shortName).toBe('pets.yaml');
    expect(byPath.title).toBe('Pets');
    expect(byPath.warnings).toEqual([]);
    expect(byPath.documents.map((d) => d.uri)).toEqual([pathToFileURL(join(dir, 'pets.yaml')).href, pathToFileURL(join(dir, 'pet.yaml')).href]);
    expect(byPath.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);

    const byFileUrl = await readCommandLineDefinition(pathToFileURL(join(dir, 'pets.yaml')).href);
    expect(byFileUrl.documents).toEqual(byPath.documents);
    expect(byFileUrl.fingerprint).toBe(byPath.fingerprint);

    const origin = await serve();
    const byHttp = await readCommandLineDefinition(`${origin.replace('http://', 'http://user:hunter2@')}/api/pets.yaml`);
    expect(byHttp.name).not.toContain('hunter2');
    expect(byHttp.shortName).toBe(new URL(origin).host);
    expect(byHttp.documents.map((d) => d.uri)).toEqual([`${origin}/api/pets.yaml`, `${origin}/api/pet.yaml`]);
    // The fingerprint covers where each document was read from, so a move is a change.
    expect(byHttp.fingerprint).not.toBe(byPath.fingerprint);
  });

  it('a referenced document that cannot be read is a warning naming it, not a failure', async () => {
    rmSync(join(dir, 'pet.yaml'));
    const read = await readCommandLineDefinition(join(dir, 'pets.yaml'));
    expect(read.documents).toHaveLength(1);
    expect(read.warnings).toHaveLength(1);
    expect(read.warnings[0]).toContain('pet.yaml');
  });

  it('what does not load fails as definition-not-loaded, naming the file and why', async () => {
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: [3.0\n  info: :\n');
    const broken = await failure(join(dir, 'broken.yaml'));
    expect(broken.code).toBe('definition-not-loaded');
    expect(broken.message).toMatch(/^The definition .*broken\.yaml did not load: .*broken\.yaml is not valid YAML/);

    const missing = await failure(join(dir, 'nowhere.yaml'));
    expect(missing).toMatchObject({ code: 'definition-not-loaded' });
    expect(missing.message).toMatch(/^The definition .*nowhere\.yaml did not load: .*was not found/);

    writeFileSync(join(dir, 'schema.yaml'), PET);
    const notOpenApi = await failure(join(dir, 'schema.yaml'));
    expect(notOpenApi.message).toContain('schema.yaml has no openapi, swagger or swaggerVersion field, so it is not an OpenAPI or Swagger document.');
  });

  it('a Swagger 1.2 document, or a version key that is not a string, is definition-unsupported with one wording', async () => {
    const swagger12 = await failure(SWAGGER_12);
    expect(swagger12).toEqual({ code: 'definition-unsupported', message: `${SWAGGER_12} is a Swagger 1.2 document; Parley checks and mocks OpenAPI 3.x and Swagger 2.0 definitions only.` });

    writeFileSync(join(dir, 'numeric.yaml'), ENTRY.replace('openapi: 3.0.3', 'openapi: 3.1'));
    const numeric = await failure(join(dir, 'numeric.yaml'));
    expect(numeric.code).toBe('definition-unsupported');
    expect(numeric.message).toBe(`${join(dir, 'numeric.yaml')} declares openapi: 3.1, not a version string such as "3.1.0"; Parley checks and mocks OpenAPI 3.x and Swagger 2.0 definitions only.`);
  });
});

describe('isDefinitionUrl', () => {
  it('takes http(s) and file: URLs, not paths', () => {
    expect(isDefinitionUrl('https://example.com/openapi.yaml')).toBe(true);
    expect(isDefinitionUrl('HTTP://example.com/openapi.yaml')).toBe(true);
    expect(isDefinitionUrl('file:///tmp/openapi.yaml')).toBe(true);
    expect(isDefinitionUrl('./openapi.yaml')).toBe(false);
    expect(isDefinitionUrl('project-folder')).toBe(false);
  });
});
