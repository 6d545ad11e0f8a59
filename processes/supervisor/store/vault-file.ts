/**
 * The vault file: the workspace's secrets sealed under a key derived from a passphrase, for
 * systems with no keychain (docs/secrets.md, "The vault"). It lives in the workspace's data
 * folder, never in a project folder. Layout:
 *
 *   `PARLEY-VAULT\x01`   magic and format version (13 bytes)
 *   u16 big-endian       length of the header
 *   header               JSON: {"v":1,"kdf":"scrypt","N","r","p","salt","cipher":"aes-256-gcm","check"}
 *   IV                   12 random bytes, new at every write
 *   tag                  the 16-byte GCM tag
 *   ciphertext           AES-256-GCM of {"v":1,"entries":[[name, value], ...]}
 *   SHA-256              of every byte before it
 *
 * scrypt(passphrase NFC, salt, N, r, p) gives 64 bytes: the first 32 are the AES key, the last 32
 * make `check` (HMAC-SHA256 over the magic), which tells a wrong passphrase from a changed file.
 * The header (magic, length and header JSON) is the additional authenticated data, so its
 * parameters cannot be changed without the tag failing. The whole set of entries is sealed at
 * once: no entry can be dropped, swapped or rolled back alone, and a write is one file.
 * The closing SHA-256 only tells accidental damage (a cut, a flipped bit) from a wrong passphrase.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';
import { commitFiles, nodeFs, type FsOps } from './atomic.js';

export const VAULT_FILE = 'secrets.vault';

const MAGIC = Buffer.from('PARLEY-VAULT\x01', 'latin1');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const DIGEST_BYTES = 32;
const SALT_BYTES = 16;
const MAX_HEADER = 1024;
/** A vault holds names and small values; a file past this is not one of ours. */
const MAX_FILE = 32 * 1024 * 1024;
const CHECK_INPUT = MAGIC;

export interface KdfParams {
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP's scrypt setting: 2^17 iterations with r=8, p=1 needs 128 MiB and takes a few tenths of a
 * second, paid once per unlock (writes reuse the key).
 */
export const DEFAULT_KDF: KdfParams = { N: 2 ** 17, r: 8, p: 1 };

/** What a header may ask for: a changed header cannot make scrypt run for minutes or take gigabytes. */
const KDF_LIMITS = { minN: 2 ** 14, maxN: 2 ** 20, maxR: 16, maxP: 4, maxMemory: 256 * 1024 * 1024 };

export const MIN_PASSPHRASE = 8;

interface Header {
  v: 1;
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  cipher: 'aes-256-gcm';
  check: string;
}

/** The keys of an unlocked vault: held in memory only, and zeroed when it is locked. */
export interface VaultKey {
  readonly aes: Buffer;
  readonly header: Buffer;
}

function damaged(path: string, why: string): ParleyError {
  return new ParleyError(
    'vault-damaged',
    `The vault file ${path} cannot be read: ${why}. Parley will not read or overwrite it. Restore it from a backup, or move it away to start a new vault (the secrets in it are then lost).`,
    { file: path },
  );
}

export function scryptMemory({ N, r, p }: KdfParams): number {
  return 128 * N * r + 128 * r * p + 1024 * 1024;
}

async function deriveKeys(passphrase: string, salt: Buffer, params: KdfParams): Promise<{ aes: Buffer; check: Buffer }> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: scryptMemory(params) };
  // The async form runs on libuv's pool: the supervisor goes on answering meanwhile.
  const out = await new Promise<Buffer>((resolve, reject) => scryptCb(passphrase.normalize('NFC'), salt, 64, options, (err, key) => (err ? reject(err) : resolve(key))));
  const aes = Buffer.from(out.subarray(0, 32));
  const check = createHmac('sha256', out.subarray(32)).update(CHECK_INPUT).digest();
  out.fill(0);
  return { aes, check };
}

function headerBytes(header: Header): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(json.length);
  return Buffer.concat([MAGIC, length, json]);
}

