/**
 * A `runJob` for MockService tests that run no child processes: New Mock's `importer.newMock`
 * answered in this process by the very function the importer's job thread runs.
 */
import { ParleyError } from '../../protocol/errors.js';
import type { ReqOf } from '../../protocol/messages.js';
import { runNewMockJob } from '../../processes/importer/new-mock-job.js';
import type { JobRunner } from '../../processes/supervisor/mocks/new-mock-sampler.js';

export const inProcessNewMock: JobRunner = {
  runJob: (_spec, work) =>
    work({
      call: (async (type: string, payload: unknown) => {
        if (type !== 'importer.newMock') throw new ParleyError('unknown-method', `${type} is not answered in-process.`);
        return runNewMockJob(payload as ReqOf<'importer.newMock'>);
      }) as never,
    }),
};
