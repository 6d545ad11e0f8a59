/**
 * `parley mock serve <openapi-file-or-url>`: a mock with no project. The document is read by the
 * importer's own loader (file or URL, YAML or JSON, external `$ref`s across files and URLs, the
 * same caps and ref policy as an import), and the mock is New Mock's: one operation per contract
 * operation, each with its Default response. Nothing is written anywhere.
 */
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParleyError, isWireError } from '../../protocol/errors.js';
import type { ImportSource, ReportItem } from '../../protocol/model/import.js';
import type { ContractCheckMode, Mock } from '../../protocol/model/mock.js';
import type { Definition, MockDocuments } from '../../protocol/model/verdict.js';
import { detectDialect } from '../../processes/checker/engine/definition.js';
import { readSourceDefinition } from '../../processes/importer/engine/definition-update/read-source.js';
import { createDocumentLoader } from '../../processes/importer/engine/load/loader.js';
import type { DocumentSet } from '../../processes/importer/engine/load/document-set.js';
import { newMockFromDocuments } from '../../processes/mock-host/engine/new-mock.js';
import { newId } from '../../protocol/ids.js';

export interface DocumentMock {
  mock: Mock;
  /** What the mock host reads: the same shape a project's cached definition is handed over in. */
  documents: MockDocuments;
  /** The file or URL as given (a URL without credentials), for messages. */
  source: string;
  /** `info.title`, when the document has one. */
  title?: string;
  /** Referenced documents that could not be read. */
  warnings: string[];
}

export interface DocumentMockOptions {
  contractCheck: ContractCheckMode;
  port: number;
}

/** True for what `mock serve` reads as a document rather than a project folder: an http(s) or file: URL. */
export function isDocumentUrl(where: string): boolean {
  return /^(https?|file):/i.test(where);
}

export async function mockFromDocument(where: string, options: DocumentMockOptions): Promise<DocumentMock> {
  const loader = createDocumentLoader({});
  const source = sourceOf(where);
  const shown = source.kind === 'url' ? loader.redactor.url(source.url) : where;
  let set: DocumentSet;
  let problems: ReportItem[];
  try {
    ({ set, problems } = await readSourceDefinition(source, loader));
  } catch (err) {
    const why = isWireError(err) ? err.message : err instanceof Error ? err.message : String(err);
    throw new ParleyError('definition-not-loaded', `The OpenAPI document ${shown} did not load: ${loader.redactor.text(why)}`, { definition: shown });
  } finally {
    await loader.close();
  }
  const entry = set.entry;
  if (detectDialect(entry.value) === undefined) {
    throw new ParleyError('definition-unsupported', `${shown} is not an OpenAPI 3.x or Swagger 2.0 document; mocks are made from those.`);
  }
  const documents = { openapi: definitionOf(set) };
  const info = (entry.value as { info?: { title?: unknown } }).info;
  const title = typeof info?.title === 'string' && info.title.trim() !== '' ? info.title.trim() : undefined;
  const made = await newMockFromDocuments(documents, { name: title ?? nameOf(source), api: 'document', newId: () => newId('m') });
  if (made.operations.length === 0) throw new ParleyError('bad-input', `${shown} has no operations to mock.`);
  return {
    mock: { ...made, contractCheck: options.contractCheck, port: options.port },
    documents,
    source: shown,
    ...(title ? { title } : {}),
    warnings: problems.map(describeProblem),
  };
}

/**
 * Every document read, entry first, by the address it was read from (`$ref`s, relative or
 * absolute, resolve against those), where a project's cached definition has them by their path
 * in the API folder: the mock host reads either the same way, as `parley check` does.
 */
function definitionOf(set: DocumentSet): Definition {
  return set.documents.map((doc) => ({ uri: doc.url, document: doc.value }));
}

function sourceOf(where: string): ImportSource {
  if (/^https?:\/\//i.test(where)) return { kind: 'url', url: where };
  if (/^file:/i.test(where)) return { kind: 'file', path: fileURLToPath(where) };
  return { kind: 'file', path: resolve(where) };
}

function nameOf(source: ImportSource): string {
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
