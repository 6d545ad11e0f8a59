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
import type { DefinitionUpdateInput } from './definition-update/preview.js';
import type { WsdlUpdateInput } from './definition-update/wsdl-update.js';
import { basename, resolve } from 'node:path';
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { ImportResultPart } from '../../../protocol/model/import-parts.js';
import type { Detection, ImportInput, Importer } from './importer.js';
import { DETECT_HEAD_BYTES, countingBytes, openEntryFile } from './load/entry-file.js';
import { tooLarge, type LoadLimits } from './load/limits.js';
import { createDocumentLoader, type DocumentLoader } from './load/loader.js';
import { readImportInput } from './load/read-input.js';
import { createImporterRegistry, type ImporterRegistry } from './registry.js';

/** The importer id of Protocol Buffers: the one format that reads a folder of files or a gRPC server. */
const PROTOBUF_FORMAT = 'protobuf';

export interface JobDeps {
  newId: (prefix: string) => string;
  now: () => Date;
  onProgress?: (event: ImportProgress) => void;
  /** Where an import may send its requests in parts as it makes them (ImportContext.sendPart). */
  sendPart?: (part: ImportResultPart) => void;
  signal?: AbortSignal;
  /** Defaults to every importer this build has. */
  registry?: ImporterRegistry;
  limits?: LoadLimits;
  /** For tests. */
  dispatcher?: Dispatcher;
}

