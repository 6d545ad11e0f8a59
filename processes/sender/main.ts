/** The sender process: puts resolved requests on the wire with the sender engine. */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Peer } from '../../protocol/peer.js';
import { connectToSupervisor } from '../runtime/child.js';
import { ParleyError } from '../../protocol/errors.js';
import { closeDispatchers, send, type CookieJarPort, type OpenSocket } from './engine/index.js';

const spoolDir = join(process.env.PARLEY_SPOOL_DIR ?? tmpdir(), 'parley-spool');
/**
 * The event streams being read, by the id their head carried: `sender.stopStream` ends one,
 * `sender.streamTaken` paces one, `sender.socketSend` and `sender.socketPing` reach an open WebSocket.
 */
interface Read {
  stop: AbortController;
  taken: () => void;
  socket?: OpenSocket;
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
          stream: {
            stop: read.stop.signal,
            onTaken: (taken) => void (read.taken = taken),
            onOpen: (socket) => void (read.socket = socket),
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
      const socket = reads.get(stream)?.socket;
      if (!socket) throw new ParleyError('socket-closed', 'The connection is closed: the message was not sent.');
      await socket.send(message);
      return { sent: true };
    },
    'sender.socketPing': async ({ stream }) => {
      const socket = reads.get(stream)?.socket;
      if (!socket) throw new ParleyError('socket-closed', 'The connection is closed: the ping was not sent.');
      await socket.ping();
      return { sent: true };
    },
    'sender.streamTaken': ({ stream }) => {
      const read = reads.get(stream);
      read?.taken();
      return { open: read !== undefined };
    },
  },
  onShutdown: () => closeDispatchers(),
});
