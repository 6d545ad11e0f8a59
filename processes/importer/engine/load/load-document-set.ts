/**
 * Reads a definition: the entry, then, breadth first, every document it leads to (`$ref`
 * targets, or Swagger 1.x API declarations). A document that cannot be read is reported and
 * its references stay unresolved; only cancellation and the size caps stop the whole import.
 * The order documents are found in is the order they are kept in, so two reads of the same
 * sources give the same set.
 */
import { ParleyError, isWireError } from '../../../../protocol/errors.js';
import type { ImportProgress, ReportItem } from '../../../../protocol/model/import.js';
import type { RefScope } from '../../../../protocol/ref-location.js';
import { assignCachePaths } from './cache-paths.js';
import { DocumentSet, shownDocument, type SourceDocument } from './document-set.js';
import type { DocumentLoader, LoadPurpose } from './loader.js';
import { decodeText, parseText, type ParsedText } from './parse-text.js';

/** A document some document leads to. `candidates` are tried in order; the first that reads wins. */
export interface Lead {
  candidates: string[];
  purpose: LoadPurpose;
  /** Where the lead is written, in the referring document. */
  pointer: string;
  /** Why the reference cannot be read at all (protocol/ref-location): reported, nothing is tried. */
  unreadable?: string;
}

/** Finds the leads in a parsed document; `scope` is the reference rule's scope for this job. */
export type Discover = (doc: { url: string; value: unknown }, scope: RefScope) => Lead[];

export interface EntryDocument {
  url: string;
  bytes: Uint8Array;
  /** Name for messages before a cache path exists. */
  name: string;
  /** Already parsed, when the caller had to look inside first. */
  parsed?: ParsedText;
}

export interface LoadSetOptions {
  discover: Discover;
  onProgress?: (event: ImportProgress) => void;
  signal?: AbortSignal;
}

/** Problems that stop nothing but the document they concern. */
const SOFT_FAILURES = new Set([
  'import-fetch-failed',
  'import-fetch-deadline',
  'import-file-unreadable',
  'import-ref-refused',
  'import-not-a-file',
  'import-malformed',
  'import-offline',
  'auth-required',
  'auth-refused',
]);

const CONCURRENCY = 6;

interface Pending {
  /** The address the lead named, when a redirect took it elsewhere. */
  requested?: string;
  url: string;
  bytes: Uint8Array;
  parsed: ParsedText;
}

interface Failure {
  fromUrl: string;
  pointer: string;
  message: string;
}

export async function loadDocumentSet(entry: EntryDocument, loader: DocumentLoader, options: LoadSetOptions): Promise<{ set: DocumentSet; problems: ReportItem[] }> {
  const entryParsed = entry.parsed ?? parseText(decodeText(entry.bytes), entry.name);
  const found: Pending[] = [{ url: entry.url, bytes: entry.bytes, parsed: entryParsed }];
  const seen = new Set<string>([entry.url]);
  const failures: Failure[] = [];
  const aliases = new Map<string, string>();
  let level: Pending[] = [found[0] as Pending];
  while (level.length > 0) {
    const leads: { lead: Lead; fromUrl: string }[] = [];
    for (const doc of level) {
      const scope: RefScope = { ...(loader.within ? { within: loader.within } : {}), documentName: shownDocument(doc.url, loader.within) };
      for (const lead of options.discover({ url: doc.url, value: doc.parsed.value }, scope)) {
        const fresh = lead.candidates.filter((c) => !seen.has(c));
        if (fresh.length < lead.candidates.length) continue;
        for (const c of fresh) seen.add(c);
        leads.push({ lead, fromUrl: doc.url });
      }
    }
    options.onProgress?.({ phase: 'resolve', message: `Reading ${leads.length} referenced document${leads.length === 1 ? '' : 's'}`, done: found.length, total: found.length + leads.length });
    // Results are taken in lead order, not completion order, so the report reads the same every time.
    const next = await mapLimited(leads, CONCURRENCY, async ({ lead, fromUrl }) => readLead(lead, fromUrl, loader));
    level = [];
    for (const doc of next) {
      if ('failure' in doc) {
        failures.push(doc.failure);
        continue;
      }
      if (doc.requested !== undefined) aliases.set(doc.requested, doc.url);
      if (found.some((f) => f.url === doc.url)) continue;
      seen.add(doc.url);
      found.push(doc);
      level.push(doc);
    }
    if (options.signal?.aborted) throw new ParleyError('cancelled', 'The import was cancelled.');
  }
  const paths = assignCachePaths(found.map((f) => f.url), entryParsed.syntax);
  const documents: SourceDocument[] = found.map((f, i) => ({ ...f.parsed, url: f.url, bytes: f.bytes, cachePath: paths[i] ?? `document-${i}` }));
  const set = new DocumentSet(documents, aliases, loader.within);
  const problems = failures.map((f) => ({ message: loader.redactor.text(f.message), ...set.locate(f.fromUrl, f.pointer) }));
  return { set, problems };
}

async function readLead(lead: Lead, fromUrl: string, loader: DocumentLoader): Promise<Pending | { failure: Failure }> {
  let last: string | undefined = lead.unreadable;
  for (const candidate of lead.candidates) {
    let target: URL;
    try {
      target = new URL(candidate);
    } catch {
      last = `The reference ${candidate} is not a valid address.`;
      continue;
    }
    if (target.protocol === 'paste:') {
      last = `A relative reference in pasted text cannot be resolved (${lead.pointer}); import the document from a file or URL instead.`;
      continue;
    }
    try {
      const read = await loader.load(target, lead.purpose, fromUrl);
      const parsed = parseText(decodeText(read.bytes), loader.redactor.url(read.url));
      return { url: read.url, bytes: read.bytes, parsed, ...(read.url !== candidate ? { requested: candidate } : {}) };
    } catch (err) {
      if (!(isWireError(err) && SOFT_FAILURES.has(err.code))) throw err;
      last = err.message;
    }
  }
  return { failure: { fromUrl, pointer: lead.pointer, message: last ?? 'A referenced document could not be read.' } };
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  });
  await Promise.all(workers);
  return out;
}
