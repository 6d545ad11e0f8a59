/** The sender process: puts resolved requests on the wire with the sender engine. */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Peer } from '../../protocol/peer.js';
import { connectToSupervisor } from '../runtime/child.js';
import { closeDispatchers, send, type CookieJarPort } from './engine/index.js';

const spoolDir = join(process.env.PARLEY_SPOOL_DIR ?? tmpdir(), 'parley-spool');
/** The event streams being read, by the id their head carried: `sender.stopStream` ends one, `sender.streamTaken` paces one. */
const reads = new Map<string, { stop: AbortController; taken: () => void }>();

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
      const read = { stop: new AbortController(), taken: () => {} };
      const id = randomUUID();
      try {
        return await send(spec, {
          signal,
          spoolDir,
          jar: supervisorJar(peer, signal),
          stream: {
            stop: read.stop.signal,
            onTaken: (taken) => void (read.taken = taken),
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
    'sender.streamTaken': ({ stream }) => {
      const read = reads.get(stream);
      read?.taken();
      return { open: read !== undefined };
    },
  },
  onShutdown: () => closeDispatchers(),
});