export async function runImportJob(job: ImportJob, deps: JobDeps): Promise<{ detection: Detection | null; result: ImportResult }> {
  const credentials = job.source.kind === 'url' ? job.source.credentials : undefined;
  const registry = deps.registry ?? createImporterRegistry();
  return withLoader(job, credentials, deps, async (loader) => {
    const { input, importer, detection } = await readAndPick(job, registry, loader, deps);
    const result = await importer.convert(input, {
      newId: deps.newId,
      now: deps.now,
      loader,
      options: job.options,
      network: job.network,
      ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
      ...(deps.sendPart ? { sendPart: deps.sendPart } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(credentials ? { sourceCredentials: credentials } : {}),
    });
    return { detection, result };
  });
}

/**
 * Reads the entry as the chosen importer wants it. A picked file is first opened for its size
 * and head (auto-detect needs no more); a streaming importer then reads it as a stream, any
 * other has it read whole through the loader. Each importer's own size limits apply before
 * anything more is read.
 */
async function readAndPick(job: ImportJob, registry: ImporterRegistry, loader: DocumentLoader, deps: JobDeps): Promise<{ input: ImportInput; importer: Importer; detection: Detection | null }> {
  const source = job.source;
  const what = source.kind === 'file' ? basename(source.path) : source.kind === 'paste' ? 'the pasted text' : 'the document';
  const progress = (bytes: number, total?: number) =>
    deps.onProgress?.({ phase: 'read', message: `Reading ${what}: ${formatBytes(bytes)}${total !== undefined ? ` of ${formatBytes(total)}` : ''}`, bytes, ...(total !== undefined ? { done: bytes, total } : {}) });
  if (source.kind === 'file') {
    const path = resolve(source.path);
    const name = basename(path);
    const entry = await openEntryFile(path, name);
    let picked: ReturnType<ImporterRegistry['pick']>;
    try {
      picked = registry.pick(job.format, { name, text: entry.head, size: entry.size });
    } catch (err) {
      // What tells the format may sit past the head: read it all (within the loader's caps) and look again.
      if (!hasCode(err, 'import-unrecognised') || entry.size <= DETECT_HEAD_BYTES) throw err;
      const input = await readImportInput(source, loader);
      progress(input.bytes?.length ?? input.text.length, entry.size);
      return { input, ...registry.pick(job.format, input) };
    }
    const { importer, detection } = picked;
    const limit = importer.limits?.fileBytes;
    if (limit !== undefined && entry.size > limit) throw tooLarge(name, limit);
    if (importer.reads === 'stream') {
      const stream = (signal?: AbortSignal) => countingBytes(entry.stream(signal), (bytes) => progress(bytes, entry.size));
      return { input: { name, text: entry.head, size: entry.size, stream, location: { kind: 'file', path } }, importer, detection };
    }
    const input = await readImportInput(source, loader);
    progress(input.bytes?.length ?? input.text.length, entry.size);
    return { input, importer, detection };
  }
  if (source.kind === 'paste') {
    const { importer, detection } = registry.pick(job.format, { text: source.text });
    const limit = importer.limits?.pasteChars;
    if (limit !== undefined && source.text.length > limit) throw new ParleyError('import-too-large', `The pasted text is ${source.text.length.toLocaleString('en-US')} characters long, over the ${limit.toLocaleString('en-US')} this format takes; import it from a file instead.`, { limit });
    const input = importer.reads === 'stream' ? pastedStreamInput(source.text) : await readImportInput(source, loader);
    progress(input.bytes?.length ?? input.text.length);
    return { input, importer, detection };
  }
  if (source.kind === 'folder' || source.kind === 'grpc-server') {
    // Only Protocol Buffers reads a folder of files or a server; its converter reads them itself.
    const importer = registry.get(PROTOBUF_FORMAT);
    if (!importer || (job.format !== 'auto' && job.format !== PROTOBUF_FORMAT)) {
      throw new ParleyError('bad-input', source.kind === 'folder' ? `A folder is imported as Protocol Buffers (its .proto files), not as ${job.format}.` : `A gRPC server is imported by reflection as Protocol Buffers, not as ${job.format}.`);
    }
    const location = source.kind === 'folder' ? { kind: 'folder' as const, path: resolve(source.path) } : { kind: 'grpc-server' as const, server: source };
    const name = source.kind === 'folder' ? basename(resolve(source.path)) : source.address;
    return { input: { name, text: '', location }, importer, detection: null };
  }
  const input = await readImportInput(source, loader);
  progress(input.bytes?.length ?? input.text.length);
  const { importer, detection } = registry.pick(job.format, input);
  return { input: importer.reads === 'stream' ? { ...input, stream: async function* () { yield input.bytes ?? new TextEncoder().encode(input.text); } } : input, importer, detection };
}

/** Pasted text for a streaming importer: the text itself, and as a stream of UTF-8 chunks encoded as they are read. */
function pastedStreamInput(text: string): ImportInput {
  const encoder = new TextEncoder();
  const CHUNK = 256 * 1024;
  return {
    text,
    async *stream() {
      for (let i = 0; i < text.length; i += CHUNK) yield encoder.encode(text.slice(i, i + CHUNK));
    },
  };
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

// A definition update loads its engines (OpenAPI or WSDL) when it runs, as an import's converter does (importer.ts).
export async function runDefinitionPreview(job: DefinitionUpdateJob, deps: Omit<JobDeps, 'newId'>): Promise<DefinitionUpdatePreview> {
  refuseGrpcUpdate(job);
  if (job.api.soap) return (await import('./definition-update/wsdl-update.js')).previewWsdlUpdate(await wsdlUpdateInput(job, deps));
  return (await import('./definition-update/preview.js')).previewDefinitionUpdate(await updateInput(job, deps));
}

/** Reads the sources again; throws `definition-changed` when they differ from the preview's. */
export async function runDefinitionApply(job: DefinitionApplyJob, deps: JobDeps): Promise<DefinitionUpdateResult> {
  refuseGrpcUpdate(job);
  const options = {
    newId: deps.newId,
    expectedFingerprint: job.expectedFingerprint,
    ...(job.recordSource !== undefined ? { source: job.recordSource } : {}),
  };
  if (job.api.soap) return (await import('./definition-update/wsdl-update.js')).applyWsdlUpdate(await wsdlUpdateInput(job, deps), options);
  return (await import('./definition-update/apply.js')).applyDefinitionUpdate(await updateInput(job, deps), options);
}

async function updateInput(job: DefinitionUpdateJob, deps: Omit<JobDeps, 'newId'>): Promise<DefinitionUpdateInput> {
  const credentials = job.source.kind === 'url' ? job.source.credentials : undefined;
  const { readSourceDefinition } = await import('./definition-update/read-source.js');
  const next = await withLoader(job, credentials, deps, (loader) => readSourceDefinition(job.source, loader, deps.onProgress, deps.signal));
  const old = job.cached.length > 0 ? await (await import('./definition-update/definitions.js')).readCachedDefinition(job.cached) : null;
  return { api: job.api, requests: job.requests, old, next };
}

/** A SOAP interface: its WSDL read now, and the copy cached at import (docs/soap.md). */
async function wsdlUpdateInput(job: DefinitionUpdateJob, deps: Omit<JobDeps, 'newId'>): Promise<WsdlUpdateInput> {
  const credentials = job.source.kind === 'url' ? job.source.credentials : undefined;
  const { readCachedWsdl, readSourceWsdl } = await import('./definition-update/wsdl-read.js');
  const next = await withLoader(job, credentials, deps, (loader) => readSourceWsdl(job.source, loader, deps.onProgress, deps.signal));
  const old = await readCachedWsdl(job.api, job.cached);
  return { api: job.api, requests: job.requests, old: old.definition, next: old.warning ? { ...next, warnings: [old.warning, ...next.warnings] } : next };
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

/** A gRPC API's definition update (reading its .proto files or its server again) is not built yet: refused, never read as OpenAPI. */
function refuseGrpcUpdate(job: DefinitionUpdateJob): void {
  if (job.api.kind === 'grpc') {
    throw new ParleyError('definition-update-unsupported', `Updating the definition of the gRPC API ${JSON.stringify(job.api.name)} is not supported yet: import its .proto files or its server again (a second API is made).`);
  }
}
