/**
 * `parley mock serve <openapi-file-or-url>`: a mock with no project. The document is read as
 * `parley check` reads its definition (cli/definition-source.ts: the importer's own loader, file
 * or URL, external `$ref`s, the same caps and ref policy as an import), and the mock is New
 * Mock's: one operation per contract operation, each with its Default response. Nothing is
 * written anywhere.
 */
import { ParleyError } from '../../protocol/errors.js';
import type { ContractCheckMode, Mock } from '../../protocol/model/mock.js';
import type { MockDocuments } from '../../protocol/model/verdict.js';
import { newMockFromDocuments } from '../../processes/mock-host/engine/new-mock.js';
import { newId } from '../../protocol/ids.js';
import { readCommandLineDefinition } from '../definition-source.js';

export interface DocumentMock {
  mock: Mock;
  /** What the mock host reads: the same shape a project's cached definition is handed over in. */
  documents: MockDocuments;
  /** `document:` and the sha256 of every document's bytes, read once (mockHost.start's `definitionKey`). */
  definitionKey: string;
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

export async function mockFromDocument(where: string, options: DocumentMockOptions): Promise<DocumentMock> {
  const read = await readCommandLineDefinition(where);
  // A mock needs every document the definition refers to; the reader knows why one is missing
  // (not found, not a file, refused as outside what may be read, unreadable), which the mock's
  // own check of the documents it was handed cannot tell.
  if (read.warnings.length > 0) {
    const more = read.warnings.length > 1 ? ` (and ${read.warnings.length - 1} more)` : '';
    throw new ParleyError('definition-not-loaded', `The definition ${read.name} cannot be mocked: a document it refers to could not be read. ${read.warnings[0]}${more}`, { definition: read.name });
  }
  const documents: MockDocuments = { openapi: read.documents };
  const made = await newMockFromDocuments(documents, { name: read.title ?? read.shortName, api: 'document', newId: () => newId('m') });
  if (made.operations.length === 0) throw new ParleyError('bad-input', `${read.name} has no operations to mock.`);
  return {
    mock: { ...made, contractCheck: options.contractCheck, port: options.port },
    documents,
    definitionKey: `document:${read.fingerprint}`,
    source: read.name,
    ...(read.title ? { title: read.title } : {}),
    warnings: read.warnings,
  };
}
