import { mkdtemp, readFile, utimes, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadCache, packCache, unpackCache, type Entry } from './load-cache.js';
import { ProjectStore } from './project-store.js';

const entryPackr = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false });
const later = () => Date.now() + 60_000; // files written by a test are "racy" to the real clock
const open: ProjectStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function project() {
  const dir = await mkdtemp(join(tmpdir(), 'parley-cache-'));
  const cacheFile = join(dir, '..', `${dir.split('/').pop()}-cache`, 'p.msgpack');
  const store = await ProjectStore.open(dir, { create: true, name: 'Cached' });
  const api = await store.createApi({ name: 'A', baseUrl: '' });
  const a = await store.createRequest({ parent: api.id, name: 'First', method: 'GET', url: '/first' });
  const b = await store.createRequest({ parent: api.id, name: 'Second', method: 'GET', url: '/second' });
  await store.close();
  const fileOf = (name: string) => join(dir, 'apis', 'A', 'requests', `${name}.request.yaml`);
  const openCached = async (version = '1.0.0') => {
    const s = await ProjectStore.open(dir, { loadCache: { file: cacheFile, version, now: later } });
    open.push(s);
    return s;
  };
  return { dir, cacheFile, a, b, fileOf, openCached };
}

type Entries = Map<string, Entry>;

/** Closes the store, which saves its cache, and returns the entries saved. */
async function saved(store: ProjectStore, cacheFile: string, version = '1.0.0'): Promise<Entries> {
  await store.close();
  return (await unpackCache(await readFile(cacheFile), version)) ?? new Map();
}

/** Rewrites the url cached for an entry, in its text and its value, keeping its stamp. */
function plantUrl(entry: { data: Uint8Array }, url: string): void {
  const data = entryPackr.unpack(entry.data) as { text: string; value: { url: string } };
  const text = data.text.replace(/^url: .*$/m, `url: ${url}`);
  expect(text).not.toBe(data.text);
  entry.data = entryPackr.pack({ text, value: { ...data.value, url } });
}

