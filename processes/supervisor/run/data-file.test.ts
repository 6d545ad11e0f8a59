import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows, jsonRows, MAX_ROW_CHARS, openDataFile, rowLabel, type DataRow } from './data-file.js';

async function all(rows: AsyncIterable<DataRow>): Promise<DataRow[]> {
  const out: DataRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

/** The text in pieces of `size` characters, as a file arrives. */
const input = (text: string, size = 7) => Readable.from(Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size)));
const csv = (text: string, file = 'd.csv', size?: number) => all(csvRows(input(text, size), file));
const json = (text: string, file = 'd.json', size?: number) => all(jsonRows(input(text, size), file));

let work: string;
beforeAll(async () => void (work = await mkdtemp(join(tmpdir(), 'parley-data-file-'))));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('data rows', () => {
  it('reads CSV with quotes, embedded commas and line breaks, a BOM, and a __proto__ column', async () => {
    const rows = await csv('\uFEFFid,"name",__proto__\n1,"Rex, the dog",x\n2,"two\nlines",y\n');
    expect(rows).toEqual([
      { number: 1, properties: [{ name: 'id', value: '1', enabled: true }, { name: 'name', value: 'Rex, the dog', enabled: true }, { name: '__proto__', value: 'x', enabled: true }] },
      { number: 2, properties: [{ name: 'id', value: '2', enabled: true }, { name: 'name', value: 'two\nlines', enabled: true }, { name: '__proto__', value: 'y', enabled: true }] },
    ]);
    await expect(csv('a,b\n1,2,3\n', 'bad.csv')).rejects.toThrow(/bad.csv is not valid CSV/);
  });

  it('yields the rows before a malformed one, then stops there', async () => {
    const seen: number[] = [];
    const read = async () => {
      for await (const row of csvRows(input('a,b\n1,2\n3,4\n5,6,7\n8,9\n'), 'late.csv')) seen.push(row.number);
    };
    await expect(read()).rejects.toThrow(/late.csv is not valid CSV: .*line 4/);
    expect(seen).toEqual([1, 2]);
  });

  it('reads a JSON array of objects of scalars, and refuses anything else', async () => {
    const rows = await json('[{"id":1,"ok":true,"none":null,"__proto__":"p","n":1.50,"e":"a\\"b\\u00e9"}, {"id": 2, "id": 3}]');
    expect(rows[0]!.properties).toEqual([
      { name: 'id', value: '1', enabled: true },
      { name: 'ok', value: 'true', enabled: true },
      { name: 'none', value: '', enabled: true },
      { name: '__proto__', value: 'p', enabled: true },
      { name: 'n', value: '1.5', enabled: true },
      { name: 'e', value: 'a"bé', enabled: true },
    ]);
    // As JSON.parse: a repeated name keeps its first place and its last value.
    expect(rows[1]).toEqual({ number: 2, properties: [{ name: 'id', value: '3', enabled: true }] });
    await expect(json('{"id":1}')).rejects.toThrow(/must be a JSON array/);
    await expect(json('"rows"')).rejects.toThrow(/must be a JSON array/);
    await expect(json('[{"a":{"b":1}}]')).rejects.toThrow(/item 1, "a" is not a string/);
    await expect(json('[{"a":1},{"b":[1]}]')).rejects.toThrow(/item 2, "b" is not a string/);
    await expect(json('[1]')).rejects.toThrow(/item 1 is not an object/);
    await expect(json('[{"a":1},[]]')).rejects.toThrow(/item 2 is not an object/);
    await expect(json('[{"a":1},{"b":')).rejects.toThrow(/d.json is not valid JSON \(after item 1\)/);
    await expect(json('[{"a":1}')).rejects.toThrow(/d.json is not valid JSON \(after item 1\)/);
    expect(await json('\uFEFF[{"a":"é"}]')).toEqual([{ number: 1, properties: [{ name: 'a', value: 'é', enabled: true }] }]);
  });

  it('yields JSON items as they are read, before a malformed one', async () => {
    const seen: number[] = [];
    const read = async () => {
      for await (const row of jsonRows(input('[{"a":1},{"a":2},{"a":3} {"a":4}]'), 'late.json')) seen.push(row.number);
    };
    await expect(read()).rejects.toThrow(/late.json is not valid JSON \(after item 3\)/);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('refuses a row over the limit before holding it whole', async () => {
    const long = 'x'.repeat(MAX_ROW_CHARS + 10);
    await expect(json(`[{"a":"${long}"}]`, 'd.json', 64 * 1024)).rejects.toThrow(/item 1 is over 1 MB/);
    await expect(csv(`a\n${long}\n`, 'd.csv', 64 * 1024)).rejects.toThrow(/is not valid CSV: Max Record Size/);
  });

  it('opens a file by its extension, reads it again from its start, and tells how far it got', async () => {
    const file = join(work, 'rows.CSV');
    await writeFile(file, 'a\n1\n2\n');
    const source = await openDataFile(file);
    expect(source.rereadable).toBe(true);
    const fractions: (number | undefined)[] = [];
    for await (const row of source.rows()) fractions.push(row.number === 1 ? source.fraction() : undefined);
    expect(fractions[0]).toBeCloseTo(4 / 6);
    expect(source.fraction()).toBe(1);
    expect((await all(source.rows())).length).toBe(2);
    await writeFile(join(work, 'rows.txt'), 'a\n');
    await expect(openDataFile(join(work, 'rows.txt'))).rejects.toThrow(/give a .csv or a .json file/);
    await expect(openDataFile(join(work, 'none.csv'))).rejects.toThrow(/cannot be read \(ENOENT\)/);
    await expect(openDataFile(work)).rejects.toThrow(/is not a file/);
  });

  it('names a row by its number and first columns, credential-named ones masked', () => {
    expect(rowLabel({ number: 3, properties: [{ name: 'user', value: 'ann', enabled: true }, { name: 'password', value: 'hunter2', enabled: true }] })).toBe('row 3 (user=ann, password=••••••)');
  });
});
