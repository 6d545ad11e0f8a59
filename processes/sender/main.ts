/** The sender process: puts resolved requests on the wire with the sender engine. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Peer } from '../../protocol/peer.js';
import { connectToSupervisor } from '../runtime/child.js';
import { closeDispatchers, send, type CookieJarPort } from './engine/index.js';

const spoolDir = join(process.env.PARLEY_SPOOL_DIR ?? tmpdir(), 'parley-spool');

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
    // An event stream's head and rows go back as chunks of the call, ahead of its result.
    'sender.send': (spec, { signal, chunk }) =>
      send(spec, {
        signal,
        spoolDir,
        jar: supervisorJar(peer, signal),
        stream: { head: (head, timing) => chunk({ kind: 'head', head, timing }), rows: (rows) => chunk({ kind: 'rows', rows }) },
      }),
  },
  onShutdown: () => closeDispatchers(),
});
