/** Shared by the importer engine's tests: deterministic ids and a one-call import. */
import { isHttp } from '../../../protocol/kinds/index.js';
import type { ImportOptions, ImportResult, ImportSource, ImportedApi, WebhooksOutput } from '../../../protocol/model/import.js';
import type { Request } from '../../../protocol/model/request.js';
import type { ImportProgress } from '../../../protocol/model/import.js';
import { createDocumentLoader, type LoaderOptions } from './load/loader.js';
import { readImportInput } from './load/read-input.js';
import { createImporterRegistry } from './registry.js';
import { runImportJob } from './run-job.js';
import type { Detection } from './importer.js';

/** Ids a_1, r_2, ... in call order: two runs over the same input give the same ids. */
export function counterIds(): (prefix: string) => string {
  let n = 0;
  return (prefix) => `${prefix}_${++n}`;
}

export const FIXED_CLOCK = () => new Date('2025-01-02T03:04:05.000Z');

/** An import's result whose requests are all HTTP (every format but Protocol Buffers makes only those). */
export type HttpImportResult = Omit<ImportResult, 'apis' | 'webhooks'> & {
  apis: (Omit<ImportedApi, 'requests'> & { requests: { folder: string; request: Request }[] })[];
  webhooks?: Omit<WebhooksOutput, 'requests'> & { requests: { folder: string; request: Request }[] };
};

export interface TestImport<R = HttpImportResult> {
  result: R;
  progress: ImportProgress[];
}

/** The result as HTTP-only, checked: a request of another kind fails the test here. */
export function httpOnly(result: ImportResult): HttpImportResult {
  for (const placed of [...result.apis.flatMap((a) => a.requests), ...(result.webhooks?.requests ?? [])]) {
    if (!isHttp(placed.request)) throw new Error(`The import made a ${placed.request.kind} request, ${placed.request.name}, where only HTTP was expected.`);
  }
  return result as HttpImportResult;
}

/** Reads and imports a source the way the importer child does, offline unless told otherwise. */
export async function importSource(source: ImportSource, options: ImportOptions = {}, loaderOptions: LoaderOptions = { offline: true }, format = 'auto'): Promise<TestImport> {
  const { result, progress } = await importAnyKind(source, options, loaderOptions, format);
  return { result: httpOnly(result), progress };
}

/** As `importSource`, for a format whose requests may be of any kind (Protocol Buffers). */
export async function importAnyKind(source: ImportSource, options: ImportOptions = {}, loaderOptions: LoaderOptions = { offline: true }, format = 'auto'): Promise<TestImport<ImportResult>> {
  const loader = createDocumentLoader(loaderOptions);
  const progress: ImportProgress[] = [];
  try {
    const input = await readImportInput(source, loader);
    const { importer } = createImporterRegistry().pick(format, input);
    const credentials = source.kind === 'url' ? source.credentials : undefined;
    const result = await importer.convert(input, {
      newId: counterIds(),
      now: FIXED_CLOCK,
      loader,
      options,
      onProgress: (e) => progress.push(e),
      ...(credentials ? { sourceCredentials: credentials } : {}),
    });
    return { result, progress };
  } finally {
    await loader.close();
  }
}

/** `runImportJob` for a format that makes only HTTP requests, its result checked to be so. */
export async function runHttpImportJob(...args: Parameters<typeof runImportJob>): Promise<{ detection: Detection | null; result: HttpImportResult }> {
  const { detection, result } = await runImportJob(...args);
  return { detection, result: httpOnly(result) };
}
