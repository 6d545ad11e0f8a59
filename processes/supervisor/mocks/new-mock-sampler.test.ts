/**
 * How New Mock's child job fails, as the user reads it: past its deadline, out of memory, or the
 * child gone (each naming the API and that nothing was written); other errors pass as they are.
 */
import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../../protocol/errors.js';
import { sampleNewMock, type JobRunner } from './new-mock-sampler.js';

const request = { documents: { openapi: [] }, name: 'Pets', api: 'a_1' };

/** A job whose child answers `importer.newMock` by throwing `err`; records the spec it was started with. */
function failingJob(err: Error): JobRunner & { specs: unknown[] } {
  const specs: unknown[] = [];
  return {
    specs,
    runJob: (spec, work) => {
      specs.push(spec);
      return work({ call: (async () => Promise.reject(err)) as never });
    },
  };
}

describe('sampleNewMock', () => {
  it('says mock-new-too-slow when the child overran its deadline', async () => {
    const jobs = failingJob(new ParleyError('budget-exceeded', 'The importer process (New Mock) took longer than its 2000 ms budget and was stopped.'));
    await expect(sampleNewMock(jobs, request, { apiName: 'Pet Store', definitionBytes: 1000, deadlineMs: 2000 })).rejects.toMatchObject({
      code: 'mock-new-too-slow',
      message: 'New Mock of Pet Store was stopped: sampling its definition took longer than 2 s, the most New Mock may take. Nothing was written.',
    });
  });

  it('says mock-new-out-of-memory for the job thread\'s heap and for the whole process\'s', async () => {
    for (const err of [new ParleyError('import-out-of-memory', 'The import ran out of memory.'), new ParleyError('child-died', 'The importer process (New Mock) stopped (exit code 134): FATAL ERROR: Reached heap limit Allocation failed')]) {
      const jobs = failingJob(err);
      await expect(sampleNewMock(jobs, request, { apiName: 'Pet Store', definitionBytes: 50 * 1024 * 1024 })).rejects.toMatchObject({
        code: 'mock-new-out-of-memory',
        message: expect.stringMatching(/^New Mock of Pet Store ran out of memory \(992 MB for a definition of this size\) and was stopped\. Nothing was written\.$/),
      });
      // The heap cap grows with the definition, never under 512 MB.
      expect(jobs.specs[0]).toMatchObject({ execArgv: ['--max-old-space-size=992'] });
    }
  });

  it('says how the child ended and that nothing was written', async () => {
    const jobs = failingJob(new ParleyError('child-died', 'The importer process (New Mock) was stopped by SIGKILL. importer.newMock was in flight and did not finish.'));
    await expect(sampleNewMock(jobs, request, { apiName: 'Pet Store', definitionBytes: 0 })).rejects.toMatchObject({
      code: 'child-died',
      message: 'The importer process (New Mock) was stopped by SIGKILL. New Mock of Pet Store did not finish; nothing was written.',
    });
    expect(jobs.specs[0]).toMatchObject({ execArgv: ['--max-old-space-size=512'] });
  });

  it('passes the engine\'s own errors through', async () => {
    const jobs = failingJob(new ParleyError('mock-too-large', 'too large'));
    await expect(sampleNewMock(jobs, request, { apiName: 'Pet Store', definitionBytes: 0 })).rejects.toMatchObject({ code: 'mock-too-large', message: 'too large' });
  });
});
