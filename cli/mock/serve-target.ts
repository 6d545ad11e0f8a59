/** What `parley mock serve` serves: a project's mock, or a mock made on the spot from an OpenAPI document. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ParleyError } from '../../protocol/errors.js';
import type { ContractCheckMode, Mock } from '../../protocol/model/mock.js';
import { loadMockFolder, mockFolderOf } from '../../protocol/project/mock-files.js';
import type { OpenApiDocuments } from '../../processes/mock-host/engine/openapi-documents.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { isDocumentUrl, mockFromDocument } from './document-mock.js';
import { documentsOf, mockNames } from './project-mocks.js';

export interface ServeTarget {
  mock: Mock;
  documents: OpenApiDocuments;
  /** The first line printed, before the URL: "Mock Pets" or "Mock of Museum API (museum.yaml)". */
  label: string;
  /** List the routes once serving (a document's mock has no files to look them up in). */
  listOperations: boolean;
  warnings: string[];
}

export async function serveTarget(where: string, mockName: string | undefined, port: number | undefined, check: ContractCheckMode | undefined, usage: string): Promise<ServeTarget> {
  if (await isProjectFolder(where)) {
    if (!mockName) throw new ParleyError('bad-input', `${where} is a folder: name the project's mock to serve with --mock <name>. ${usage}`);
    return projectTarget(resolve(where), mockName, port, check);
  }
  if (mockName) throw new ParleyError('bad-input', `--mock names a mock of a project folder; ${where} is not a folder. ${usage}`);
  const made = await mockFromDocument(where, { contractCheck: check ?? 'log', port: port ?? 0 });
  return {
    mock: made.mock,
    documents: made.documents,
    label: `Mock of ${made.title ? `${made.title} (${made.source})` : made.source}`,
    listOperations: true,
    warnings: made.warnings.map((w) => `a referenced document was not read: ${w}`),
  };
}

/** A folder (or a path that is not a document's URL and does not exist as a file) is a project. */
async function isProjectFolder(where: string): Promise<boolean> {
  if (isDocumentUrl(where)) return false;
  const found = await stat(where).catch(() => null);
  if (!found) throw new ParleyError('not-found', `${where} does not exist: give a project folder, an OpenAPI file or an http(s) URL.`);
  return found.isDirectory();
}

async function projectTarget(root: string, name: string, port: number | undefined, check: ContractCheckMode | undefined): Promise<ServeTarget> {
  const store = await ProjectStore.open(root);
  try {
    const [found] = mockNames(store, name);
    const loaded = await loadMockFolder(mockFolderOf(store.root, found!));
    if (!loaded.mock) {
      for (const p of loaded.problems) process.stderr.write(`${p.file}${p.line ? `:${p.line}` : ''}  ${p.rule}  ${p.message}\n`);
      throw new ParleyError('mock-invalid', `The mock ${found} does not load; fix the files above.`);
    }
    const mock = { ...loaded.mock, ...(port === undefined ? {} : { port }), ...(check === undefined ? {} : { contractCheck: check }) };
    return { mock, documents: await documentsOf(store, mock), label: `Mock ${mock.name}`, listOperations: false, warnings: [] };
  } finally {
    await store.close();
  }
}
