/** What `parley mock serve` serves: a project's mock, or a mock made on the spot from an OpenAPI document. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ParleyError } from '../../protocol/errors.js';
import type { ContractCheckMode, Mock } from '../../protocol/model/mock.js';
import type { MockDocuments } from '../../protocol/model/verdict.js';
import { isDefinitionUrl } from '../definition-source.js';
import { mockFromDocument } from './document-mock.js';

export interface ServeTarget {
  mock: Mock;
  documents: MockDocuments;
  /** Names `documents` exactly (mockHost.start's `definitionKey`). */
  definitionKey: string;
  /** The first line printed, before the URL: "Mock Pets" or "Mock of Museum API (museum.yaml)". */
  label: string;
  /** List the routes once serving (a document's mock has no files to look them up in). */
  listOperations: boolean;
  warnings: string[];
}

export async function serveTarget(where: string, mockName: string | undefined, port: number | undefined, check: ContractCheckMode | undefined, usage: string): Promise<ServeTarget> {
  if (await isProjectFolder(where)) {
    if (!mockName) throw new ParleyError('bad-input', `${where} is a folder: name the project's mock to serve with --mock <name>. ${usage}`);
    // The project store and its YAML are loaded only for a project: a document's mock starts sooner.
    const { projectTarget } = await import('./project-target.js');
    return projectTarget(resolve(where), mockName, port, check);
  }
  if (mockName) throw new ParleyError('bad-input', `--mock names a mock of a project folder; ${where} is not a folder. ${usage}`);
  const made = await mockFromDocument(where, { contractCheck: check ?? 'log', port: port ?? 0 });
  return {
    mock: made.mock,
    documents: made.documents,
    definitionKey: made.definitionKey,
    label: `Mock of ${made.title ? `${made.title} (${made.source})` : made.source}`,
    listOperations: true,
    warnings: made.warnings.map((w) => `a referenced document was not read: ${w}`),
  };
}

/** A folder (or a path that is not a document's URL and does not exist as a file) is a project. */
async function isProjectFolder(where: string): Promise<boolean> {
  if (isDefinitionUrl(where)) return false;
  const found = await stat(where).catch(() => null);
  if (!found) throw new ParleyError('not-found', `${where} does not exist: give a project folder, an OpenAPI file or an http(s) URL.`);
  return found.isDirectory();
}
