/**
 * The jar file: the cookies with an expiry, sealed with AES-256-GCM under a key kept in the
 * workspace's secret store (the OS keychain, or the vault without one), in the workspace's data folder (never a project folder). Layout:
 * `PARLEY-JAR\x01` (magic and format version, also the additional authenticated data), a 12-byte
 * IV, the 16-byte tag, then the ciphertext of `{"v":1,"cookies":[JarRecord...]}`. A file that was
 * changed, cut short or sealed under another key fails the tag check and is not read.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { ParleyError } from '../../../protocol/errors.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { commitFiles, nodeFs, type FsOps } from '../store/atomic.js';
import type { SecretStore } from '../store/secrets.js';
import type { JarRecord } from './jar.js';

export const JAR_FILE = 'cookies.jar';
/** The secret store's entry holding the jar's key (base64 of 32 random bytes), scoped to the workspace like every secret. */
export const JAR_KEY_NAME = 'parley.cookie-jar.key';

const MAGIC = Buffer.from('PARLEY-JAR\x01', 'latin1');
const IV_BYTES = 12;
const TAG_BYTES = 16;

const JarRecordSchema = T.Object({
  name: T.String(),
  value: T.String(),
  domain: T.String(),
  path: T.String(),
  hostOnly: T.Boolean(),
  secure: T.Boolean(),
  httpOnly: T.Boolean(),
  sameSite: T.Optional(T.String()),
  expires: T.Number(),
  created: T.Number(),
});
const JarContent = T.Object({ v: T.Literal(1), cookies: T.Array(JarRecordSchema, { maxItems: 10_000 }) });

export function sealJar(records: JarRecord[], key: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(MAGIC);
  const body = Buffer.concat([cipher.update(JSON.stringify({ v: 1, cookies: records }), 'utf8'), cipher.final()]);
  return Buffer.concat([MAGIC, iv, cipher.getAuthTag(), body]);
}

export function openJar(sealed: Buffer, key: Buffer): JarRecord[] {
  const unreadable = (why: string) => new ParleyError('jar-unreadable', `The saved cookies could not be read: ${why}.`);
  if (sealed.length < MAGIC.length + IV_BYTES + TAG_BYTES || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) throw unreadable('the file is not a Parley cookie jar');
  const iv = sealed.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
  const tag = sealed.subarray(MAGIC.length + IV_BYTES, MAGIC.length + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(MAGIC);
  decipher.setAuthTag(tag);
  let text: string;
  try {
    text = Buffer.concat([decipher.update(sealed.subarray(MAGIC.length + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw unreadable('it was changed, or sealed with a key the secret store no longer holds');
  }
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch {
    throw unreadable('its content is not JSON');
  }
  const problems = checkAll(JarContent, content, 1);
  if (problems.length > 0) throw unreadable(`${problems[0]!.path || '/'} ${problems[0]!.message}`);
  return (content as { cookies: JarRecord[] }).cookies;
}

/** Reads and writes one workspace's jar file with its key from the secret store. */
export class JarFile {
  readonly path: string;

  constructor(
    dataDir: string,
    private readonly secrets: SecretStore,
    private readonly fs: FsOps = nodeFs,
  ) {
    this.path = join(dataDir, JAR_FILE);
  }

  /** The saved cookies; [] when there is no file yet. Throws `jar-unreadable` when it cannot be opened. */
  async read(): Promise<JarRecord[]> {
    const sealed = await readFile(this.path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw new ParleyError('jar-unreadable', `The saved cookies could not be read (${err.code}).`);
    });
    if (sealed === null) return [];
    const key = await this.key(false);
    if (key === null) throw new ParleyError('jar-unreadable', 'The saved cookies could not be read: their key is no longer in the secret store (keychain or vault).');
    return openJar(sealed, key);
  }

  /** Seals and writes the records atomically; makes the key on first use. */
  async write(records: JarRecord[]): Promise<void> {
    const key = (await this.key(true))!;
    await commitFiles([{ path: this.path, content: sealJar(records, key) }], { journalDir: dirname(this.path), fs: this.fs });
  }

  private async key(create: boolean): Promise<Buffer | null> {
    const stored = await this.secrets.get(JAR_KEY_NAME);
    if (stored !== null) {
      const key = Buffer.from(stored, 'base64');
      if (key.length === 32) return key;
    }
    if (!create) return null;
    const key = randomBytes(32);
    await this.secrets.set(JAR_KEY_NAME, key.toString('base64'));
    return key;
  }
}
