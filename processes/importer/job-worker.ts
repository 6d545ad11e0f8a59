/**
 * The importer's job thread (built to dist/importer-worker.js; see job-thread.ts): runs one job
 * (an import, a definition update, or New Mock's sampling), posting progress as it goes and then
 * its answer or its error. The job is the one it was started with, or, for a thread started ahead
 * of its job (a job child's, startThreadAhead), the first message it is sent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toWireError } from '../../protocol/errors.js';
import { newId } from '../../protocol/ids.js';
import type { ImportProgress } from '../../protocol/model/import.js';
import type { ThreadJob, ThreadMessage } from './job-thread.js';

const port = parentPort!;
const post = (message: ThreadMessage) => port.postMessage(message);
// Never aborted here: a cancel terminates this thread.
const deps = { now: () => new Date(), signal: new AbortController().signal, onProgress: (progress: ImportProgress) => post({ progress }) };

// Each kind loads only its own engine: the importers' are no use to New Mock, nor the sampler to an
// import; an import then loads its own format's converter only (engine/importer.ts).
async function run(job: ThreadJob): Promise<unknown> {
  switch (job.kind) {
    case 'run':
      return (await import('./engine/run-job.js')).runImportJob(job.job, { ...deps, newId, sendPart: (part) => post({ part }) });
    case 'preview':
      return (await import('./engine/run-job.js')).runDefinitionPreview(job.job, deps);
    case 'apply':
      return (await import('./engine/run-job.js')).runDefinitionApply(job.job, { ...deps, newId });
    case 'newMock':
      return (await import('./new-mock-job.js')).runNewMockJob(job.job);
  }
}

function start(job: ThreadJob): void {
  run(job).then(
    (value) => post({ ok: true, value }),
    (err: unknown) => post({ ok: false, error: toWireError(err) }),
  );
}

const given = workerData as ThreadJob | null;
if (given) start(given);
else {
  port.once('message', start);
  // While it waits, the import engine loads: most jobs are imports (a failure shows when one runs).
  import('./engine/run-job.js').catch(() => {});
}
