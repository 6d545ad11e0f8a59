/**
 * A Transport over a byte stream (a child's pipe): length-prefixed frames, writes from one
 * tick coalesced into a single write so small messages do not cost a syscall each.
 */
import type { Duplex } from 'node:stream';
import { DEFAULT_MAX_FRAME, FrameDecoder, encodeFrame } from './framing.js';
import type { Transport } from './peer.js';

export function streamTransport(stream: Duplex, maxFrame = DEFAULT_MAX_FRAME): Transport {
  const decoder = new FrameDecoder(maxFrame);
  let queue: Uint8Array[] = [];
  let queued = 0;
  let scheduled = false;
  let closed = false;

  const flush = () => {
    scheduled = false;
    if (closed || queue.length === 0) return;
    const batch = queue.length === 1 ? queue[0]! : Buffer.concat(queue);
    queue = [];
    queued = 0;
    stream.write(batch);
  };

  const transport: Transport = {
    onMessage: null,
    onFrameError: null,
    onClose: null,
    send(bytes) {
      if (closed) return;
      const frame = encodeFrame(bytes);
      queue.push(frame);
      queued += frame.byteLength;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    // What waits in this tick's batch and in the stream: a multi-part message's next part waits on it.
    backlog: () => queued + stream.writableLength,
    close() {
      if (closed) return;
      flush();
      closed = true;
      stream.end();
    },
  };

  stream.on('data', (chunk: Buffer) => {
    for (const frame of decoder.push(chunk)) {
      if (frame.ok) transport.onMessage?.(frame.body);
      else transport.onFrameError?.(frame.error);
    }
  });
  const end = (reason: string) => {
    if (closed && reason === '') return;
    closed = true;
    transport.onClose?.(reason);
  };
  stream.on('error', (err) => end(`Pipe error: ${err.message}`));
  stream.on('close', () => end(''));
  // The other side finished writing: it is gone (a dead child's pipe ends before it closes).
  stream.on('end', () => end(''));
  return transport;
}
