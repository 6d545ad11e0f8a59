import { describe, expect, it } from 'vitest';
import { applyUrlToRows, displayUrl, parseQuery, pathParamNames, syncPathParams } from './request-url.js';
import { blankRequest } from './model/request.js';

describe('request URL and query rows', () => {
  it('reads rows from a typed URL and keeps disabled rows', () => {
    const rows = [
      { name: 'debug', value: '1', enabled: false },
      { name: 'old', value: 'x', enabled: true },
    ];
    const { url, query } = applyUrlToRows('https://api.example/pets?limit=10&tag=a%20b#frag', rows);
    expect(url).toBe('https://api.example/pets');
    expect(query).toEqual([
      { name: 'limit', value: '10', enabled: true },
      { name: 'tag', value: 'a b', enabled: true },
      { name: 'debug', value: '1', enabled: false },
    ]);
    expect(displayUrl(url, query)).toBe('https://api.example/pets?limit=10&tag=a%20b');
  });

  it('switches a disabled row back on when the typed URL names it', () => {
    const { query } = applyUrlToRows('/pets?tag=cat', [{ name: 'tag', value: '', enabled: false }]);
    expect(query).toEqual([{ name: 'tag', value: 'cat', enabled: true }]);
  });

  it('keeps property expansions readable in the query string', () => {
    expect(displayUrl('/pets', [{ name: 'key', value: '${apiKey}', enabled: true }])).toBe('/pets?key=${apiKey}');
    expect(parseQuery('key=${apiKey}&flag')).toEqual([
      { name: 'key', value: '${apiKey}', enabled: true },
      { name: 'flag', value: '', enabled: true },
    ]);
  });

  it('finds path placeholders but not ${expansions}', () => {
    expect(pathParamNames('${base}/pets/{petId}/toys/{toyId}?q={notPath}')).toEqual(['petId', 'toyId']);
    expect(pathParamNames('https://{host}.example/x/{id}')).toEqual(['id']);
    expect(syncPathParams('/pets/{petId}/{kind}', [{ name: 'petId', value: '7' }, { name: 'gone', value: 'x' }])).toEqual([
      { name: 'petId', value: '7' },
      { name: 'kind', value: '' },
    ]);
  });
});

describe('blankRequest', () => {
  it('makes the rows of a typed URL at once: a path-parameter row per {name}, the query string as rows', () => {
    const request = blankRequest({ id: 'r_1', name: 'Get a pet', method: 'get', url: '/pets/{petId}/toys/{toyId}?limit=5' });
    expect(request.url).toBe('/pets/{petId}/toys/{toyId}');
    expect(request.pathParams).toEqual([
      { name: 'petId', value: '' },
      { name: 'toyId', value: '' },
    ]);
    expect(request.query).toEqual([{ name: 'limit', value: '5', enabled: true }]);
    expect(request.method).toBe('GET');
  });
});
