/**
 * Reads what an export converts (protocol/export/scope.ts) from an open project: an API, or a
 * folder of it, walked in the sidebar's order (tree-order.ts), with each folder's settings, each
 * request as its file has it and each request's saved examples.
 */
import { ParleyError, quote } from '../../../protocol/errors.js';
import type { ExportFolder, ExportItem, ExportScope } from '../../../protocol/export/scope.js';
import { childrenByParent } from '../../../protocol/project/tree-order.js';
import { ExampleStore } from '../store/example-store.js';
import type { ProjectStore } from '../store/project-store.js';

/** `target`: an API's id, or a folder's tree id (`<api id>/<path>`). */
export async function readExportScope(store: ProjectStore, target: { kind: 'api' | 'folder'; id: string }): Promise<ExportScope> {
  const tree = store.tree();
  const { children } = childrenByParent(tree);
  const item = tree.items.find((i) => i.kind === target.kind && i.id === target.id);
  if (!item) throw new ParleyError('not-found', `No ${target.kind === 'api' ? 'API' : 'folder'} ${quote(target.id)} in ${store.name}.`);
  const examples = new ExampleStore(store);

  const walk = async (parent: string, folder: ExportFolder): Promise<ExportFolder> => {
    for (const child of children.get(parent) ?? []) {
      let entry: ExportItem;
      if (child.kind === 'folder') entry = await walk(child.id, { kind: 'folder', name: child.name, settings: store.getFolder(child.id).settings, items: [] });
      else entry = { kind: 'request', request: store.getRequest(child.id), examples: (await examples.list(child.id)).examples };
      folder.items.push(entry);
    }
    return folder;
  };

  if (target.kind === 'api') {
    const api = store.getApi(target.id);
    const root = await walk(api.id, { kind: 'folder', name: api.name, settings: { auth: { type: 'inherit' }, headers: [], variables: [] }, items: [] });
    return { of: 'api', projectName: store.name, properties: store.properties, api, above: [], root };
  }
  const { api, folders: above } = store.scopeOfFolder(target.id);
  const { name, settings } = store.getFolder(target.id);
  const root = await walk(target.id, { kind: 'folder', name, settings, items: [] });
  return { of: 'folder', projectName: store.name, properties: store.properties, api, above, root };
}

/** The tree id of the API named `name` (or with that id), for `parley export --api`. */
export function apiNamed(store: ProjectStore, name: string): string {
  const apis = store.listApis();
  const exact = apis.filter((a) => a.name === name);
  const match = exact.length > 0 ? exact : apis.filter((a) => a.id === name || a.name.toLowerCase() === name.toLowerCase());
  if (match.length === 1) return match[0]!.id;
  if (match.length > 1) throw new ParleyError('bad-input', `${match.length} APIs are named ${quote(name)}; pass one's id to --api: ${match.map((a) => a.id).join(', ')}.`);
  throw new ParleyError('not-found', `The project has no API named ${quote(name)}. Its APIs: ${apis.map((a) => a.name).join(', ') || 'none'}.`);
}

/** The tree id of the folder at `path` (names joined by `/`) in the API `apiId`. */
export function folderAt(store: ProjectStore, apiId: string, path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  const tree = store.tree();
  let parent = apiId;
  for (const segment of segments) {
    const found = tree.items.find((i) => i.kind === 'folder' && i.parent === parent && i.name === segment);
    if (!found) throw new ParleyError('not-found', `No folder ${quote(path)} in the API ${quote(store.getApi(apiId).name)}.`);
    parent = found.id;
  }
  if (parent === apiId) throw new ParleyError('bad-input', 'The folder path is empty.');
  return parent;
}
