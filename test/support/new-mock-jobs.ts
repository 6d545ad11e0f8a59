/**
 * A `runJob` for MockService tests that run no child processes: New Mock's `importer.newMock`
 * answered in this process by the very function the importer's job thread runs.
 */
import { ParleyError } from '../../protocol/errors.js';
import type { ReqOf } from '../../protocol/messages.js';
import { runNewMockJob } from '../../processes/importer/new-mock-job.js';
import type { JobRunner } from '../../processes/supervisor/mocks/new-mock-sampler.js';
import type { MockServiceHost } from '../../processes/supervisor/mocks/mock-service.js';
import type { ProjectStore } from '../../processes/supervisor/store/project-store.js';

export const inProcessNewMock: JobRunner = {
  runJob: (_spec, work) =>
    work({
      call: (async (type: string, payload: unknown) => {
        if (type !== 'importer.newMock') throw new ParleyError('unknown-method', `${type} is not answered in-process.`);
        return runNewMockJob(payload as ReqOf<'importer.newMock'>);
      }) as never,
    }),
};

/** A MockService host for one project's store with no UI and no stub findings, New Mock answered in this process. */
export function quietMockHost(store: ProjectStore, log: (line: string) => void = () => {}): MockServiceHost {
  return {
    log,
    broadcast: () => {},
    notify: () => {},
    project: () => store,
    workspace: { get: () => ({ preferences: { mockListenAllInterfaces: false } }) },
    checker: { call: (async () => ({ findings: [], warnings: [] })) as never },
    ...inProcessNewMock,
  };
}
