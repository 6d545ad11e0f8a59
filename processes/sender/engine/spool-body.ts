import { randomUUID } from 'node:crypto';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';

/** What the sink holds once the body has ended. */
export interface SpooledBody {
  /** The whole body, or its first `inlineLimit` bytes when spooled. */
  bytes: Uint8Array;
  size: number;
  spooledTo?: string;
}

/**
 * Keeps a body in memory up to `inlineLimit` bytes; past that, writes all of it to a new file
 * (mode 0600) under `spoolDir` and keeps only the first `inlineLimit` bytes in memory. Each write
 * finishes before the next is accepted, so memory stays bounded whatever the body's size.
 * The caller owns the file once the body ended; a failed or cancelled body removes it.
 */
export class SpoolingSink extends Writable {
  readonly #inlineLimit: number;
  readonly #spoolDir: string;
  #head: Buffer[] = [];
  #headSize = 0;
  #size = 0;
  #file: FileHandle | undefined;
  #path: string | undefined;
  /** The write in progress: a destroy waits for it, or a file it is opening would be left behind. */
  #writing: Promise<void> = Promise.resolve();

  constructor(inlineLimit: number, spoolDir: string) {
    super();
    this.#inlineLimit = inlineLimit;
    this.#spoolDir = spoolDir;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#writing = this.#accept(chunk);
    this.#writing.then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    const file = this.#file;
    this.#file = undefined;
    if (file === undefined) return callback();
    file.close().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (error === null) return callback(null);
    // A body that did not complete leaves no file behind, including one a write was still opening.
    void (async () => {
      await this.#writing.catch(() => undefined);
      const file = this.#file;
      const path = this.#path;
      this.#file = undefined;
      this.#path = undefined;
      await file?.close().catch(() => undefined);
      if (path !== undefined) await rm(path, { force: true }).catch(() => undefined);
    })().finally(() => callback(error));
  }

  /** Call after the stream finished. */
  result(): SpooledBody {
    const bytes = Buffer.concat(this.#head, this.#headSize);
    return this.#path === undefined ? { bytes, size: this.#size } : { bytes, size: this.#size, spooledTo: this.#path };
  }

  async #accept(chunk: Buffer): Promise<void> {
    this.#size += chunk.length;
    const room = this.#inlineLimit - this.#headSize;
    if (room > 0) {
      const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.#head.push(kept);
      this.#headSize += kept.length;
    }
    if (this.#file === undefined && this.#size <= this.#inlineLimit) return;
    if (this.#file === undefined) {
      // First chunk past the limit: everything held so far goes to the file first.
      await this.#openFile();
      await this.#writeAll(Buffer.concat(this.#head, this.#headSize));
      const rest = chunk.subarray(Math.max(0, room));
      if (rest.length > 0) await this.#writeAll(rest);
      return;
    }
    await this.#writeAll(chunk);
  }

  async #openFile(): Promise<void> {
    await mkdir(this.#spoolDir, { recursive: true, mode: 0o700 });
    const path = join(this.#spoolDir, `parley-body-${randomUUID()}.bin`);
    this.#file = await open(path, 'wx', 0o600);
    this.#path = path;
  }

  async #writeAll(data: Buffer): Promise<void> {
    let offset = 0;
    while (offset < data.length) {
      const { bytesWritten } = await this.#file!.write(data, offset, data.length - offset);
      offset += bytesWritten;
    }
  }
}
