/**
 * The definition `parley check` runs against. It is read by the importer's own loader (file or
 * URL, YAML or JSON, external `$ref`s across files and URLs, the same caps and ref policy as an
 * import), never by a second loader, and handed to the checker as `DefinitionDocument[]`
 * (entry first) with the importer's fingerprint.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParleyError, isWireError } from '../../protocol/errors.js';
import type { ImportSource, ReportItem } from '../../protocol/model/import.js';
import type { DefinitionDocument } from '../../protocol/model/verdict.js';
import { detectDialect } from '../../processes/checker/engine/definition.js';
import { readSourceDefinition } from '../../processes/importer/engine/definition-update/read-source.js';
import { fingerprintDocuments } from '../../processes/importer/engine/load/document-set.js';
import { createDocumentLoader } from '../../processes/importer/engine/load/loader.js';

export interface CheckDefinition {
  /** The file or URL as the user gave it (URL without credentials), for messages. */
  name: string;
  /** `info.title` when the entry has one. */
  title?: string;
  fingerprint: string;
  documents: DefinitionDocument[];
  /** Referenced documents that could not be read. A check that reaches them ends `not-checked`. */
  warnings: string[];
}

/** Reads `where` (a path, a file: URL or an http(s) URL). Throws `definition-not-loaded` saying which file and what is wrong. */
export async function loadCheckDefinition(where: string, signal?: AbortSignal): Promise<CheckDefinition> {
  const loader = createDocumentLoader(signal ? { signal } : {});
  const source = sourceOf(where);
  const name = source.kind === 'url' ? loader.redactor.url(source.url) : where;
  try {
    const read = await readSourceDefinition(source, loader, undefined, signal);
    const entry = read.set.entry;
    if (detectDialect(entry.value) === undefined) {
      throw new ParleyError('definition-unsupported', `${name} is ${read.version.label}; contract checks read OpenAPI 3.x and Swagger 2.0 documents.`);
    }
    const info = (entry.value as { info?: { title?: unknown } }).info;
    return {
      name,
      ...(typeof info?.title === 'string' ? { title: info.title } : {}),
      fingerprint: fingerprintDocuments(read.set.documents),
      documents: read.set.documents.map((doc) => ({ uri: doc.url, document: doc.value })),
      warnings: read.problems.map(describeProblem),
    };
  } catch (err) {
    if (isWireError(err) && err.code === 'definition-unsupported') throw err;
    const why = isWireError(err) ? err.message : err instanceof Error ? err.message : String(err);
    throw new ParleyError('definition-not-loaded', `The definition ${name} did not load: ${loader.redactor.text(why)}`, { definition: name });
  } finally {
    await loader.close();
  }
}

function sourceOf(where: string): ImportSource {
  if (/^https?:\/\//i.test(where)) return { kind: 'url', url: where };
  if (/^file:/i.test(where)) return { kind: 'file', path: fileURLToPath(where) };
  return { kind: 'file', path: resolve(where) };
}

function describeProblem(item: ReportItem): string {
  const at = [item.file, item.line !== undefined ? `line ${item.line}` : undefined, item.path].filter(Boolean).join(', ');
  return at ? `${at}: ${item.message}` : item.message;
}
