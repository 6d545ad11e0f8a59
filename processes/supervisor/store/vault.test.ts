/**
 * The vault file and its store: a round trip, a wrong passphrase, a changed file, entry or
 * header refused (and never overwritten), and a write that fails part-way leaving the old file.
 */
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeFs, type FsOps } from './atomic.js';
import { VAULT_FILE, VaultFile, type KdfParams } from './vault-file.js';
import { VaultSecrets } from './vault-secrets.js';
import { WorkspaceSecrets } from './workspace-secrets.js';
import { MapSecrets } from '../cookies/test-support/map-secrets.js';

/** The smallest cost a header may name: the format and checks are the same, the test is quicker. */
const KDF: KdfParams = { N: 2 ** 14, r: 8, p: 1 };
const PASS = 'correct horse battery';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-vault-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The header's end: magic (13 bytes), a 2-byte length, the JSON. */
function headerEnd(file: Buffer): number {
  return 13 + 2 + file.readUInt16BE(13);
}

describe('the vault file', () => {
  it('reads back what it sealed, and holds no secret or name in clear', async () => {
    const vault = new VaultSecrets(dir, { kdf: KDF });
    await vault.create(PASS);
    await vault.set('request/r_1/password', 'hunter2-pw-value');
    await vault.set('staging-eu/apiToken', 'tok-ü-€-value');
    vault.lock();
    await expect(vault.get('staging-eu/apiToken')).rejects.toMatchObject({ code: 'vault-locked' });

    const again = new VaultSecrets(dir);
    await again.unlock(PASS);
    await expect(again.get('request/r_1/password')).resolves.toBe('hunter2-pw-value');
    await expect(again.get('staging-eu/apiToken')).resolves.toBe('tok-ü-€-value');
    await expect(again.get('missing')).resolves.toBeNull();
    await again.delete('request/r_1/password');
    await expect(again.get('request/r_1/password')).resolves.toBeNull();

    const bytes = await readFile(join(dir, VAULT_FILE));
    // Only its owner may read it, from the first write on (made 0600, not changed after).
    expect((await stat(join(dir, VAULT_FILE))).mode & 0o777).toBe(0o600);
    for (const clear of ['hunter2-pw-value', 'tok-', 'apiToken', 'request/r_1', PASS]) expect(bytes.includes(clear)).toBe(false);
    // The header says how the key was made: scrypt's parameters and salt, in the file.
    const header = JSON.parse(bytes.subarray(15, headerEnd(bytes)).toString('utf8')) as Record<string, unknown>;
    expect(header).toMatchObject({ v: 1, kdf: 'scrypt', N: KDF.N, r: KDF.r, p: KDF.p, cipher: 'aes-256-gcm' });
    expect(Buffer.from(header.salt as string, 'base64').length).toBe(16);
  });

  it('a wrong passphrase is said so and changes nothing', async () => {
    const vault = new VaultSecrets(dir, { kdf: KDF });
    await vault.create(PASS);
    await vault.set('apiToken', 'value-1');
    const before = await readFile(join(dir, VAULT_FILE));
    const other = new VaultSecrets(dir);
    await expect(other.unlock('not the passphrase')).rejects.toMatchObject({ code: 'vault-passphrase', message: 'Wrong passphrase: the vault was not unlocked.' });
    expect(other.unlocked).toBe(false);
    await expect(other.get('apiToken')).rejects.toMatchObject({ code: 'vault-locked' });
    expect((await readFile(join(dir, VAULT_FILE))).equals(before)).toBe(true);
    // The one that was unlocked stays unlocked.
    await expect(vault.get('apiToken')).resolves.toBe('value-1');
  });

  it('never makes a vault over an existing file, and asks for a passphrase of 8 characters', async () => {
    const vault = new VaultSecrets(dir, { kdf: KDF });
    await expect(vault.create('short')).rejects.toMatchObject({ code: 'bad-input' });
    await vault.create(PASS);
    const before = await readFile(join(dir, VAULT_FILE));
    await expect(new VaultSecrets(dir, { kdf: KDF }).create('another passphrase')).rejects.toMatchObject({ code: 'vault-exists' });
    expect((await readFile(join(dir, VAULT_FILE))).equals(before)).toBe(true);
  });

  describe('a changed file is refused, with a message, and never overwritten', () => {
    async function sealedVault(): Promise<{ file: string; bytes: Buffer }> {
      const vault = new VaultSecrets(dir, { kdf: KDF });
      await vault.create(PASS);
      await vault.set('apiToken', 'the-token-value');
      await vault.set('other', 'the-other-value');
      const file = join(dir, VAULT_FILE);
      return { file, bytes: await readFile(file) };
    }

    /** Rewrites the closing checksum, as someone changing the file on purpose would. */
    async function withChecksum(bytes: Buffer): Promise<Buffer> {
      const { createHash } = await import('node:crypto');
      const body = bytes.subarray(0, bytes.length - 32);
      return Buffer.concat([body, createHash('sha256').update(body).digest()]);
    }

    async function refusedAndKept(file: string, changed: Buffer, message: RegExp, code = 'vault-damaged'): Promise<void> {
      await writeFile(file, changed);
      const vault = new VaultSecrets(dir);
      await expect(vault.unlock(PASS)).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
      expect((await readFile(file)).equals(changed)).toBe(true);
    }

    it('a changed byte of an entry (the ciphertext), even with its checksum made to match', async () => {
      const { file, bytes } = await sealedVault();
      const changed = Buffer.from(bytes);
      const at = headerEnd(bytes) + 12 + 16 + 3;
      changed[at] = changed[at]! ^ 0x01;
      await refusedAndKept(file, changed, /checksum/);
      await refusedAndKept(file, await withChecksum(changed), /was changed since Parley wrote it.*will not read or overwrite it/);
    });

    it('a changed tag, or the file cut short', async () => {
      const { file, bytes } = await sealedVault();
      const changed = Buffer.from(bytes);
      changed[headerEnd(bytes) + 12] = changed[headerEnd(bytes) + 12]! ^ 0x80;
      await refusedAndKept(file, await withChecksum(changed), /was changed since Parley wrote it/);
      await refusedAndKept(file, bytes.subarray(0, 40), /cut short/);
      await refusedAndKept(file, Buffer.from('not a vault at all'), /not a Parley vault/);
    });

    it('a header whose scrypt parameters were changed: refused (by the tag, the check, or as out of range)', async () => {
      const { file, bytes } = await sealedVault();
      const end = headerEnd(bytes);
      const header = JSON.parse(bytes.subarray(15, end).toString('utf8')) as Record<string, unknown>;
      const rebuilt = async (patch: Record<string, unknown>) => {
        const json = Buffer.from(JSON.stringify({ ...header, ...patch }), 'utf8');
        const length = Buffer.alloc(2);
        length.writeUInt16BE(json.length);
        return withChecksum(Buffer.concat([bytes.subarray(0, 13), length, json, bytes.subarray(end)]));
      };
      // The same key from other parameters is impossible: a changed N or salt gives another key, whose check fails.
      await refusedAndKept(file, await rebuilt({ N: 2 ** 15 }), /^Wrong passphrase/, 'vault-passphrase');
      // A header asking scrypt for gigabytes, or a format Parley does not read, is not even tried.
      await refusedAndKept(file, await rebuilt({ N: 2 ** 24 }), /scrypt N .* is not a power of two from 2\^14 to 2\^20/);
      await refusedAndKept(file, await rebuilt({ r: 4096 }), /r or p is out of range/);
      await refusedAndKept(file, await rebuilt({ cipher: 'aes-128-cbc' }), /cipher Parley does not use/);
      // A header changed but for the same key (a field added): the header is authenticated data, so the tag fails.
      await refusedAndKept(file, await rebuilt({ note: 'x' }), /was changed since Parley wrote it/);
    });

    it('an unlocked vault whose file was changed on disk refuses to write over it', async () => {
      const { file } = await sealedVault();
      const vault = new VaultSecrets(dir);
      await vault.unlock(PASS);
      const bytes = await readFile(file);
      const changed = Buffer.from(bytes);
      const at = headerEnd(bytes) + 40;
      changed[at] = changed[at]! ^ 0x10;
      const damaged = await withChecksum(changed);
      await writeFile(file, damaged);
      await expect(vault.set('apiToken', 'new-value')).rejects.toMatchObject({ code: 'vault-damaged' });
      expect((await readFile(file)).equals(damaged)).toBe(true);
    });
  });

  it('a write that fails part-way leaves the old file, readable, and the entries as they were', async () => {
    let failRename = false;
    const fs: FsOps = {
      ...nodeFs,
      rename: async (from, to) => {
        if (failRename && to.endsWith(VAULT_FILE)) throw Object.assign(new Error('injected: disk full'), { code: 'ENOSPC' });
        return nodeFs.rename(from, to);
      },
    };
    const vault = new VaultSecrets(dir, { kdf: KDF, fs });
    await vault.create(PASS);
    await vault.set('apiToken', 'old-value');
    const before = await readFile(join(dir, VAULT_FILE));
    failRename = true;
    await expect(vault.set('apiToken', 'new-value')).rejects.toMatchObject({ code: 'save-failed' });
    await expect(vault.set('another', 'value')).rejects.toMatchObject({ code: 'save-failed' });
    expect((await readFile(join(dir, VAULT_FILE))).equals(before)).toBe(true);
    await expect(vault.get('apiToken')).resolves.toBe('old-value');
    await expect(vault.get('another')).resolves.toBeNull();
    // No temp file or journal is left beside it.
    expect((await readdir(dir)).sort()).toEqual([VAULT_FILE]);
    const reopened = new VaultSecrets(dir);
    await reopened.unlock(PASS);
    await expect(reopened.get('apiToken')).resolves.toBe('old-value');
    failRename = false;
    await vault.set('apiToken', 'new-value');
    await expect(new VaultFile(dir).unlock(PASS).then((v) => v.entries.get('apiToken'))).resolves.toBe('new-value');
  });

  it("keeps another process's write: a second store's change is read before this one writes", async () => {
    const first = new VaultSecrets(dir, { kdf: KDF });
    await first.create(PASS);
    const second = new VaultSecrets(dir);
    await second.unlock(PASS);
    await second.set('from-second', 'value-2');
    await first.set('from-first', 'value-1');
    await expect(first.get('from-second')).resolves.toBe('value-2');
    await expect(second.get('from-first')).resolves.toBe('value-1');
  });

  it('unlocks with the passphrase from the environment once, and says which variable was wrong', async () => {
    await new VaultSecrets(dir, { kdf: KDF }).create(PASS);
    let given: string | undefined = 'wrong passphrase here';
    const cli = new VaultSecrets(dir, { passphrase: () => given });
    await expect(cli.get('x')).rejects.toMatchObject({ code: 'vault-passphrase', message: expect.stringMatching(/^PARLEY_VAULT_PASSPHRASE does not unlock the vault .*: wrong passphrase\.$/) });
    given = undefined;
    const without = new VaultSecrets(dir, { passphrase: () => given });
    await expect(without.get('x')).rejects.toMatchObject({ code: 'vault-locked', message: expect.stringContaining('set PARLEY_VAULT_PASSPHRASE to its passphrase') });
    given = PASS;
    await expect(new VaultSecrets(dir, { passphrase: () => given }).get('x')).resolves.toBeNull();
  });
});

