/**
 * The two sides of a definition update: the cached documents as the project stores them
 * (read offline), and the new documents (read from the source by the importer's loader).
 */
import type { CachedDocument } from '../../../../protocol/model/import.js';
import { createMemoryLoader } from '../load/memory-loader.js';
import { readDefinition, type ReadDefinition } from '../openapi/definition.js';

/** Where cached documents live when their original address is not known. */
const CACHE_BASE = 'cache:/definition/';

/**
 * Reads an API's cached definition. `files[0]` is the entry (the first of
 * `ApiDefinition.cached`); paths are relative to the definition/ folder. With each file's
 * `source` (its original address) references resolve exactly as they did at import;
 * without it, relative references between the cached files still resolve.
 */
export async function readCachedDefinition(files: readonly (Pick<CachedDocument, 'path' | 'bytes'> & { source?: string })[]): Promise<ReadDefinition> {
  const [entry] = files;
  if (!entry) throw new Error('readCachedDefinition needs at least the entry document');
  const urlOf = (f: { path: string; source?: string }) => f.source ?? new URL(f.path.replace(/^definition\//, ''), CACHE_BASE).href;
  // Read back from the project, a reference may not leave the cached definition's folder.
  const within = files.every((f) => f.source === undefined) ? { folder: CACHE_BASE, name: "the API's cached definition (definition/)" } : undefined;
  const loader = createMemoryLoader(
    files.map((f) => [urlOf(f), f.bytes] as [string, Uint8Array]),
    within,
  );
  return readDefinition({ url: urlOf(entry), bytes: entry.bytes, name: entry.path }, loader);
}
