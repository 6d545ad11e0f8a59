import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { entryOf, readHarEntries, type HarEntry } from './har-entries.js';

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'parley-har-entries-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

const response = (status: number, content: Record<string, unknown>, headers: unknown[] = []) => ({ request: { method: 'get', url: 'https://h/a?k=1' }, response: { status, headers, content } });

async function all(text: string | Buffer): Promise<HarEntry[]> {
  const file = join(dir, `${Math.random()}.har`);
  await writeFile(file, text);
  const out: HarEntry[] = [];
  for await (const entry of readHarEntries(file)) out.push(entry);
  return out;
}

test('base64 content is decoded; the Content-Type header wins over mimeType', () => {
  const entry = entryOf(response(200, { mimeType: 'text/plain', text: Buffer.from('{"a":1}').toString('base64'), encoding: 'base64' }, [{ name: 'content-type', value: 'application/json' }]), 3);
  expect('exchange' in entry && { ...entry.exchange, body: Buffer.from(entry.exchange.body).toString() }).toEqual({ method: 'GET', url: 'https://h/a?k=1', status: 200, contentType: 'application/json', body: '{"a":1}' });
});

test('no text but a recorded size: body missing; status 0: no response; no request: unreadable', () => {
  expect(entryOf(response(200, { mimeType: 'application/json', size: 40 }), 0)).toMatchObject({ bodyMissing: true, exchange: { size: 40 } });
  expect(entryOf(response(0, {}), 1)).toEqual({ index: 1, noResponse: true });
  expect(entryOf({ response: {} }, 2)).toEqual({ index: 2, error: 'log.entries[2].request is missing' });
  expect(entryOf({ request: { method: 'GET', url: 5 } }, 3)).toEqual({ index: 3, error: 'log.entries[3].request.url is a number, not a string' });
});

test('a body over 1 MiB keeps only its size and its start', () => {
  const entry = entryOf(response(200, { mimeType: 'application/json', text: `[${'1,'.repeat(600_000)}1]` }), 0);
  expect('exchange' in entry && [entry.exchange.size, entry.exchange.body.length]).toEqual([1_200_003, 64]);
});

test('entries stream out of a file with a byte order mark', async () => {
  const har = JSON.stringify({ log: { version: '1.2', entries: [response(200, { text: '{}' }), response(204, {})] } });
  const entries = await all(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(har)]));
  expect(entries.map((e) => e.index)).toEqual([0, 1]);
});

test('a file that is not a HAR, or is cut short, is refused after the entries read so far', async () => {
  await expect(all('{"hello":1}')).rejects.toThrow(/is not a readable HAR capture: it has no log object/);
  const cut = JSON.stringify({ log: { version: '1.2', entries: [response(200, { text: '{}' }), response(200, { text: '{}' })] } }).slice(0, -30);
  const read: number[] = [];
  await expect(
    (async () => {
      const file = join(dir, 'cut.har');
      await writeFile(file, cut);
      for await (const entry of readHarEntries(file)) read.push(entry.index);
    })(),
  ).rejects.toThrow(/it ends before its JSON is complete/);
  expect(read).toEqual([0]);
});
