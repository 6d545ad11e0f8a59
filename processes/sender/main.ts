/** The sender process: puts resolved requests on the wire with the sender engine. */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Peer } from '../../protocol/peer.js';
import { connectToSupervisor } from '../runtime/child.js';
import { ParleyError } from '../../protocol/errors.js';
import type { OutgoingSocketMessage } from '../../protocol/model/websocket.js';
import { closeChannels, closeDispatchers, send, type CookieJarPort } from './engine/index.js';

const spoolDir = join(process.env.PARLEY_SPOOL_DIR ?? tmpdir(), 'parley-spool');
/** The event streams being read, by the id their head carried: `sender.stopStream` ends one, `sender.streamTaken` paces one. */
interface Read {
  stop: AbortController;
  taken: () => void;
  send?: (message: OutgoingSocketMessage) => Promise<void>;
  halfClose?: () => void;
}
const reads = new Map<string, Read>();

/** The workspace's cookie jar, which the supervisor keeps: asked over the bus, hop by hop. */
function supervisorJar(peer: Peer, signal: AbortSignal): CookieJarPort {
  return {
    cookieHeader: async (url) => (await peer.call('jar.cookieHeader', { url }, { signal })).header,
    received: async (url, setCookies) => (await peer.call('jar.received', { url, setCookies }, { signal })).outcomes,
  };
}

const peer: Peer = connectToSupervisor({
  role: 'sender',
  handlers: {
    // An event stream's head and row batches go back as chunks of the call, ahead of its result.
    'sender.send': async (spec, { signal, chunk }) => {
      const read: Read = { stop: new AbortController(), taken: () => {} };
      const id = randomUUID();
      try {
        return await send(spec, {
          signal,
          spoolDir,
          jar: supervisorJar(peer, signal),
          grpcDescriptor: async (hash) => (await peer.call('grpc.descriptor', { hash }, { signal })).text,
          stream: {
            stop: read.stop.signal,
            onTaken: (taken) => void (read.taken = taken),
            onSend: (sendMessage) => void (read.send = sendMessage),
            onHalfClose: (halfClose) => void (read.halfClose = halfClose),
            head: (head, timing, hopTiming) => {
              reads.set(id, read);
              chunk({ kind: 'head', head, timing, hopTiming, stream: id });
            },
            batch: (batch) => chunk({ kind: 'batch', batch }),
          },
        });
      } finally {
        reads.delete(id);
      }
    },
    'sender.stopStream': ({ stream }) => {
      const read = reads.get(stream);
      read?.stop.abort();
      return { stopped: read !== undefined };
    },
    'sender.socketSend': async ({ stream, message }) => {
      const read = reads.get(stream);
      if (!read?.send) throw new ParleyError('socket-closed', 'The connection is closed: the message was not sent.');
      await read.send(message);
      return { sent: true };
    },
    'sender.halfClose': ({ stream }) => {
      const read = reads.get(stream);
      if (!read?.halfClose) throw new ParleyError('socket-closed', 'The call has ended or does not stream requests: nothing to half-close.');
      read.halfClose();
      return { halfClosed: true };
    },
    'sender.streamTaken': ({ stream }) => {
      const read = reads.get(stream);
      read?.taken();
      return { open: read !== undefined };
    },
  },
  onShutdown: () => {
    closeChannels();
    return closeDispatchers();
  },
});
