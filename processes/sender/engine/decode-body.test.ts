import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { deflateRawSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodersFor } from './decode-body.js';

/** Feeds `data` in pieces of `size` bytes through the decoders for `encoding`. */
async function decode(encoding: string, data: Buffer, size: number): Promise<string> {
  const pieces: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) pieces.push(data.subarray(i, i + size));
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, callback) {
      out.push(chunk);
      callback();
    },
  });
  await pipeline([Readable.from(pieces), ...decodersFor(encoding)!.map((d) => d.stream), sink]);
  return Buffer.concat(out).toString();
}

describe('decodersFor', () => {
  const text = 'deflate either way '.repeat(100);

  it('inflates zlib-wrapped and raw deflate alike, even one byte at a time', async () => {
    for (const size of [1, 7, 100_000]) {
      expect(await decode('deflate', deflateSync(text), size)).toBe(text);
      expect(await decode('deflate', deflateRawSync(text), size)).toBe(text);
    }
  });

  it('lists decoders in reverse header order and gives up on an unknown coding', () => {
    expect(decodersFor('gzip, br')!.map((d) => d.encoding)).toEqual(['br', 'gzip']);
    expect(decodersFor('identity')).toEqual([]);
    expect(decodersFor('gzip, zstd')).toBeUndefined();
  });
});
