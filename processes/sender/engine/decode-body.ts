import { Transform, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw, type Inflate, type InflateRaw } from 'node:zlib';

/** A decoding stage with the content-coding it undoes, so a failure can name it. */
export interface Decoder {
  encoding: string;
  stream: Transform;
}

/**
 * Decoders for a Content-Encoding header, in the order to apply them (the reverse of the
 * header's). Undefined when a coding is unknown (zstd, compress...): the body is then kept as
 * it came, undecoded, rather than refused.
 */
export function decodersFor(contentEncoding: string): Decoder[] | undefined {
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  const decoders: Decoder[] = [];
  for (const coding of codings.reverse()) {
    const stream = decoderStream(coding);
    if (stream === undefined) return undefined;
    decoders.push({ encoding: coding, stream });
  }
  return decoders;
}

function decoderStream(coding: string): Transform | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return new DeflateDecoder();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * HTTP's "deflate" means zlib-wrapped data, but some servers send raw deflate. The first two
 * bytes tell them apart (a zlib header: method 8 and a checksum that is a multiple of 31);
 * node:zlib has no mode that detects raw deflate, so this small stage picks the inflater.
 */
class DeflateDecoder extends Transform {
  #inflater: Inflate | InflateRaw | undefined;
  #head = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#inflater === undefined) {
      this.#head = Buffer.concat([this.#head, chunk]);
      if (this.#head.length < 2) return callback();
      chunk = this.#head;
      this.#start();
    }
    this.#inflater!.write(chunk, () => callback());
  }

  override _flush(callback: TransformCallback): void {
    if (this.#inflater === undefined) {
      if (this.#head.length === 0) return callback();
      this.#start();
      this.#inflater!.write(this.#head);
    }
    this.#inflater!.once('end', () => callback());
    this.#inflater!.end();
  }

  // Resume the inflater once our reader wants more (it was paused when our buffer was full).
  override _read(size: number): void {
    this.#inflater?.resume();
    super._read(size);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#inflater?.destroy();
    callback(error);
  }

  #start(): void {
    const [first = 0, second = 0] = this.#head;
    const zlibWrapped = (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
    const inflater = zlibWrapped ? createInflate() : createInflateRaw();
    inflater.on('data', (data: Buffer) => {
      if (!this.push(data)) inflater.pause();
    });
    inflater.once('error', (err) => this.destroy(err));
    this.#inflater = inflater;
  }
}