describe('the workspace store picks its backend', () => {
  it('the keychain when there is one and no vault; none without either; the vault once made, even if a keychain appears', async () => {
    const keychain = new MapSecrets();
    const store = new WorkspaceSecrets(dir, { keychain, kdf: KDF });
    await expect(store.status()).resolves.toMatchObject({ backend: 'keychain', available: true });
    await expect(store.createVault(PASS)).rejects.toMatchObject({ code: 'bad-input' });

    keychain.unavailable = 'No secure storage on this system: (test)';
    const none = new WorkspaceSecrets(dir, { keychain, kdf: KDF });
    await expect(none.status()).resolves.toMatchObject({ backend: 'none', available: false });
    await expect(none.has(['a'])).resolves.toEqual({ found: [], missing: ['a'], unknown: [] });
    const seen: string[] = [];
    none.onChange((s) => seen.push(`${s.backend}:${s.locked}`));
    await none.createVault(PASS);
    await none.set('a', 'value-a');
    expect(keychain.map.size).toBe(0);
    await expect(none.has(['a', 'b'])).resolves.toEqual({ found: ['a'], missing: ['b'], unknown: [] });
    await none.lockVault();
    await expect(none.status()).resolves.toMatchObject({ backend: 'vault', locked: true, available: false });
    await expect(none.has(['a'])).resolves.toEqual({ found: [], missing: [], unknown: ['a'] });
    await expect(none.unlockVault('wrong passphrase')).rejects.toMatchObject({ code: 'vault-passphrase' });
    await none.unlockVault(PASS);
    expect(seen).toEqual(['vault:false', 'vault:true', 'vault:false']);

    keychain.unavailable = null;
    const later = new WorkspaceSecrets(dir, { keychain });
    await expect(later.backend()).resolves.toBe('vault');
  });
});
