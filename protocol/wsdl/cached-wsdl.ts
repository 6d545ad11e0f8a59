/**
 * The one reader of an API's cached WSDL (its WSDL and schemas as text, entry first), offline:
 * the mock host reads a SOAP mock's contract with it, the importer the old side of a definition
 * update. A document with the address it was read from at import (`soap.sources`) stands for that
 * address, so every import and include resolves under the import's own rule
 * (protocol/ref-location) to its cached copy; without addresses, references are looked up by path
 * among the documents. Nothing is ever fetched.
 *
 * Not exported from index.ts: it uses node:path, and the engine's index stays loadable in a page.
 */
import { posix } from 'node:path';
import { ParleyError } from '../errors.js';
import type { WsdlDocument } from '../model/verdict.js';
import { resolveRefLocation } from '../ref-location.js';
import { cachedWsdlReader } from './cached-reader.js';
import type { WsdlDefinition } from './model.js';
import { readWsdl, type WsdlReader } from './read-wsdl.js';

export interface CachedWsdlRead {
  definition: WsdlDefinition;
  /** Each document's text by its path (the first of two with one path counts). */
  texts: Map<string, string>;
  /** Where each document was read from at import, by path; empty when the documents do not say. */
  sources: Map<string, string>;
  /** The entry's path. */
  entry: string;
}

/** The WSDL of `documents` (entry first), read by the WSDL engine from among them only. */
export async function readCachedWsdlDocuments(documents: readonly WsdlDocument[]): Promise<CachedWsdlRead> {
  const texts = documentTexts(documents);
  const sources = documentSources(documents);
  const entry = documents[0]?.path;
  const text = entry === undefined ? undefined : texts.get(entry);
  if (entry === undefined || text === undefined) throw new ParleyError('no-definition', 'The cached WSDL is missing; import the API again with definitions cached.');
  const entrySource = sources.get(entry);
  const definition =
    entrySource === undefined
      ? await readWsdl({ location: entry, text }, cachedReader(texts))
      : await readWsdl(
          { location: entrySource, text },
          cachedWsdlReader(
            [...sources].map(([path, source]) => ({ path, source })),
            async (path) => texts.get(path) ?? '',
          ),
        );
  return { definition, texts, sources, entry };
}

/** The documents' texts by path (the first of two with one path counts). */
export function documentTexts(documents: readonly WsdlDocument[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const doc of documents) if (!texts.has(doc.path)) texts.set(doc.path, doc.text);
  return texts;
}

/** Where each cached document was read from, by path; empty when the documents do not say. */
export function documentSources(documents: readonly WsdlDocument[]): Map<string, string> {
  const sources = new Map<string, string>();
  for (const doc of documents) if (doc.source !== undefined && !sources.has(doc.path)) sources.set(doc.path, doc.source);
  return sources;
}

/**
 * Which cached document `location`, written in the document at `fromPath`, names: under the
 * import's own rule (protocol/ref-location) when the sources are known, else relative to the path.
 */
export function cachedLocator(texts: ReadonlyMap<string, string>, sources: ReadonlyMap<string, string>): (fromPath: string, location: string) => string | undefined {
  const bySource = new Map([...sources].map(([path, source]) => [source, path]));
  return (fromPath, location) => {
    const base = sources.get(fromPath);
    if (base !== undefined) {
      const resolved = resolveRefLocation(location, base);
      return resolved.ok ? bySource.get(resolved.url) : undefined;
    }
    return locateCached(texts, fromPath, location);
  };
}

/**
 * Reads a cached document a WSDL refers to: a relative reference against the referring
 * document's path; an absolute URL by the file name it was cached under (the importer names a
 * cached copy after the last segment of its URL's path), when exactly one cached document has it.
 */
export function cachedReader(texts: ReadonlyMap<string, string>): WsdlReader {
  return async (ref, base) => {
    const path = locateCached(texts, base, ref);
    const text = path === undefined ? undefined : texts.get(path);
    if (path === undefined || text === undefined) throw new ParleyError('wsdl-not-cached', `${ref.slice(0, 120)} is not among the cached documents of the definition.`);
    return { location: path, text };
  };
}

export function locateCached(texts: ReadonlyMap<string, string>, base: string, ref: string): string | undefined {
  const bare = ref.split(/[?#]/, 1)[0]!;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(bare) && !bare.startsWith('/')) {
    const resolved = posix.normalize(posix.join(posix.dirname(base), bare));
    if (texts.has(resolved)) return resolved;
  }
  const name = posix.basename(bare);
  const found = [...texts.keys()].filter((p) => posix.basename(p) === name);
  return found.length === 1 ? found[0] : undefined;
}
