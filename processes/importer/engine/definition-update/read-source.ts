/**
 * The new side of a definition update: the documents read from a source now, by the same
 * loader rules as an import (credentials only to the source's origin, proxy, CA, caps).
 * Called once for the preview and again for Apply, whose fingerprint must match the preview's.
 */
import type { ImportProgress, ImportSource } from '../../../../protocol/model/import.js';
import type { DocumentLoader } from '../load/loader.js';
import { readImportInput } from '../load/read-input.js';
import { entryUrlOf } from '../openapi/convert.js';
import { readDefinition, type ReadDefinition } from '../openapi/definition.js';

export async function readSourceDefinition(source: ImportSource, loader: DocumentLoader, onProgress?: (e: ImportProgress) => void, signal?: AbortSignal): Promise<ReadDefinition> {
  const input = await readImportInput(source, loader);
  const name = input.name ?? 'pasted text';
  return readDefinition({ url: entryUrlOf(input), bytes: input.bytes ?? new TextEncoder().encode(input.text), name }, loader, onProgress, signal);
}
