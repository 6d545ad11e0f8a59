/**
 * The importer process: runs one import job or definition update with the importer engine, on a
 * thread of its own (job-thread.ts) so this one answers heartbeats and sends progress meanwhile.
 * The supervisor starts one per job and kills it on cancel, so a hung or crashing import
 * never touches the UI or the rest of the app. New Mock's sampling is such a job too (a huge
 * definition samples for long and can grow large). One more is kept running while curl commands are
 * read (Import cURL previews as the user types), killed when a read passes its deadline.
 */
import type { ResOf } from '../../protocol/messages.js';
import { sendInParts } from '../../protocol/model/import-parts.js';
import { connectToSupervisor } from '../runtime/child.js';
import { runInThread, startThreadAhead } from './job-thread.js';

// Said by the supervisor of a child spawned for one import or definition update (import-service.ts importerSpec).
if (process.argv.includes('--job-child')) startThreadAhead();

connectToSupervisor({
  role: 'importer',
  handlers: {
    'importer.run': async (job, ctx) => {
      const { detection, result } = await runInThread<ResOf<'importer.run'>>({ kind: 'run', job }, { signal: ctx.signal, chunk: ctx.chunk, part: ctx.chunk });
      return { detection, result: sendInParts(result, ctx.chunk) };
    },
    'importer.preview': (job, ctx) => runInThread({ kind: 'preview', job }, ctx),
    'importer.apply': (job, ctx) => runInThread({ kind: 'apply', job }, ctx),
    // No progress to tell: New Mock is one step, bounded by the supervisor's deadline.
    'importer.newMock': (job, ctx) => runInThread({ kind: 'newMock', job }, { signal: ctx.signal, chunk: () => {} }),
    // Loaded at the first read: an import job's child never needs curlconverter (nor it the job's engines).
    'importer.readCurl': async ({ command, id, name }) => (await import('./engine/curl/convert-command.js')).convertCurlCommand(command, { id, ...(name !== undefined ? { name } : {}) }),
  },
});
