import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../protocol/errors.js';
import { JAR_KEY_NAME, JarFile, openJar, sealJar } from './jar-file.js';
import type { JarRecord } from './jar.js';
import { MapSecrets } from './test-support/map-secrets.js';

const record: JarRecord = { name: 'sid', value: 'the-cookie-value-41d8', domain: 'example.com', path: '/', hostOnly: true, secure: true, httpOnly: true, expires: Date.parse('2030-01-01'), created: Date.parse('2026-01-01') };
const key = Buffer.alloc(32, 7);

function unreadable(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(hasCode(err, 'jar-unreadable')).toBe(true);
    return (err as Error).message;
  }
  throw new Error('it was read');
}

describe('sealJar / openJar', () => {
  it('round-trips, and the value is nowhere in the sealed bytes', () => {
    const sealed = sealJar([record], key);
    expect(sealed.includes(Buffer.from(record.value))).toBe(false);
    expect(sealed.includes(Buffer.from('example.com'))).toBe(false);
    expect(openJar(sealed, key)).toEqual([record]);
  });

  it('refuses a changed byte, a cut file, another key and a foreign file', () => {
    const sealed = sealJar([record], key);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 3]! ^= 1;
    expect(unreadable(() => openJar(flipped, key))).toContain('changed');
    expect(unreadable(() => openJar(sealed.subarray(0, sealed.length - 5), key))).toContain('changed');
    expect(unreadable(() => openJar(sealed, Buffer.alloc(32, 8)))).toContain('changed');
    expect(unreadable(() => openJar(Buffer.from('{"v":1,"cookies":[]}'), key))).toContain('not a Parley cookie jar');
  });

  it('refuses sealed content that is not a jar', () => {
    const sealedOther = sealJar([{ ...record, expires: 'soon' } as unknown as JarRecord], key);
    expect(unreadable(() => openJar(sealedOther, key))).toMatch(/expires/);
  });
});

describe('JarFile', () => {
  it('makes its key in the keychain on first write, and reads back what it wrote', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-jar-file-'));
    const secrets = new MapSecrets();
    const file = new JarFile(dir, secrets);
    await expect(file.read()).resolves.toEqual([]);
    await file.write([record]);
    expect(Buffer.from(secrets.map.get(JAR_KEY_NAME)!, 'base64')).toHaveLength(32);
    expect((await readFile(file.path)).includes(Buffer.from(record.value))).toBe(false);
    await expect(new JarFile(dir, secrets).read()).resolves.toEqual([record]);
  });

  it('says the key is gone when the keychain lost it, and does not make a new one to read with', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-jar-file-'));
    const secrets = new MapSecrets();
    await new JarFile(dir, secrets).write([record]);
    secrets.map.clear();
    await expect(new JarFile(dir, secrets).read()).rejects.toThrow(/key is no longer in the secret store/);
    expect(secrets.map.size).toBe(0);
  });

  it('refuses a file someone replaced', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-jar-file-'));
    const secrets = new MapSecrets();
    const file = new JarFile(dir, secrets);
    await file.write([record]);
    await writeFile(file.path, sealJar([record], Buffer.alloc(32, 9)));
    await expect(file.read()).rejects.toThrow(/could not be read/);
  });
});