/** The header's bytes and fields, checked before any work is done with them. */
function readHeader(path: string, file: Buffer): { header: Header; bytes: Buffer; rest: Buffer } {
  if (file.length < MAGIC.length + 2 || !file.subarray(0, MAGIC.length).equals(MAGIC)) throw damaged(path, 'it is not a Parley vault');
  if (file.length < MAGIC.length + 2 + IV_BYTES + TAG_BYTES + DIGEST_BYTES) throw damaged(path, 'it is cut short');
  const body = file.subarray(0, file.length - DIGEST_BYTES);
  const digest = createHash('sha256').update(body).digest();
  if (!timingSafeEqual(digest, file.subarray(file.length - DIGEST_BYTES))) throw damaged(path, 'it was cut short or changed on disk (its checksum does not match)');
  const length = file.readUInt16BE(MAGIC.length);
  const end = MAGIC.length + 2 + length;
  if (length > MAX_HEADER || end + IV_BYTES + TAG_BYTES > body.length) throw damaged(path, 'its header is malformed');
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.subarray(MAGIC.length + 2, end).toString('utf8'));
  } catch {
    throw damaged(path, 'its header is not JSON');
  }
  const header = checkHeader(parsed);
  if (typeof header === 'string') throw damaged(path, header);
  return { header, bytes: file.subarray(0, end), rest: body.subarray(end) };
}

function checkHeader(value: unknown): Header | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'its header is not an object';
  const h = value as Record<string, unknown>;
  const own = (key: string) => (Object.hasOwn(h, key) ? h[key] : undefined);
  if (own('v') !== 1) return `its format version ${JSON.stringify(own('v'))} is not one this Parley reads`;
  if (own('kdf') !== 'scrypt' || own('cipher') !== 'aes-256-gcm') return 'it names a key derivation or cipher Parley does not use';
  const N = own('N');
  const r = own('r');
  const p = own('p');
  if (!Number.isInteger(N) || !Number.isInteger(r) || !Number.isInteger(p)) return 'its scrypt parameters are not whole numbers';
  const params = { N: N as number, r: r as number, p: p as number };
  if (params.N < KDF_LIMITS.minN || params.N > KDF_LIMITS.maxN || (params.N & (params.N - 1)) !== 0) return `its scrypt N (${params.N}) is not a power of two from 2^14 to 2^20`;
  if (params.r < 1 || params.r > KDF_LIMITS.maxR || params.p < 1 || params.p > KDF_LIMITS.maxP) return 'its scrypt r or p is out of range';
  if (128 * params.N * params.r > KDF_LIMITS.maxMemory) return 'its scrypt parameters ask for more than 256 MiB';
  const salt = own('salt');
  const check = own('check');
  if (typeof salt !== 'string' || Buffer.from(salt, 'base64').length < SALT_BYTES) return 'its salt is missing or too short';
  if (typeof check !== 'string' || Buffer.from(check, 'base64').length !== 32) return 'its passphrase check is malformed';
  return { v: 1, kdf: 'scrypt', ...params, salt, cipher: 'aes-256-gcm', check };
}

function seal(key: VaultKey, entries: ReadonlyMap<string, string>): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.aes, iv);
  cipher.setAAD(key.header);
  const content = Buffer.from(JSON.stringify({ v: 1, entries: [...entries] }), 'utf8');
  const sealed = Buffer.concat([cipher.update(content), cipher.final()]);
  content.fill(0);
  const body = Buffer.concat([key.header, iv, cipher.getAuthTag(), sealed]);
  return Buffer.concat([body, createHash('sha256').update(body).digest()]);
}

