import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { ParleyError } from './errors.js';
import { decode, encode } from './codec.js';
import { PROTOTYPE_NAMES, withKey } from '../test/support/prototype-names.js';

const items = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ kind: 'request', id: `r${from + i}`, parent: 'f1', name: `Request ${from + i}`, orphaned: false }));

describe('codec', () => {
  it('writes objects of one shape once per frame, not once per object', () => {
    const frame = encode({ items: items(1000) });
    const plain = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false }).pack({ items: items(1000) });
    expect(frame.byteLength).toBeLessThan(plain.byteLength * 0.75);
    expect(decode(frame)).toEqual({ items: items(1000) });
  });

  it('every frame decodes on its own: by a decoder that saw none before it, and after a corrupt one', () => {
    encode({ items: items(3) }); // structures seen by the encoder before
    const second = encode({ items: items(3, 10), extra: [{ other: true }] });
    const fresh = new Packr({ useRecords: true, mapsAsObjects: true, moreTypes: false });
    expect(fresh.unpack(second)).toEqual({ items: items(3, 10), extra: [{ other: true }] });
    const first = encode({ items: items(5) });
    expect(() => decode(first.slice(0, first.byteLength - 4))).toThrow(expect.objectContaining({ code: 'bad-frame' }));
    expect(decode(second)).toEqual({ items: items(3, 10), extra: [{ other: true }] });
  });

  it('refuses a record structure of the wrong shape as bad-frame in its own words, not a TypeError from inside msgpackr', () => {
    // A record definition (fixext 1, type 0x72) whose structure is the number 43, not a list of keys:
    // found by bench/fuzz.mjs at 10,000 cases (seed 951908465).
    const refused = (() => {
      try {
        decode(Uint8Array.from([0xd4, 0x72, 0x40, 0x2b, 0x01]));
      } catch (err) {
        return err as ParleyError;
      }
      throw new Error('decoded');
    })();
    expect(refused).toBeInstanceOf(ParleyError);
    expect(refused.code).toBe('bad-frame');
    expect(refused.message).toBe('Frame is not valid msgpack: a record structure or extension in it does not decode.');
  });

  it('carries every Object.prototype name as an ordinary own key, in plain objects and in records', () => {
    for (const name of [...PROTOTYPE_NAMES, '__proto_', '__proto___', '__proto____']) {
      const value = { schema: { properties: withKey(name, { type: 'number' }) }, rows: [withKey(name, 'a'), withKey(name, 'b')] };
      const back = decode(encode(value)) as typeof value;
      expect(Object.keys(back.schema.properties), name).toEqual([name]);
      expect(Object.hasOwn(back.schema.properties, name), name).toBe(true);
      expect(Object.getPrototypeOf(back.schema.properties), name).toBe(Object.prototype);
      expect(back.schema.properties[name], name).toEqual({ type: 'number' });
      expect(back.rows.map((r) => (Object.hasOwn(r, name) ? r[name] : undefined)), name).toEqual(['a', 'b']);
    }
  });

  it('keeps keys in order and leaves values that merely look like such keys alone', () => {
    const value = { a: 1, ...withKey('__proto__', { b: 2 }), c: '__proto__', d: '__proto___', bytes: new Uint8Array([1, 2]) };
    const back = decode(encode(value)) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['a', '__proto__', 'c', 'd', 'bytes']);
    expect({ ...back, bytes: [...(back.bytes as Uint8Array)] }).toEqual({ ...value, bytes: [1, 2] });
    expect(({} as Record<string, unknown>).b).toBeUndefined();
  });

  it('does not keep the buffer a big message was packed into: the next message packs into one of its own', () => {
    const big = encode({ text: 'x'.repeat(10 * 1024 * 1024) });
    const small = encode({ t: 1, text: 'y'.repeat(200) });
    expect(decode(small)).toEqual({ t: 1, text: 'y'.repeat(200) });
    // Before, every later message was a slice of the big one's buffer, held for good.
    expect(small.buffer === big.buffer).toBe(false);
    expect(small.buffer.byteLength).toBeLessThan(1024 * 1024);
    expect((decode(big) as { text: string }).text.length).toBe(10 * 1024 * 1024);
  });
});