describe('the load cache', () => {
  it('a reopen takes unchanged files from the cache: a cached value planted under an unchanged stamp is what loads', async () => {
    const { cacheFile, b, fileOf, openCached } = await project();
    const entries = await saved(await openCached(), cacheFile);
    expect([...entries.keys()].sort()).toEqual([fileOf('First'), fileOf('Second')].sort());
    // Plant a different value for Second with its real stamp: only a cache hit can load it.
    plantUrl(entries.get(fileOf('Second'))!, '/from-the-cache');
    await writeFile(cacheFile, packCache('1.0.0', entries));
    const again = await openCached();
    expect(again.getRequest(b.id).url).toBe('/from-the-cache');
  });

  it('caches a file as it was read: a later change to the object in memory does not reach the cache', async () => {
    const { cacheFile, a, openCached } = await project();
    const store = await openCached();
    store.getRequest(a.id).url = '/changed-in-memory-only';
    await saved(store, cacheFile);
    const again = await openCached();
    expect(again.getRequest(a.id).url).toBe('/first');
  });

  it('reads a file again once it changed, even at the same size and with its mtime set back', async () => {
    const { cacheFile, a, fileOf, openCached } = await project();
    await saved(await openCached(), cacheFile);
    const file = fileOf('First');
    const before = await stat(file);
    await writeFile(file, (await readFile(file, 'utf8')).replace('/first', '/fir5t'));
    await utimes(file, before.atime, before.mtime);
    expect((await stat(file)).size).toBe(before.size);
    const again = await openCached();
    expect(again.getRequest(a.id).url).toBe('/fir5t');
  });

  it('keeps nothing written within the last two seconds (a second write in the same timestamp tick could go unseen)', async () => {
    const { dir, cacheFile, fileOf } = await project();
    const store = await ProjectStore.open(dir, { loadCache: { file: cacheFile, version: '1.0.0' } });
    open.push(store);
    const entries = await saved(store, cacheFile);
    expect(entries.get(fileOf('First'))).toBeUndefined();
    const stamp = LoadCache.stamp(fileOf('First'));
    expect(stamp?.racy).toBe(true);
    expect(LoadCache.stamp(fileOf('First'), later())?.racy).toBe(false);
  });

  it('ignores a cache of another Parley version, a corrupt one and a missing one, and loads every file', async () => {
    const { cacheFile, a, b, openCached } = await project();
    const entries = await saved(await openCached('0.9.0'), cacheFile, '0.9.0');
    expect(entries.size).toBe(2);
    for (const entry of entries.values()) plantUrl(entry, '/stale');
    await writeFile(cacheFile, packCache('0.9.0', entries));
    const other = await openCached('1.0.0');
    expect([other.getRequest(a.id).url, other.getRequest(b.id).url]).toEqual(['/first', '/second']);
    await other.close();
    await writeFile(cacheFile, 'not msgpack at all');
    const corrupt = await openCached('1.0.0');
    expect(corrupt.getRequest(a.id).url).toBe('/first');
    await corrupt.close();
    const whole = await readFile(cacheFile);
    expect((await unpackCache(whole, '1.0.0'))?.size).toBe(2);
    await writeFile(cacheFile, whole.subarray(0, whole.byteLength - 10)); // cut short
    expect(await unpackCache(await readFile(cacheFile), '1.0.0')).toBeNull();
    const truncated = await openCached('1.0.0');
    expect([truncated.getRequest(a.id).url, truncated.getRequest(b.id).url]).toEqual(['/first', '/second']);
  });

  it('reads the file when its cached data is damaged', async () => {
    const { cacheFile, a, b, fileOf, openCached } = await project();
    const entries = await saved(await openCached(), cacheFile);
    entries.get(fileOf('First'))!.data = new Uint8Array([0xc1, 0xff, 0x00]);
    await writeFile(cacheFile, packCache('1.0.0', entries));
    const again = await openCached();
    expect([again.getRequest(a.id).url, again.getRequest(b.id).url]).toEqual(['/first', '/second']);
    expect(again.tree().problems).toEqual([]);
  });

  it('does not keep a file with problems, so its problems are found again', async () => {
    const { cacheFile, fileOf, openCached } = await project();
    await writeFile(fileOf('Second'), 'version: 1\nid: [broken\n');
    const store = await openCached();
    expect(store.tree().problems.map((p) => p.rule)).toEqual(['yaml-syntax']);
    const entries = await saved(store, cacheFile);
    expect(entries.get(fileOf('Second'))).toBeUndefined();
    const again = await openCached();
    expect(again.tree().problems.map((p) => p.rule)).toEqual(['yaml-syntax']);
  });
});

describe('the load cache file', () => {
  const many = (count: number): Entries =>
    new Map(Array.from({ length: count }, (_, i) => [`/p/requests/r${i}.request.yaml`, { stamp: `${i}:1:2:3`, data: entryPackr.pack({ text: `t${i}`, value: { i } }) }]));

  it('keeps every entry of an index in several parts (1,201 files: three parts), each data with its own file', async () => {
    const entries = many(1_201);
    const back = await unpackCache(packCache('1.0.0', entries), '1.0.0');
    expect(back?.size).toBe(1_201);
    for (const i of [0, 499, 500, 1_000, 1_200]) {
      const path = `/p/requests/r${i}.request.yaml`;
      expect(back!.get(path)!.stamp).toBe(`${i}:1:2:3`);
      expect(entryPackr.unpack(back!.get(path)!.data)).toEqual({ text: `t${i}`, value: { i } });
    }
  });

  it('refuses a file whose parts or data run past its end, and one with no parts list', async () => {
    const whole = packCache('1.0.0', many(600));
    expect(await unpackCache(whole.subarray(0, whole.byteLength - 1), '1.0.0')).toBeNull();
    const head = new Packr({ useRecords: true, mapsAsObjects: true, moreTypes: false }).pack({ format: 2, version: '1.0.0', parts: [10 ** 9] });
    const length = Buffer.alloc(4);
    length.writeUInt32BE(head.byteLength);
    expect(await unpackCache(Buffer.concat([length, head]), '1.0.0')).toBeNull();
    const noParts = new Packr({ useRecords: true, mapsAsObjects: true, moreTypes: false }).pack({ format: 2, version: '1.0.0' });
    length.writeUInt32BE(noParts.byteLength);
    expect(await unpackCache(Buffer.concat([length, noParts]), '1.0.0')).toBeNull();
  });
});
