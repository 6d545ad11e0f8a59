/**
 * The one reader of a definition named on the command line (`parley check --definition`,
 * `parley mock serve <file or URL>`): a path, a file: URL or an http(s) URL, read by the
 * importer's own loader (YAML or JSON, external `$ref`s across files and URLs, the same caps and
 * ref policy as an import), never by a second loader. Both commands get the same documents, the
 * same fingerprint and the same error messages.
 */
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParleyError, isWireError } from '../protocol/errors.js';
import type { ImportSource, ReportItem } from '../protocol/model/import.js';
import type { Definition } from '../protocol/model/verdict.js';
import { detectDialect } from '../processes/checker/engine/definition.js';
import { readSourceDefinition } from '../processes/importer/engine/definition-update/read-source.js';
import { fingerprintDocuments } from '../processes/importer/engine/load/document-set.js';
import { createDocumentLoader } from '../processes/importer/engine/load/loader.js';
import type { DeclaredVersion } from '../processes/importer/engine/openapi/version.js';

export interface CommandLineDefinition {
  /** The file or URL as the user gave it (a URL without credentials), for messages. */
  name: string;
  /** What to call the definition when it has no title: the file's name, or the URL's host. */
  shortName: string;
  /** `info.title`, trimmed, when the entry has a non-blank one. */
  title?: string;
  /** The importer's fingerprint: sha256 of every document's bytes. */
  fingerprint: string;
  /**
   * Every document read, entry first, by the address it was read from (`$ref`s, relative or
   * absolute, resolve against those), where a project's cached definition has them by their path
   * in the API folder: the checker and the mock host read either the same way.
   */
  documents: Definition;
  /** Referenced documents that could not be read, one line each ("file, line n, path: why"). */
  warnings: string[];
}

/** True for what names a document by URL (http(s) or file:) rather than by a path. */
export function isDefinitionUrl(where: string): boolean {
  return /^https?:\/\//i.test(where) || /^file:/i.test(where);
}

/**
 * Reads `where`. Throws `definition-not-loaded` naming the file or URL and what is wrong, or
 * `definition-unsupported` for a document that is neither OpenAPI 3.x nor Swagger 2.0.
 */
export async function readCommandLineDefinition(where: string, signal?: AbortSignal): Promise<CommandLineDefinition> {
  const loader = createDocumentLoader(signal ? { signal } : {});
  const source = sourceOf(where);
  const name = source.kind === 'url' ? loader.redactor.url(source.url) : where;
  try {
    const read = await readSourceDefinition(source, loader, undefined, signal);
    const entry = read.set.entry;
    if (detectDialect(entry.value) === undefined) {
      throw new ParleyError('definition-unsupported', `${name} ${declared(read.version, entry.value)}; Parley checks and mocks OpenAPI 3.x and Swagger 2.0 definitions only.`);
    }
    const info = (entry.value as { info?: { title?: unknown } }).info;
    const title = typeof info?.title === 'string' && info.title.trim() !== '' ? info.title.trim() : undefined;
    return {
      name,
      shortName: shortNameOf(source),
      ...(title ? { title } : {}),
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

/** What an entry the checker cannot read declares: "is a Swagger 1.2 document", or its version key as written (`openapi: 3`, a number). */
function declared(version: DeclaredVersion, entry: unknown): string {
  if (version.family === 'swagger1') return `is a Swagger ${version.generation} document`;
  const key = version.family === 'openapi3' ? 'openapi' : 'swagger';
  const value = (entry as Record<string, unknown>)[key];
  return `declares ${key}: ${String(JSON.stringify(value)).slice(0, 40)}, not a version string such as ${version.family === 'openapi3' ? '"3.1.0"' : '"2.0"'}`;
}

function shortNameOf(source: ImportSource): string {
  if (source.kind === 'file') return basename(source.path);
  if (source.kind === 'url') {
    try {
      return new URL(source.url).host || 'OpenAPI document';
    } catch {
      return 'OpenAPI document';
    }
  }
  return 'OpenAPI document';
}

function describeProblem(item: ReportItem): string {
  const at = [item.file, item.line !== undefined ? `line ${item.line}` : undefined, item.path].filter(Boolean).join(', ');
  return at ? `${at}: ${item.message}` : item.message;
}
