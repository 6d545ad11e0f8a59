/**
 * msgpack encoding of envelopes. Plain maps (no shared record structures): every frame
 * decodes on its own, so one bad frame never poisons the ones after it.
 */
import { Packr } from 'msgpackr';
import { ParleyError } from './errors.js';

const packr = new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false });

export function encode(value: unknown): Uint8Array {
  return packr.pack(value);
}

export function decode(bytes: Uint8Array): unknown {
  try {
    return packr.unpack(bytes);
  } catch (err) {
    throw new ParleyError('bad-frame', `Frame is not valid msgpack: ${(err as Error).message}`);
  }
}
