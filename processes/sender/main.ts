/** The sender process: puts resolved requests on the wire with the sender engine. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectToSupervisor } from '../runtime/child.js';
import { closeDispatchers, send } from './engine/index.js';

const spoolDir = join(process.env.PARLEY_SPOOL_DIR ?? tmpdir(), 'parley-spool');

connectToSupervisor({
  role: 'sender',
  handlers: {
    'sender.send': (spec, { signal }) => send(spec, { signal, spoolDir }),
  },
  onShutdown: () => closeDispatchers(),
});
