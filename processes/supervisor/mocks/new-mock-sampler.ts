/**
 * New Mock's sampling, off the supervisor's loop: bundling a definition and sampling a response
 * for each of its operations holds a thread for seconds when the definition is big, so it runs as
 * a job in a fresh importer child, on the child's job thread (heartbeats stay answered) under a
 * heap cap, and the child is killed past a deadline. The child also makes the files (YAML for
 * thousands of operations takes a second more); the supervisor only commits them. Why the importer and not a mock host: see ARCHITECTURE.md (process map).
 */
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { ReqOf, ResOf } from '../../../protocol/messages.js';
import { describeDuration } from '../../importer/engine/load/limits.js';
import type { ChildProcessHandle, ChildSpec } from '../children/child-process.js';
import { LARGE_MESSAGE_LIMIT } from '../../../protocol/framing.js';
import { distEntry } from '../paths.js';
import { memoryForBytes } from '../imports/import-service.js';

/** How long New Mock may sample: a definition of thousands of operations takes a few seconds. */
export const NEW_MOCK_DEADLINE_MS = 60_000;
/** The least heap the job gets: room to build an answer as large as MAX_NEW_MOCK_BYTES. */
const MIN_MEMORY_MB = 512;

/** Starts a one-shot child for a job and ends it after (the Supervisor's `runJob`). */
export interface JobRunner {
  runJob<T>(spec: Omit<ChildSpec, 'log' | 'restart'>, work: (child: Pick<ChildProcessHandle, 'call'>) => Promise<T>): Promise<T>;
}

export interface SampleOptions {
  /** Named in errors: "New Mock of Pet Store". */
  apiName: string;
  /** The cached definition's size on disk, which sizes the child's heap. */
  definitionBytes: number;
  deadlineMs?: number;
  /** The importer entry; default dist/importer.js. */
  entry?: string;
}

const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i;

/** The new mock's files, relative to its folder. */
export async function sampleNewMock(jobs: JobRunner, request: ReqOf<'importer.newMock'>, options: SampleOptions): Promise<ResOf<'importer.newMock'>['files']> {
  const deadlineMs = options.deadlineMs ?? NEW_MOCK_DEADLINE_MS;
  const memoryMb = Math.max(MIN_MEMORY_MB, memoryForBytes(options.definitionBytes));
  const what = `New Mock of ${options.apiName}`;
  try {
    const { files } = await jobs.runJob(
      { name: 'importer process (New Mock)', entry: options.entry ?? distEntry('importer.js'), execArgv: [`--max-old-space-size=${memoryMb}`], maxMessage: LARGE_MESSAGE_LIMIT },
      (child) => child.call('importer.newMock', request, { budgetMs: deadlineMs }),
    );
    return files;
  } catch (err) {
    if (hasCode(err, 'budget-exceeded')) {
      throw new ParleyError('mock-new-too-slow', `${what} was stopped: sampling its definition took longer than ${describeDuration(deadlineMs)}, the most New Mock may take. Nothing was written.`, { deadlineMs });
    }
    if (hasCode(err, 'import-out-of-memory') || (hasCode(err, 'child-died') && OUT_OF_MEMORY.test((err as Error).message))) {
      throw new ParleyError('mock-new-out-of-memory', `${what} ran out of memory (${memoryMb} MB for a definition of this size) and was stopped. Nothing was written.`, { memoryMb });
    }
    if (hasCode(err, 'child-died')) {
      // "The importer process (New Mock) was stopped by SIGKILL." and what it means here.
      const how = (err as Error).message.split(/(?<=\.) /)[0]!;
      throw new ParleyError('child-died', `${how} ${what} did not finish; nothing was written.`, (err as ParleyError).data);
    }
    throw err;
  }
}
