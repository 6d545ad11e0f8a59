import { describe, expect, it } from 'vitest';
import { csvRows, jsonRows, rowLabel } from './data-file.js';
import { secretEnvName, envSecrets } from './env-secrets.js';

describe('data rows', () => {
  it('reads CSV with quotes, embedded commas and line breaks, a BOM, and a __proto__ column', () => {
    const rows = csvRows('\uFEFFid,"name",__proto__\n1,"Rex, the dog",x\n2,"two\nlines",y\n', 'd.csv');
    expect(rows).toEqual([
      { number: 1, properties: [{ name: 'id', value: '1', enabled: true }, { name: 'name', value: 'Rex, the dog', enabled: true }, { name: '__proto__', value: 'x', enabled: true }] },
      { number: 2, properties: [{ name: 'id', value: '2', enabled: true }, { name: 'name', value: 'two\nlines', enabled: true }, { name: '__proto__', value: 'y', enabled: true }] },
    ]);
    expect(() => csvRows('a,b\n1,2,3\n', 'bad.csv')).toThrow(/bad.csv is not valid CSV/);
  });

  it('reads a JSON array of objects of scalars, and refuses anything else', () => {
    const rows = jsonRows('[{"id":1,"ok":true,"none":null,"__proto__":"p"}]', 'd.json');
    expect(rows[0]!.properties).toEqual([
      { name: 'id', value: '1', enabled: true },
      { name: 'ok', value: 'true', enabled: true },
      { name: 'none', value: '', enabled: true },
      { name: '__proto__', value: 'p', enabled: true },
    ]);
    expect(() => jsonRows('{"id":1}', 'd.json')).toThrow(/must be a JSON array/);
    expect(() => jsonRows('[{"a":{"b":1}}]', 'd.json')).toThrow(/item 1, "a" is not a string/);
    expect(() => jsonRows('[1]', 'd.json')).toThrow(/item 1 is not an object/);
  });

  it('names a row by its number and first columns, credential-named ones masked', () => {
    expect(rowLabel({ number: 3, properties: [{ name: 'user', value: 'ann', enabled: true }, { name: 'password', value: 'hunter2', enabled: true }] })).toBe('row 3 (user=ann, password=••••••)');
  });
});

describe('PARLEY_SECRET_ names', () => {
  it('upper-cases the secret name and joins other characters into one _', () => {
    expect(secretEnvName('staging-eu/apiToken')).toBe('PARLEY_SECRET_STAGING_EU_APITOKEN');
    expect(secretEnvName('request/r_12/password')).toBe('PARLEY_SECRET_REQUEST_R_12_PASSWORD');
    const read = envSecrets({ PARLEY_SECRET_CI_TOKEN: 't' });
    expect(read('ci/token')).toBe('t');
    expect(read('other')).toBeUndefined();
  });
});
