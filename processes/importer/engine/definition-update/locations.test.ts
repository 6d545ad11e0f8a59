/**
 * Definition update rule 1 compares operations by content, never by where a document or a
 * referenced schema was read from (issue 11, item 11): the cached definition of an API imported
 * from one folder against an identical copy read from another path (another file name, another
 * layout) lists nothing as changed; one changed parameter lists exactly that operation.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentLoader } from '../load/loader.js';
import { importSource } from '../test-support.js';
import { readCachedDefinition } from './definitions.js';
import { previewDefinitionUpdate } from './preview.js';
import { readSourceDefinition } from './read-source.js';

/** A definition in two files, with references inside the entry, across files and back into itself. */
const SHOP = 'test/fixtures/cli-import/shop';
const ENTRY = readFileSync(join(SHOP, 'spec/shop.yaml'), 'utf8');
const SCHEMAS = readFileSync(join(SHOP, 'common/schemas.yaml'), 'utf8');

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-update-locations-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('imported/spec/shop.yaml', ENTRY);
  write('imported/common/schemas.yaml', SCHEMAS);
  // The same bytes at another path, under another file name.
  write('elsewhere/deep/spec/openapi.yaml', ENTRY);
  write('elsewhere/deep/common/schemas.yaml', SCHEMAS);
  // The same content laid out differently: the shared schemas beside the entry, in a file of another name.
  write('relaid/api.yaml', ENTRY.replaceAll('../common/schemas.yaml', 'models.yaml'));
  write('relaid/models.yaml', SCHEMAS);
  // One parameter of one operation changed.
  cpSync(join(dir, 'elsewhere'), join(dir, 'changed'), { recursive: true });
  write('changed/deep/spec/openapi.yaml', ENTRY.replace('{name: q, in: query, schema: {type: string}}', '{name: q, in: query, required: true, schema: {type: string}}'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The API imported from imported/, then a preview against `source`, as the importer child runs one. */
async function previewAgainst(source: string) {
  const { result } = await importSource({ kind: 'file', path: join(dir, 'imported/spec/shop.yaml') });
  const imported = result.apis[0];
  if (!imported) throw new Error('no API');
  expect(result.report.errors).toEqual([]);
  const old = await readCachedDefinition(imported.documents.map((d) => ({ path: d.path, bytes: d.bytes })));
  const loader = createDocumentLoader({ offline: true });
  try {
    const next = await readSourceDefinition({ kind: 'file', path: join(dir, source) }, loader);
    expect(next.problems).toEqual([]);
    return previewDefinitionUpdate({ api: imported.api, requests: imported.requests.map((p) => p.request), old, next });
  } finally {
    await loader.close();
  }
}

describe('definition update: compared by content, not by location', () => {
  it('an identical copy at another path, under another name, changes nothing', async () => {
    const preview = await previewAgainst('elsewhere/deep/spec/openapi.yaml');
    expect(preview).toMatchObject({ added: [], removed: [], changed: [] });
    expect(preview.apiWide).toBeUndefined();
  });

  it('the same content laid out in other files changes nothing', async () => {
    const preview = await previewAgainst('relaid/api.yaml');
    expect(preview).toMatchObject({ added: [], removed: [], changed: [] });
  });

  it('one changed parameter lists exactly that operation, for its parameters', async () => {
    const preview = await previewAgainst('changed/deep/spec/openapi.yaml');
    expect(preview.added).toEqual([]);
    expect(preview.removed).toEqual([]);
    expect(preview.changed).toEqual([{ method: 'get', path: '/items', reasons: ['parameters'] }]);
  });

  it('a changed schema shared by three operations lists those three, for what uses it', async () => {
    cpSync(join(dir, 'elsewhere'), join(dir, 'changed-schema'), { recursive: true });
    writeFileSync(join(dir, 'changed-schema/deep/common/schemas.yaml'), SCHEMAS.replace('Tag: {type: string}', 'Tag: {type: string, maxLength: 20}'));
    const preview = await previewAgainst('changed-schema/deep/spec/openapi.yaml');
    expect(preview.changed).toEqual([
      { method: 'get', path: '/items', reasons: ['responses'] },
      { method: 'post', path: '/items', reasons: ['request-body'] },
      { method: 'get', path: '/items/{id}', reasons: ['responses'] },
    ]);
  });
});
