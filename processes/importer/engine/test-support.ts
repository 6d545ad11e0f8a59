/** Shared by the importer engine's tests: deterministic ids and a one-call import. */
import type { ImportOptions, ImportResult, ImportSource } from '../../../protocol/model/import.js';
import type { ImportProgress } from '../../../protocol/model/import.js';
import { createDocumentLoader, type LoaderOptions } from './load/loader.js';
import { readImportInput } from './load/read-input.js';
import { createImporterRegistry } from './registry.js';

/** Ids a_1, r_2, ... in call order: two runs over the same input give the same ids. */
export function counterIds(): (prefix: string) => string {
  let n = 0;
  return (prefix) => `${prefix}_${++n}`;
}

export const FIXED_CLOCK = () => new Date('2025-01-02T03:04:05.000Z');

export interface TestImport {
  result: ImportResult;
  progress: ImportProgress[];
}

/** Reads and imports a source the way the importer child does, offline unless told otherwise. */
export async function importSource(source: ImportSource, options: ImportOptions = {}, loaderOptions: LoaderOptions = { offline: true }, format = 'auto'): Promise<TestImport> {
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
