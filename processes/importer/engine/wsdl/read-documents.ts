/**
 * Reading a WSDL and everything it imports or includes through the job's loader (its
 * credential, origin, size and deadline rules): the one read an import and a definition update
 * both use, so both cache the same documents under the same paths and fingerprint them alike.
 */
import { ParleyError, isWireError } from '../../../../protocol/errors.js';
import type { CachedDocument, ImportProgress } from '../../../../protocol/model/import.js';
import { resolveRefLocation } from '../../../../protocol/ref-location.js';
import { WsdlError, readWsdl, type WsdlDefinition, type WsdlReader } from '../../../../protocol/wsdl/index.js';
import type { ImportInput } from '../importer.js';
import { assignCachePaths } from '../load/cache-paths.js';
import { fingerprintDocuments, shownDocument } from '../load/document-set.js';
import type { DocumentLoader } from '../load/loader.js';
import { decodeText } from '../load/parse-text.js';
import { entryUrlOf } from '../openapi/convert.js';

/** Loader failures that cost one imported document, not the import (as for OpenAPI `$ref`s). */
const SOFT_FAILURES = new Set(['import-fetch-failed', 'import-fetch-deadline', 'import-file-unreadable', 'import-ref-refused', 'import-not-a-file', 'import-offline', 'auth-required', 'auth-refused', 'import-too-large']);

export interface ReadWsdlDocuments {
  definition: WsdlDefinition;
  /** Every document the WSDL read, entry first, as the cache holds them (source without credentials). */
  documents: CachedDocument[];
  /** Of the documents read (entry first, the rest by address). */
  fingerprint: string;
}

export interface WsdlReadContext {
  loader: DocumentLoader;
  onProgress?: (event: ImportProgress) => void;
  signal?: AbortSignal;
}

export async function readWsdlDocuments(input: ImportInput, ctx: WsdlReadContext): Promise<ReadWsdlDocuments> {
  const { loader } = ctx;
  const redactor = loader.redactor;
  const entryUrl = entryUrlOf(input);
  const name = input.name ?? 'pasted text';
  ctx.onProgress?.({ phase: 'read', message: `Reading ${redactor.text(name)}` });
  const read: { url: string; bytes: Uint8Array }[] = [{ url: entryUrl, bytes: input.bytes ?? new TextEncoder().encode(input.text) }];
  const scope = loader.within ? { within: loader.within } : {};
  const reader: WsdlReader = async (ref, base) => {
    if (ctx.signal?.aborted) throw new ParleyError('cancelled', 'The import was cancelled.');
    const location = resolveRefLocation(ref, base, { ...scope, documentName: shownDocument(base, loader.within) });
    if (!location.ok) throw new ParleyError('wsdl-unreadable', location.error.message);
    if (location.url.startsWith('paste:')) throw new ParleyError('wsdl-unreadable', `${JSON.stringify(ref)} is relative to the pasted text, which has no address; import the WSDL from a file or URL instead.`);
    ctx.onProgress?.({ phase: 'resolve', message: `Reading ${redactor.url(location.url)}`, done: read.length });
    try {
      const got = await loader.load(new URL(location.url), 'xml-ref', base);
      if (!read.some((d) => d.url === got.url)) read.push({ url: got.url, bytes: got.bytes });
      return { location: got.url, text: decodeText(got.bytes) };
    } catch (err) {
      if (isWireError(err) && SOFT_FAILURES.has(err.code)) throw new ParleyError('wsdl-unreadable', err.message);
      throw err;
    }
  };
  let definition: WsdlDefinition;
  try {
    definition = await readWsdl({ location: entryUrl, text: input.text }, reader);
  } catch (err) {
    if (err instanceof WsdlError && err.code === 'wsdl-not-wsdl') throw new ParleyError('import-malformed', redactor.text(err.message));
    if (err instanceof WsdlError) throw new ParleyError(err.code, redactor.text(err.message), { file: shownIn(loader, String((err.data as { location?: string }).location ?? '')) });
    throw err;
  }
  // Only documents the WSDL read are cached (a document read twice under two names is one file).
  const kept = read.filter((d) => definition.documents.includes(d.url));
  const paths = assignCachePaths(kept.map((d) => d.url), 'json');
  if (kept[0] && kept[0].url.startsWith('paste:')) paths[0] = 'service.wsdl';
  const documents = kept.map((d, i) => ({ path: paths[i] ?? `document-${i}.xml`, bytes: d.bytes, source: redactor.url(d.url) }));
  return { definition, documents, fingerprint: fingerprintDocuments(kept) };
}

/** A document's location as a report or error shows it (inside the import's folder, without credentials). */
export function shownIn(loader: DocumentLoader, location: string): string {
  return loader.redactor.text(shownDocument(location, loader.within));
}
