/** `parley mock serve <project-folder> --mock <name>`: the project's mock and its API's contract. */
import { ParleyError } from '../../protocol/errors.js';
import type { ContractCheckMode } from '../../protocol/model/mock.js';
import { loadMockFolder, mockFolderOf } from '../../protocol/project/mock-files.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { documentsOf, mockNames } from './project-mocks.js';
import type { ServeTarget } from './serve-target.js';

export async function projectTarget(root: string, name: string, port: number | undefined, check: ContractCheckMode | undefined): Promise<ServeTarget> {
  const store = await ProjectStore.open(root);
  try {
    const [found] = mockNames(store, name);
    const loaded = await loadMockFolder(mockFolderOf(store.root, found!));
    if (!loaded.mock) {
      for (const p of loaded.problems) process.stderr.write(`${p.file}${p.line ? `:${p.line}` : ''}  ${p.rule}  ${p.message}\n`);
      throw new ParleyError('mock-invalid', `The mock ${found} does not load; fix the files above.`);
    }
    const mock = { ...loaded.mock, ...(port === undefined ? {} : { port }), ...(check === undefined ? {} : { contractCheck: check }) };
    return { mock, ...(await documentsOf(store, mock)), label: `Mock ${mock.name}`, listOperations: false, warnings: [] };
  } finally {
    await store.close();
  }
}
