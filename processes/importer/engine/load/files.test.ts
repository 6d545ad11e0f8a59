/**
 * Reading definitions from files: a multi-file definition with relative references is read
 * whole and cached with its layout; only regular JSON/YAML files outside hidden folders may be
 * referenced; a network document never reads local files; the size cap holds.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCachedDefinition } from '../definition-update/definitions.js';
import { buildDefinition } from '../openapi/definition.js';
import { importSource } from '../test-support.js';

const PETSTORE = 'test/fixtures/importers/openapi/learn-openapis/v2.0/yaml/petstore-separate/spec/swagger.yaml';

describe('petstore-separate: one definition in five files with relative references', () => {
  it('reads every file, resolves parameters and schemas across them, and caches them with their layout', async () => {
    const { result } = await importSource({ kind: 'file', path: PETSTORE });
    const imported = result.apis[0];
    expect(imported?.documents.map((d) => d.path)).toEqual(['spec/swagger.yaml', 'spec/parameters.yaml', 'spec/Pet.yaml', 'common/Error.yaml', 'spec/NewPet.yaml']);
    expect(imported?.api.definition?.cached).toEqual(imported?.documents.map((d) => `definition/${d.path}`));
    expect(result.report.errors).toEqual([]);
    const find = imported?.requests.find((r) => r.request.name === 'findPets')?.request;
    expect(find?.query).toEqual([
      { name: 'tags', value: '', enabled: false },
      { name: 'limit', value: '', enabled: false },
    ]);
    const add = imported?.requests.find((r) => r.request.name === 'addPet')?.request;
    // NewPet.yaml is allOf [Pet.yaml, {description}]: the sample reaches through both files.
    expect(Object.keys(JSON.parse(add?.body.raw.text ?? '{}')).sort()).toEqual(['description', 'id', 'name', 'tag']);
  });

  it('the cached copies read back offline to the same operations and the same generation', async () => {
    const { result } = await importSource({ kind: 'file', path: PETSTORE });
    const imported = result.apis[0];
    const cached = await readCachedDefinition(imported?.documents.map((d) => ({ path: d.path, bytes: d.bytes })) ?? []);
    expect(cached.problems).toEqual([]);
    expect(cached.set.documents.map((d) => d.cachePath)).toEqual(imported?.documents.map((d) => d.path));
    const built = buildDefinition(cached.set, cached.version);
    expect(built.operations.map((g) => g.generated)).toEqual(imported?.requests.map((r) => r.request.generated));
  });
});

describe('which local files a definition may read', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-import-'));
    mkdirSync(join(dir, 'project/spec'), { recursive: true });
    mkdirSync(join(dir, 'project/common'), { recursive: true });
    mkdirSync(join(dir, '.secrets'), { recursive: true });
    writeFileSync(join(dir, '.secrets/keys.yaml'), 'Key: {type: string, example: do-not-read}\n');
    writeFileSync(join(dir, 'project/common/Err.yaml'), 'Err: {type: object, properties: {code: {type: integer}}}\n');
    writeFileSync(join(dir, 'project/notes.txt'), 'Note: {type: string}\n');
    const doc = (ref: string) => `openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    post:\n      requestBody: {content: {application/json: {schema: {$ref: '${ref}'}}}}\n      responses: {}\n`;
    writeFileSync(join(dir, 'project/spec/parent.yaml'), doc('../common/Err.yaml#/Err'));
    writeFileSync(join(dir, 'project/spec/hidden.yaml'), doc('../../.secrets/keys.yaml#/Key'));
    writeFileSync(join(dir, 'project/spec/text.yaml'), doc('../notes.txt#/Note'));
    writeFileSync(join(dir, 'project/spec/absolute.yaml'), doc(`file://${join(dir, '.secrets/keys.yaml')}#/Key`));
    execFileSync('mkfifo', [join(dir, 'project/spec/pipe.yaml')]);
    writeFileSync(join(dir, 'project/spec/fifo-ref.yaml'), doc('pipe.yaml#/X'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a file in a parent folder is read', async () => {
    const { result } = await importSource({ kind: 'file', path: join(dir, 'project/spec/parent.yaml') });
    expect(result.report.errors).toEqual([]);
    expect(result.apis[0]?.documents.map((d) => d.path)).toEqual(['spec/parent.yaml', 'common/Err.yaml']);
  });

  it.each([
    ['hidden.yaml', /hidden files and folders are never read/],
    ['absolute.yaml', /"file:\/\/\/.*keys\.yaml#\/Key" in .*absolute\.yaml cannot be read: it is a file: address/],
    ['text.yaml', /only \.json, \.yaml and \.yml files may be referenced/],
    ['fifo-ref.yaml', /not a regular file/],
  ])('%s: the reference is refused and reported, nothing of it is read or cached', async (file, reason) => {
    const { result } = await importSource({ kind: 'file', path: join(dir, 'project/spec', file) });
    expect(result.report.errors).toHaveLength(1);
    expect(result.report.errors[0]?.message).toMatch(reason);
    expect(result.report.errors[0]).toMatchObject({ file, path: '/paths/~1a/post/requestBody/content/application~1json/schema/$ref', line: 6 });
    expect(result.apis[0]?.documents).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain('do-not-read');
  });

  it('an entry that is a folder or a FIFO is refused without hanging', async () => {
    await expect(importSource({ kind: 'file', path: join(dir, 'project/spec') })).rejects.toMatchObject({ code: 'import-not-a-file' });
    await expect(importSource({ kind: 'file', path: join(dir, 'project/spec/pipe.yaml') })).rejects.toMatchObject({ code: 'import-not-a-file' });
    await expect(importSource({ kind: 'file', path: join(dir, 'project/spec/none.yaml') })).rejects.toMatchObject({ code: 'import-file-unreadable' });
  });

  it('the total size cap refuses the read that passes it', async () => {
    const limits = { totalBytes: 300, documents: 10, redirects: 5 };
    await expect(importSource({ kind: 'file', path: PETSTORE }, {}, { offline: true, limits })).rejects.toMatchObject({ code: 'import-too-large' });
  });

  describe('a document read over the network', () => {
    let server: Server;
    let base = '';
    beforeAll(async () => {
      server = createServer((req, res) => {
        const ref = req.url === '/abs.yaml' ? `file://${join(dir, 'project/common/Err.yaml')}#/Err` : '../../../project/common/Err.yaml#/Err';
        res.writeHead(200).end(`openapi: 3.0.0\ninfo: {title: Net, version: '1'}\npaths:\n  /a:\n    post:\n      requestBody: {content: {application/json: {schema: {$ref: '${ref}'}}}}\n      responses: {}\n`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('never reads a local file, whatever its reference says', async () => {
      const { result } = await importSource({ kind: 'url', url: `${base}/abs.yaml` }, {}, {});
      expect(result.report.errors[0]?.message).toMatch(/cannot be read: it is a file: address, and a document read over the network never reads local files/);
      expect(result.apis[0]?.documents).toHaveLength(1);
      // A relative reference climbs the server's paths, not the local disk.
      const relative = await importSource({ kind: 'url', url: `${base}/rel.yaml` }, {}, {});
      expect(relative.result.apis[0]?.documents.map((d) => d.source)).toEqual([`${base}/rel.yaml`, `${base}/project/common/Err.yaml`]);
    });
  });
});

describe('odd $ref forms are report items, never a crash of the import', () => {
  let dir = '';
  const odd = [
    ['%2e%2e%2foutside%2fsecret.json', /percent-encoded "\/"/],
    ['//169.254.169.254/latest/x.json', /names another machine/],
    ['file://169.254.169.254/latest/x.json', /file: address/],
    ['/etc/secret.json', /absolute path/],
    ['C:/Users/me/secret.json', /Windows drive/],
    ['..\\outside\\secret.json', /as a separator/],
    ['secret%00.json', /NUL/],
    [`${'x'.repeat(5000)}.json`, /longer than 4096 characters/],
  ] as const;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-import-odd-'));
    mkdirSync(join(dir, 'spec'));
    const paths = odd.map(([ref], i) => `  /p${i}:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {$ref: ${JSON.stringify(ref)}}}}}\n`).join('');
    writeFileSync(join(dir, 'spec/odd.yaml'), `openapi: 3.0.3\ninfo: {title: Odd, version: '1'}\npaths:\n${paths}  /fine:\n    get:\n      responses: {'200': {description: ok}}\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports every operation and reports each reference with the document and the reason', async () => {
    const { result } = await importSource({ kind: 'file', path: join(dir, 'spec/odd.yaml') });
    expect(result.apis[0]?.requests.map((r) => r.request.operation?.path)).toEqual([...odd.map((_, i) => `/p${i}`), '/fine']);
    const errors = result.report.errors;
    expect(errors).toHaveLength(odd.length);
    odd.forEach(([ref, reason], i) => {
      expect(errors[i]).toMatchObject({ file: 'odd.yaml', path: `/paths/~1p${i}/get/responses/200/content/application~1json/schema/$ref` });
      expect(errors[i]?.message).toContain(`The reference ${JSON.stringify(ref.length > 200 ? `${ref.slice(0, 200)}…` : ref)} in ${join(dir, 'spec/odd.yaml')} cannot be read: `);
      expect(errors[i]?.message).toMatch(reason);
    });
    expect(JSON.stringify(result.report)).not.toMatch(/ERR_/);
    expect(result.apis[0]?.documents).toHaveLength(1);
  });

  it('a cached definition read back may not leave its folder', async () => {
    const entry = "openapi: 3.0.3\ninfo: {title: C, version: '1'}\npaths:\n  /a:\n    get:\n      responses: {'200': {$ref: '../../outside.yaml#/R'}}\n";
    const cached = await readCachedDefinition([{ path: 'openapi.yaml', bytes: new TextEncoder().encode(entry) }]);
    expect(cached.problems).toHaveLength(1);
    expect(cached.problems[0]).toMatchObject({ file: 'openapi.yaml', path: '/paths/~1a/get/responses/200/$ref' });
    expect(cached.problems[0]?.message).toMatch(/"..\/..\/outside.yaml#\/R" in openapi.yaml cannot be read: it leads outside the API.s cached definition/);
  });
});