function unseal(path: string, key: VaultKey, rest: Buffer): Map<string, string> {
  const iv = rest.subarray(0, IV_BYTES);
  const tag = rest.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key.aes, iv);
  decipher.setAAD(key.header);
  decipher.setAuthTag(tag);
  let text: Buffer;
  try {
    text = Buffer.concat([decipher.update(rest.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw damaged(path, 'it was changed since Parley wrote it (its contents do not authenticate)');
  }
  let content: unknown;
  try {
    content = JSON.parse(text.toString('utf8'));
  } catch {
    throw damaged(path, 'its contents are not JSON');
  } finally {
    text.fill(0);
  }
  const entries = typeof content === 'object' && content !== null && Object.hasOwn(content, 'entries') ? (content as { entries: unknown }).entries : undefined;
  if (!Array.isArray(entries) || !entries.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && typeof e[1] === 'string')) {
    throw damaged(path, 'its contents are not a list of secrets');
  }
  return new Map(entries as [string, string][]);
}

/** An unlocked vault as read: its key and its entries. */
export interface OpenedVault {
  key: VaultKey;
  entries: Map<string, string>;
}

/** Reads, unlocks and writes one vault file. Holds no key itself: the caller keeps the opened vault. */
export class VaultFile {
  readonly path: string;

  constructor(
    dataDir: string,
    private readonly fs: FsOps = nodeFs,
  ) {
    this.path = join(dataDir, VAULT_FILE);
  }

  async exists(): Promise<boolean> {
    return this.fs.exists(this.path);
  }

  /** Makes a new, empty vault; refused when there is a file already (it is never overwritten). */
  async create(passphrase: string, params: KdfParams = DEFAULT_KDF): Promise<OpenedVault> {
    checkPassphrase(passphrase);
    if (await this.exists()) throw new ParleyError('vault-exists', `There is already a vault at ${this.path}: unlock it with its passphrase instead.`, { file: this.path });
    const salt = randomBytes(SALT_BYTES);
    const { aes, check } = await deriveKeys(passphrase, salt, params);
    const header = headerBytes({ v: 1, kdf: 'scrypt', ...params, salt: salt.toString('base64'), cipher: 'aes-256-gcm', check: check.toString('base64') });
    const opened = { key: { aes, header }, entries: new Map<string, string>() };
    await this.write(opened.key, opened.entries);
    return opened;
  }

  /** Derives the key from `passphrase` and reads the entries; a wrong passphrase or a damaged file changes nothing. */
  async unlock(passphrase: string): Promise<OpenedVault> {
    const file = await this.readBytes();
    const { header, bytes, rest } = readHeader(this.path, file);
    const { aes, check } = await deriveKeys(passphrase, Buffer.from(header.salt, 'base64'), header);
    if (!timingSafeEqual(check, Buffer.from(header.check, 'base64'))) {
      aes.fill(0);
      throw new ParleyError('vault-passphrase', 'Wrong passphrase: the vault was not unlocked.', { file: this.path });
    }
    const key = { aes, header: Buffer.from(bytes) };
    return { key, entries: unseal(this.path, key, rest) };
  }

  /**
   * The entries on disk now, read with a key already derived (no scrypt): the file must still be
   * the vault that key opened (the same header), else it is refused.
   */
  async reread(key: VaultKey): Promise<Map<string, string>> {
    const file = await this.readBytes();
    const { bytes, rest } = readHeader(this.path, file);
    if (!bytes.equals(key.header)) throw new ParleyError('vault-replaced', `The vault file ${this.path} was replaced since it was unlocked: unlock it again.`, { file: this.path });
    return unseal(this.path, key, rest);
  }

  /**
   * Seals the entries and writes them atomically (a 0600 temp file, fsync, rename; atomic.ts): a
   * crash leaves the old file or the new one, and the next start's recovery removes what is left.
   */
  async write(key: VaultKey, entries: ReadonlyMap<string, string>): Promise<void> {
    await commitFiles([{ path: this.path, content: seal(key, entries), mode: 0o600 }], { journalDir: dirname(this.path), fs: this.fs });
  }

  /** Size and change time of the file, to notice a write by another Parley process. */
  async stamp(): Promise<string | null> {
    const info = await stat(this.path).catch(() => null);
    return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : null;
  }

  private async readBytes(): Promise<Buffer> {
    const info = await stat(this.path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') throw new ParleyError('vault-missing', `There is no vault at ${this.path}.`, { file: this.path });
      throw new ParleyError('vault-damaged', `The vault file ${this.path} cannot be read (${err.code}).`, { file: this.path });
    });
    if (info.size > MAX_FILE) throw damaged(this.path, `it is larger than ${MAX_FILE / 1024 / 1024} MB`);
    return readFile(this.path).catch((err: NodeJS.ErrnoException) => {
      throw new ParleyError('vault-damaged', `The vault file ${this.path} cannot be read (${err.code}).`, { file: this.path });
    });
  }
}

export function checkPassphrase(passphrase: string): void {
  if ([...passphrase.normalize('NFC')].length < MIN_PASSPHRASE) throw new ParleyError('bad-input', `A vault passphrase needs at least ${MIN_PASSPHRASE} characters.`);
}

/** Forgets a key: its bytes are overwritten, not left for the collector. */
export function zeroKey(key: VaultKey): void {
  key.aes.fill(0);
}
