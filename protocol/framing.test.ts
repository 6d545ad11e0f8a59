import { describe, expect, it } from 'vitest';
import { FrameDecoder, encodeFrame } from './framing.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('FrameDecoder', () => {
  it('reassembles frames split across chunks and several frames in one chunk', () => {
    const a = encodeFrame(bytes(1, 2, 3));
    const b = encodeFrame(bytes(4));
    const joined = new Uint8Array([...a, ...b]);
    const decoder = new FrameDecoder();
    const out = [...decoder.push(joined.subarray(0, 2)), ...decoder.push(joined.subarray(2, 6)), ...decoder.push(joined.subarray(6))];
    expect(out.map((f) => (f.ok ? [...f.body] : null))).toEqual([[1, 2, 3], [4]]);
  });

  it('refuses an oversized frame without buffering it and keeps reading after it', () => {
    const decoder = new FrameDecoder(8);
    const big = encodeFrame(new Uint8Array(20).fill(7));
    const next = encodeFrame(bytes(9, 9));
    const out = [...decoder.push(big.subarray(0, 10)), ...decoder.push(big.subarray(10)), ...decoder.push(next)];
    expect(out).toHaveLength(2);
    expect(out[0]!.ok).toBe(false);
    if (!out[0]!.ok) expect(out[0]!.error.code).toBe('frame-too-large');
    expect(out[1]!.ok && [...out[1]!.body]).toEqual([9, 9]);
  });

  it('handles an empty frame', () => {
    const out = new FrameDecoder().push(encodeFrame(new Uint8Array(0)));
    expect(out).toHaveLength(1);
    expect(out[0]!.ok && out[0]!.body.byteLength).toBe(0);
  });
});
