import { describe, expect, it } from 'vitest';
import { assignCachePaths } from './cache-paths.js';

describe('where cached documents go', () => {
  it('keeps the layout under the folder the entry’s documents share', () => {
    expect(assignCachePaths(['file:///w/api/spec/swagger.yaml', 'file:///w/api/spec/Pet.yaml', 'file:///w/api/common/Error.yaml'], 'yaml')).toEqual(['spec/swagger.yaml', 'spec/Pet.yaml', 'common/Error.yaml']);
    expect(assignCachePaths(['https://h.example/v1/openapi.json?x=1', 'https://h.example/v1/s/a.json'], 'json')).toEqual(['openapi.json', 's/a.json']);
  });

  it('puts other origins under _remote/<host>[_<port>]', () => {
    expect(assignCachePaths(['https://h.example/o.yaml', 'https://other.example:8443/x/y.yaml', 'http://h.example/z.yaml'], 'yaml')).toEqual(['o.yaml', '_remote/other.example_8443/x/y.yaml', '_remote/h.example/z.yaml']);
  });

  it('names pasted text openapi.<syntax>, and never lets a file take a name a folder needs', () => {
    expect(assignCachePaths(['paste:/pasted'], 'json')).toEqual(['openapi.json']);
    expect(assignCachePaths(['https://h.example/api/api-docs', 'https://h.example/api/api-docs/pet'], 'json')).toEqual(['api-docs~2', 'api-docs/pet']);
    // A percent-encoded slash never becomes a folder step out of definition/.
    expect(assignCachePaths(['https://h.example/api/', 'https://h.example/api/a%20b.yaml', 'https://h.example/api/..%2F..%2Fx'], 'yaml')).toEqual(['index', 'a b.yaml', '.._.._x']);
  });
});
