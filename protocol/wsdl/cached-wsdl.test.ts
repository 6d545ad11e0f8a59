/**
 * The one reader of an API's cached WSDL (SOAP mocks, New Mock, the old side of a definition
 * update): documents with the addresses they were read from resolve imports under the import's
 * rule; documents without resolve by path. Fixtures: test/fixtures/wsdl/parley/update (SOURCES.md).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWireError } from '../errors.js';
import { cachedLocator, readCachedWsdlDocuments } from './cached-wsdl.js';

const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/wsdl/parley/update');
const WSDL = readFileSync(join(FIXTURES, 'calc-v2.wsdl'), 'utf8');
const TYPES = readFileSync(join(FIXTURES, 'calc-v2-types.xsd'), 'utf8');
const IMPORT = 'schemaLocation="calc-v2-types.xsd"';

async function refusal(documents: Parameters<typeof readCachedWsdlDocuments>[0]): Promise<{ code: string; message: string }> {
  const err = await readCachedWsdlDocuments(documents).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isWireError(err)) throw new Error(`expected a coded error, got ${String(err)}`);
  return { code: err.code, message: err.message };
}

describe('readCachedWsdlDocuments', () => {
  it('with sources, an import resolves under the import rule to its cached copy, whatever its path in the cache', async () => {
    const read = await readCachedWsdlDocuments([
      { path: 'definition/service.wsdl', text: WSDL, source: 'https://example.com/calc/service.wsdl' },
      { path: 'definition/example.com/types.xsd', text: TYPES, source: 'https://example.com/calc/calc-v2-types.xsd' },
    ]);
    expect(read.entry).toBe('definition/service.wsdl');
    expect(read.definition.documents).toEqual(['https://example.com/calc/service.wsdl', 'https://example.com/calc/calc-v2-types.xsd']);
    expect(read.definition.problems).toEqual([]);
    expect(read.definition.bindings.map((b) => b.name)).toEqual(['CalcSoap11']);
    expect([...read.sources.keys()]).toEqual(['definition/service.wsdl', 'definition/example.com/types.xsd']);
  });

  it('with sources, an import the cache lacks is a problem of the read, not a failure', async () => {
    const read = await readCachedWsdlDocuments([{ path: 'definition/service.wsdl', text: WSDL, source: 'https://example.com/calc/service.wsdl' }]);
    expect(read.definition.problems.map((p) => p.code)).toEqual(['wsdl-import-unreadable']);
    expect(read.definition.problems[0]!.message).toContain('https://example.com/calc/calc-v2-types.xsd is not in the cached definition');
  });

  it('without sources, a relative import is found by path and an absolute one by its file name', async () => {
    const relative = await readCachedWsdlDocuments([
      { path: 'definition/service.wsdl', text: WSDL },
      { path: 'definition/calc-v2-types.xsd', text: TYPES },
    ]);
    expect(relative.definition.documents).toEqual(['definition/service.wsdl', 'definition/calc-v2-types.xsd']);
    expect(relative.definition.problems).toEqual([]);
    expect(relative.sources.size).toBe(0);

    const absolute = await readCachedWsdlDocuments([
      { path: 'definition/service.wsdl', text: WSDL.replace(IMPORT, 'schemaLocation="https://elsewhere.example/x/calc-v2-types.xsd"') },
      { path: 'definition/schemas/calc-v2-types.xsd', text: TYPES },
    ]);
    expect(absolute.definition.documents).toEqual(['definition/service.wsdl', 'definition/schemas/calc-v2-types.xsd']);
  });

  it('without sources, an import the cache lacks refuses the read (wsdl-not-cached); no documents at all is no-definition', async () => {
    expect(await refusal([{ path: 'definition/service.wsdl', text: WSDL }])).toEqual({ code: 'wsdl-not-cached', message: 'calc-v2-types.xsd is not among the cached documents of the definition.' });
    expect((await refusal([])).code).toBe('no-definition');
  });

  it('the first of two documents with one path counts', async () => {
    const read = await readCachedWsdlDocuments([
      { path: 'definition/service.wsdl', text: WSDL },
      { path: 'definition/calc-v2-types.xsd', text: TYPES },
      { path: 'definition/calc-v2-types.xsd', text: '<not-a-schema/>' },
    ]);
    expect(read.texts.get('definition/calc-v2-types.xsd')).toBe(TYPES);
  });
});

describe('cachedLocator', () => {
  it('names the cached document a location points at: by source when known, else by path', () => {
    const texts = new Map([
      ['definition/service.wsdl', WSDL],
      ['definition/t/types.xsd', TYPES],
    ]);
    const bySource = cachedLocator(
      texts,
      new Map([
        ['definition/service.wsdl', 'https://example.com/calc/service.wsdl'],
        ['definition/t/types.xsd', 'https://example.com/calc/calc-v2-types.xsd'],
      ]),
    );
    expect(bySource('definition/service.wsdl', 'calc-v2-types.xsd')).toBe('definition/t/types.xsd');
    expect(bySource('definition/service.wsdl', 'https://example.com/calc/calc-v2-types.xsd')).toBe('definition/t/types.xsd');
    expect(bySource('definition/service.wsdl', 'missing.xsd')).toBeUndefined();

    const byPath = cachedLocator(texts, new Map());
    expect(byPath('definition/service.wsdl', 't/types.xsd')).toBe('definition/t/types.xsd');
    expect(byPath('definition/service.wsdl', 'https://anywhere.example/types.xsd')).toBe('definition/t/types.xsd');
    expect(byPath('definition/service.wsdl', 'missing.xsd')).toBeUndefined();
  });
});
