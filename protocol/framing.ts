/**
 * Length-prefixed framing for byte streams (a child's pipe): a 4-byte big-endian length,
 * then that many bytes of msgpack. A frame over the limit is skipped, not buffered, so a
 * hostile or broken peer cannot make the receiver allocate it.
 */
import { ParleyError } from './errors.js';

export const DEFAULT_MAX_FRAME = 64 * 1024 * 1024;
/**
 * The largest message on a link that carries definitions and mocks (supervisor or CLI and mock
 * host, importer, checker), sent in several frames (Peer's `maxMessage`). Microsoft Graph's beta
 * document (47 MB) makes a 97 MB `mockHost.start`; 512 MiB leaves five times that, and is about
 * V8's longest string (2^29 characters), which one document's text cannot pass anyway. The
 * receiver holds the message's bytes (filled as its parts arrive) while it decodes them.
 */
export const LARGE_MESSAGE_LIMIT = 512 * 1024 * 1024;
/** The environment variable by which a supervisor tells its child the link's largest message (ChildSpec.maxMessage). */
export const BUS_MAX_MESSAGE_ENV = 'PARLEY_BUS_MAX_MESSAGE';
/** And its frame, when not DEFAULT_MAX_FRAME (ChildSpec.maxFrame: tests make it small, so a message goes in parts). */
export const BUS_MAX_FRAME_ENV = 'PARLEY_BUS_MAX_FRAME';
const HEADER = 4;

export function encodeFrame(body: Uint8Array): Uint8Array {
  const frame = new Uint8Array(HEADER + body.byteLength);
  new DataView(frame.buffer).setUint32(0, body.byteLength);
  frame.set(body, HEADER);
  return frame;
}

export type FrameResult = { ok: true; body: Uint8Array } | { ok: false; error: ParleyError };

export class FrameDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private skipping = 0;

  constructor(private readonly maxFrame = DEFAULT_MAX_FRAME) {}

  /** Feeds bytes and returns every frame (or framing error) they complete, in order. */
  push(chunk: Uint8Array): FrameResult[] {
    const out: FrameResult[] = [];
    if (this.skipping > 0) {
      const skipped = Math.min(this.skipping, chunk.byteLength);
      this.skipping -= skipped;
      chunk = chunk.subarray(skipped);
    }
    if (chunk.byteLength > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.byteLength;
    }
    while (this.buffered >= HEADER && this.skipping === 0) {
      const length = this.peekLength();
      if (length > this.maxFrame) {
        this.consume(HEADER);
        const available = Math.min(length, this.buffered);
        this.consume(available);
        this.skipping = length - available;
        out.push({
          ok: false,
          error: new ParleyError('frame-too-large', `Frame of ${length} bytes refused: the limit is ${this.maxFrame} bytes.`, { length, limit: this.maxFrame }),
        });
        continue;
      }
      if (this.buffered < HEADER + length) break;
      this.consume(HEADER);
      out.push({ ok: true, body: this.consume(length) });
    }
    return out;
  }

  private peekLength(): number {
    const head = this.take(HEADER, false);
    return new DataView(head.buffer, head.byteOffset, HEADER).getUint32(0);
  }

  private consume(n: number): Uint8Array {
    return this.take(n, true);
  }

  private take(n: number, remove: boolean): Uint8Array {
    const first = this.chunks[0];
    if (first && first.byteLength >= n) {
      const slice = first.subarray(0, n);
      if (remove) {
        if (first.byteLength === n) this.chunks.shift();
        else this.chunks[0] = first.subarray(n);
        this.buffered -= n;
      }
      return slice;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    let index = 0;
    while (filled < n) {
      const chunk = this.chunks[index]!;
      const part = Math.min(chunk.byteLength, n - filled);
      out.set(chunk.subarray(0, part), filled);
      filled += part;
      if (remove) {
        if (part === chunk.byteLength) {
          this.chunks.shift();
          continue;
        }
        this.chunks[index] = chunk.subarray(part);
      } else {
        index++;
      }
    }
    if (remove) this.buffered -= n;
    return out;
  }
}
