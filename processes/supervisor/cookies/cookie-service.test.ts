import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../../../test/support/until.js';
import { CookieService } from './cookie-service.js';
import { JAR_FILE } from './jar-file.js';
import { MapSecrets } from './test-support/map-secrets.js';

const VALUE = 'persist-me-7f3a9c';
const URL_ = 'https://shop.example.com/login';

async function service(secrets: MapSecrets, dir?: string) {
  const dataDir = dir ?? (await mkdtemp(join(tmpdir(), 'parley-cookie-service-')));
  const logs: string[] = [];
  const changes: number[] = [];
  const cookies = new CookieService({ dataDir, secrets, log: (l) => logs.push(l), onChange: (n) => changes.push(n), saveDelayMs: 10 });
  return { cookies, dataDir, logs, changes };
}

describe('CookieService', () => {
  it('writes cookies with an expiry soon after they arrive, never session cookies, and reads them back', async () => {
    const secrets = new MapSecrets();
    const a = await service(secrets);
    const outcomes = await a.cookies.received(URL_, [`keep=${VALUE}; Path=/; Max-Age=3600`, 'session=only-in-memory; Path=/']);
    expect(outcomes.map((o) => [o.name, o.outcome, o.persisted])).toEqual([
      ['keep', 'stored', true],
      ['session', 'stored', undefined],
    ]);
    expect(a.changes).toEqual([2]);
    const file = join(a.dataDir, JAR_FILE);
    await until(async () => (await readFile(file).catch(() => null)) !== null);
    const bytes = await readFile(file);
    expect(bytes.includes(Buffer.from(VALUE))).toBe(false);
    expect(bytes.includes(Buffer.from('only-in-memory'))).toBe(false);
    const b = await service(secrets, a.dataDir);
    expect((await b.cookies.list(true)).map((c) => [c.name, c.value])).toEqual([['keep', VALUE]]);
    expect(await b.cookies.status()).toEqual({ persistent: true });
    expect(a.logs.join('\n')).not.toContain(VALUE);
  });

  it('writes nothing at all without secure storage, and says so', async () => {
    const secrets = new MapSecrets();
    secrets.unavailable = 'No secure storage: the system keychain is not available (no D-Bus).';
    const a = await service(secrets);
    const [outcome] = await a.cookies.received(URL_, [`keep=${VALUE}; Max-Age=3600`]);
    expect(outcome).toMatchObject({ outcome: 'stored', persisted: false });
    await a.cookies.flush();
    expect(await readdir(a.dataDir)).toEqual([]);
    expect(secrets.map.size).toBe(0);
    expect(await a.cookies.status()).toEqual({ persistent: false, message: expect.stringMatching(/^No secure storage.*nothing is written/) });
  });

  it('never overwrites a jar file it could not read because the keychain failed', async () => {
    const secrets = new MapSecrets();
    const a = await service(secrets);
    await a.cookies.received(URL_, [`keep=${VALUE}; Max-Age=3600`]);
    await a.cookies.flush();
    const before = await readFile(join(a.dataDir, JAR_FILE));
    secrets.failReads = true;
    const b = await service(secrets, a.dataDir);
    expect(await b.cookies.status()).toMatchObject({ persistent: false, message: expect.stringContaining('locked') });
    await b.cookies.received(URL_, ['other=1; Max-Age=3600']);
    await b.cookies.flush();
    expect(await readFile(join(a.dataDir, JAR_FILE))).toEqual(before);
  });

  it('starts empty over a jar file it cannot open, says so, and replaces the file at the next save', async () => {
    const secrets = new MapSecrets();
    const dir = await mkdtemp(join(tmpdir(), 'parley-cookie-service-'));
    await writeFile(join(dir, JAR_FILE), 'not a jar');
    const a = await service(secrets, dir);
    expect(await a.cookies.status()).toMatchObject({ persistent: true, message: expect.stringContaining('started empty') });
    await a.cookies.received(URL_, ['fresh=1; Max-Age=3600']);
    await a.cookies.flush();
    expect(await a.cookies.status()).toEqual({ persistent: true });
    const b = await service(secrets, dir);
    expect((await b.cookies.list(false)).map((c) => c.name)).toEqual(['fresh']);
  });

  it('writes a delete, an edit and Clear all', async () => {
    const secrets = new MapSecrets();
    const a = await service(secrets);
    await a.cookies.received(URL_, ['a=1; Path=/; Max-Age=3600', 'b=1; Path=/; Max-Age=3600']);
    await a.cookies.received(URL_, ['a=; Path=/; Max-Age=0']);
    await a.cookies.put({ domain: 'shop.example.com', path: '/', name: 'c', value: 'typed', hostOnly: true, secure: false, httpOnly: false, expires: new Date(Date.now() + 60_000).toISOString() });
    await a.cookies.flush();
    expect((await (await service(secrets, a.dataDir)).cookies.list(false)).map((c) => c.name)).toEqual(['b', 'c']);
    await a.cookies.clear();
    await a.cookies.flush();
    expect(await (await service(secrets, a.dataDir)).cookies.list(false)).toEqual([]);
  });

  it('refuses a URL that is not http or https', async () => {
    const a = await service(new MapSecrets());
    await expect(a.cookies.received('ftp://example.com/', ['a=1'])).rejects.toThrow(/http and https only/);
    await expect(a.cookies.cookieHeader('not a url')).rejects.toThrow(/does not parse/);
  });
});
