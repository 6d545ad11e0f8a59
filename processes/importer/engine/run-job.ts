/**
 * One import job or definition update, start to end, as the importer child runs it: build the
 * job's loader (credentials, network, caps, cancel), read, convert or preview/apply, release
 * the connections. Pure of process wiring: the child passes ids, clock, progress and signal.
 */
import type { Dispatcher } from 'undici';
import type {
  DefinitionApplyJob,
  DefinitionUpdateJob,
  DefinitionUpdatePreview,
  DefinitionUpdateResult,
  FetchCredentials,
  FetchNetwork,
  ImportDeadlines,
  ImportJob,
  ImportProgress,
  ImportResult,
} from '../../../protocol/model/import.js';
import { applyDefinitionUpdate } from './definition-update/apply.js';
import { readCachedDefinition } from './definition-update/definitions.js';
import { previewDefinitionUpdate, type DefinitionUpdateInput } from './definition-update/preview.js';
import { readSourceDefinition } from './definition-update/read-source.js';
import type { Detection } from './importer.js';
import type { LoadLimits } from './load/limits.js';
import { createDocumentLoader, type DocumentLoader } from './load/loader.js';
import { readImportInput } from './load/read-input.js';
import { createImporterRegistry, type ImporterRegistry } from './registry.js';

export interface JobDeps {
  newId: (prefix: string) => string;
  now: () => Date;
  onProgress?: (event: ImportProgress) => void;
  signal?: AbortSignal;
  /** Defaults to every importer this build has. */
  registry?: ImporterRegistry;
  limits?: LoadLimits;
  /** For tests. */
  dispatcher?: Dispatcher;
}

export async function runImportJob(job: ImportJob, deps: JobDeps): Promise<{ detection: Detection | null; result: ImportResult }> {
  const credentials = job.source.kind === 'url' ? job.source.credentials : undefined;
  return withLoader(job, credentials, deps, async (loader) => {
    const input = await readImportInput(job.source, loader);
    const { importer, detection } = (deps.registry ?? createImporterRegistry()).pick(job.format, input);
    const result = await importer.convert(input, {
      newId: deps.newId,
      now: deps.now,
      loader,
      options: job.options,
      ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(credentials ? { sourceCredentials: credentials } : {}),
    });
    return { detection, result };
  });
}

export async function runDefinitionPreview(job: DefinitionUpdateJob, deps: Omit<JobDeps, 'newId'>): Promise<DefinitionUpdatePreview> {
  return previewDefinitionUpdate(await updateInput(job, deps));
}

/** Reads the sources again; throws `definition-changed` when they differ from the preview's. */
export async function runDefinitionApply(job: DefinitionApplyJob, deps: JobDeps): Promise<DefinitionUpdateResult> {
  const input = await updateInput(job, deps);
  return applyDefinitionUpdate(input, {
    newId: deps.newId,
    expectedFingerprint: job.expectedFingerprint,
    ...(job.recordSource !== undefined ? { source: job.recordSource } : {}),
  });
}

async function updateInput(job: DefinitionUpdateJob, deps: Omit<JobDeps, 'newId'>): Promise<DefinitionUpdateInput> {
  const credentials = job.source.kind === 'url' ? job.source.credentials : undefined;
  const next = await withLoader(job, credentials, deps, (loader) => readSourceDefinition(job.source, loader, deps.onProgress, deps.signal));
  const old = job.cached.length > 0 ? await readCachedDefinition(job.cached) : null;
  return { api: job.api, requests: job.requests, old, next };
}

async function withLoader<T>(job: { network: FetchNetwork; deadlines?: ImportDeadlines }, credentials: FetchCredentials | undefined, deps: Omit<JobDeps, 'newId'>, run: (loader: DocumentLoader) => Promise<T>): Promise<T> {
  const loader = createDocumentLoader({
    network: job.network,
    ...(job.deadlines ? { deadlines: job.deadlines } : {}),
    ...(credentials ? { credentials } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.limits ? { limits: deps.limits } : {}),
    ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
  });
  try {
    return await run(loader);
  } finally {
    await loader.close();
  }
}
