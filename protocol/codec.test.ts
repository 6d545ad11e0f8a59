import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decode, encode } from './codec.js';

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
});
