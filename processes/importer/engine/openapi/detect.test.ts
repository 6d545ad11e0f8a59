import { describe, expect, it } from 'vitest';
import { ImporterRegistry, createImporterRegistry } from '../registry.js';
import type { Importer } from '../importer.js';
import { OPENAPI_DETECT_RULES, topLevelKeys } from './detect.js';
import { openApiImporter } from './importer.js';

const registry = createImporterRegistry();

describe('auto-detecting OpenAPI and Swagger', () => {
  it.each([
    ['openapi: 3.1.0\ninfo: {title: t, version: "1"}\n', 'openapi-3.1', 'OpenAPI 3.1.0'],
    ["openapi: '3.0.3'\n", 'openapi-3.0', 'OpenAPI 3.0.3'],
    ['---\n"openapi": 3.2.0 # comment\n', 'openapi-3.2', 'OpenAPI 3.2.0'],
    ['swagger: "2.0"\n', 'swagger-2.0', 'Swagger 2.0'],
    ['{"info": {"openapi": "nested"}, "openapi": "3.1.0"}', 'openapi-3.1', 'OpenAPI 3.1.0'],
    ['{\n  "swagger": "2.0",\n  "info": {}\n}', 'swagger-2.0', 'Swagger 2.0'],
    ['{"swaggerVersion": "1.2", "apis": []}', 'swagger-1.2', 'Swagger 1.2'],
  ])('recognises %j by content', (text, version, label) => {
    expect(registry.detectFormat({ text })).toEqual({ format: 'openapi', label, version, settledBy: 'content' });
  });

  it.each([
    ['{"collection": {"item": [{"openapi": "3.0.0"}]}}'],
    ['{"text": "{\\"openapi\\": \\"3.0.0\\"}"}'],
    ['info:\n  openapi: 3.0.0\n'],
    ['GET https://example.com/openapi: 3\n'],
    [''],
  ])('does not take %j for OpenAPI (only top-level keys count)', (text) => {
    expect(registry.detectFormat({ text })).toBeNull();
  });

  it('a file named openapi.yaml or swagger.json settles the format, whatever the text looks like', () => {
    expect(registry.detectFormat({ name: 'swagger.json', text: 'not yet written' })).toMatchObject({ format: 'openapi', settledBy: 'file-name' });
    expect(registry.detectFormat({ name: 'https://example.com/v1/openapi.yaml?x=1', text: 'openapi: 3.1.0' })).toEqual({ format: 'openapi', label: 'OpenAPI 3.1.0', version: 'openapi-3.1', settledBy: 'file-name' });
  });

  it('a file name that settles another format wins over text that only looks like OpenAPI', () => {
    const fake: Importer = { id: 'har', label: 'HAR', detect: () => null, convert: () => Promise.reject(new Error('unused')) };
    const withHar = new ImporterRegistry([
      { importer: openApiImporter, rules: OPENAPI_DETECT_RULES },
      { importer: fake, rules: [{ format: 'har', by: 'file-name', match: (i) => (i.name?.endsWith('.har') ? { label: 'HAR' } : null) }] },
    ]);
    expect(withHar.detectFormat({ name: 'capture.har', text: 'openapi: 3.1.0' })).toMatchObject({ format: 'har', settledBy: 'file-name' });
    expect(withHar.detectFormat({ name: 'capture.yaml', text: 'openapi: 3.1.0' })).toMatchObject({ format: 'openapi', settledBy: 'content' });
  });

  it('auto with nothing recognised is import-unrecognised; an unknown format is import-unknown-format', () => {
    expect(() => registry.pick('auto', { name: 'notes.txt', text: 'hello' })).toThrow(expect.objectContaining({ code: 'import-unrecognised' }));
    expect(() => registry.pick('postman', { text: 'x' })).toThrow(expect.objectContaining({ code: 'import-unknown-format' }));
    expect(registry.pick('openapi', { text: 'hello' }).importer.id).toBe('openapi');
  });

  it('scans a large JSON document without parsing it', () => {
    const big = `{"paths": {${Array.from({ length: 20000 }, (_, i) => `"/p${i}": {"get": {"summary": "openapi: 3"}}`).join(',')}}, "openapi": "3.0.1"}`;
    expect(topLevelKeys(big).get('openapi')).toBe('3.0.1');
  });
});
