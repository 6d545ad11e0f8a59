/**
 * The two sides of a WSDL interface's definition update: the WSDL read from its source now
 * (by the import's own read, so the same loader rules, cache paths and fingerprint), and the
 * copy cached under definition/ at import, read offline with each file standing for the
 * address it was read from (`soap.sources`) by the mock host's own reader of a cached WSDL
 * (protocol/wsdl/cached-wsdl.ts).
 */
import type { Api } from '../../../../protocol/model/api.js';
import type { CachedFile, ImportProgress, ImportSource, ReportItem } from '../../../../protocol/model/import.js';
import { DEFINITION_DIR } from '../../../../protocol/project/layout.js';
import { WsdlError, type WsdlDefinition } from '../../../../protocol/wsdl/index.js';
import { readCachedWsdlDocuments } from '../../../../protocol/wsdl/cached-wsdl.js';
import type { DocumentLoader } from '../load/loader.js';
import { decodeText } from '../load/parse-text.js';
import { readImportInput } from '../load/read-input.js';
import { readWsdlDocuments, shownIn, type ReadWsdlDocuments } from '../wsdl/read-documents.js';

export interface ReadWsdlSource extends ReadWsdlDocuments {
  /** The new WSDL's problems, as a report shows them. */
  warnings: ReportItem[];
}

export async function readSourceWsdl(source: ImportSource, loader: DocumentLoader, onProgress?: (e: ImportProgress) => void, signal?: AbortSignal): Promise<ReadWsdlSource> {
  const input = await readImportInput(source, loader);
  const read = await readWsdlDocuments(input, { loader, ...(onProgress ? { onProgress } : {}), ...(signal ? { signal } : {}) });
  const warnings = read.definition.problems.map((p) => ({ message: loader.redactor.text(p.message), file: shownIn(loader, p.location) }));
  return { ...read, warnings };
}

/** Where a cached file stands when the API recorded no source for it: relative references still resolve inside the cache. */
const CACHE_BASE = 'cache:/definition/';

export interface CachedWsdl {
  /** Null when the API kept no cache (imported with caching off), its entry is gone, or it cannot be read. */
  definition: WsdlDefinition | null;
  /** Why a cache the API has could not be read: the update then treats nothing as generated. */
  warning?: ReportItem;
}

/**
 * The cached WSDL of `api`. `files` are relative to definition/, the entry first. A problem in
 * the cached copy (an unreadable import) is not the user's to fix now, so it is not reported;
 * a cache that cannot be read at all (unsafe or malformed XML in a cloned project, say) is a
 * warning, and the update goes on without it, which keeps every envelope as the user has it.
 */
export async function readCachedWsdl(api: Api, files: readonly CachedFile[]): Promise<CachedWsdl> {
  const cached = api.definition?.cached ?? [];
  const inCache = (path: string) => (path.startsWith(`${DEFINITION_DIR}/`) ? path.slice(DEFINITION_DIR.length + 1) : path);
  const entry = files[0];
  if (!entry || cached[0] === undefined || entry.path !== inCache(cached[0])) return { definition: null };
  const sourceOf = new Map<string, string>();
  cached.forEach((path, i) => {
    const source = api.soap?.sources[i];
    if (source !== undefined) sourceOf.set(inCache(path), source);
  });
  // A file the API records no source for (a hand-edited api.yaml) stands at its place in the
  // cache: a relative reference still finds it, and one that finds nothing is a problem of the
  // read, never a failure of the update.
  const documents = files.map((f) => ({ path: f.path, text: decodeText(f.bytes), source: sourceOf.get(f.path) ?? new URL(f.path, CACHE_BASE).href }));
  try {
    return { definition: (await readCachedWsdlDocuments(documents)).definition };
  } catch (err) {
    if (!(err instanceof WsdlError)) throw err;
    return {
      definition: null,
      warning: { message: `The cached WSDL could not be read (${err.message}), so nothing is taken as generated: every envelope, header and endpoint you have is kept.`, file: `${DEFINITION_DIR}/${entry.path}` },
    };
  }
}
