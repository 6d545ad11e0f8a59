/** A project's mocks by name, and the contract a mock answers for: shared by `check` and `serve`. */
import { ParleyError } from '../../protocol/errors.js';
import type { Mock } from '../../protocol/model/mock.js';
import type { MockDocuments } from '../../protocol/model/verdict.js';
import { definitionKey, mockDocuments } from '../../processes/supervisor/mocks/mock-documents.js';
import type { ProjectStore } from '../../processes/supervisor/store/project-store.js';

/** `only`, checked to exist, or every mock of the project. */
export function mockNames(store: ProjectStore, only: string | undefined): string[] {
  const names = store
    .tree()
    .items.filter((i) => i.kind === 'mock')
    .map((i) => i.name);
  if (only === undefined) {
    if (names.length === 0) throw new ParleyError('not-found', `${store.root} has no mocks (no folders under mocks/).`);
    return names;
  }
  if (!names.includes(only)) throw new ParleyError('not-found', `${store.root} has no mock named ${only} (mocks: ${names.join(', ') || 'none'}).`);
  return [only];
}

/** The mock's API's cached documents, and the key that names them (`definitionKey`). */
export async function documentsOf(store: ProjectStore, mock: Mock): Promise<{ documents: MockDocuments; definitionKey: string }> {
  const api = store.listApis().find((a) => a.id === mock.api);
  if (!api) throw new ParleyError('not-found', `The API this mock answers for (${mock.api}) is not in the project.`);
  return { documents: await mockDocuments(store.apiDir(api.id), api), definitionKey: definitionKey(api) };
}
