/**
 * Which requests `parley run` runs, in the project's order (the sidebar's, `requestsInTreeOrder`:
 * the order kept in the project files, docs/project-files.md "Order"): all of them, or those under `--api`,
 * under `--folder <path>` (folder names joined by `/`), or named by `--request` (a name, or a
 * path `folder/name` or `API/folder/name`; repeatable, run in the project's order).
 */
import { ParleyError } from '../../protocol/errors.js';
import type { ProjectTree } from '../../protocol/model/project.js';
import { requestsInTreeOrder, type OrderedRequest } from '../../protocol/project/tree-order.js';

export interface Selection {
  api?: string;
  folder?: string;
  requests?: string[];
}

export function selectRequests(tree: ProjectTree, selection: Selection): OrderedRequest[] {
  let all = requestsInTreeOrder(tree);
  if (selection.api !== undefined) {
    const wanted = selection.api;
    const apis = [...new Map(all.map((r) => [r.apiId, r.apiName])).entries()];
    const exact = apis.filter(([, name]) => name === wanted);
    const match = exact.length === 1 ? exact : apis.filter(([id]) => id === wanted).length === 1 ? apis.filter(([id]) => id === wanted) : apis.filter(([, name]) => name.toLowerCase() === wanted.toLowerCase());
    if (match.length !== 1) {
      const names = tree.items.filter((i) => i.kind === 'api').map((i) => i.name);
      throw new ParleyError('not-found', match.length > 1 ? `${match.length} APIs are named ${wanted}; pass one's id to --api: ${match.map(([id]) => id).join(', ')}.` : `the project has no API named ${wanted} with requests. Its APIs: ${names.join(', ') || 'none'}.`);
    }
    all = all.filter((r) => r.apiId === match[0]![0]);
  }
  if (selection.folder !== undefined) {
    const segments = pathSegments(selection.folder);
    const under = all.filter((r) => startsWith(r.folders, segments) || startsWith([r.apiName, ...r.folders], segments));
    if (under.length === 0) throw new ParleyError('not-found', `no folder ${selection.folder} with requests${selection.api !== undefined ? ` in the API ${selection.api}` : ''}.`);
    all = under;
  }
  if (selection.requests && selection.requests.length > 0) {
    const chosen = new Set<string>();
    for (const wanted of selection.requests) {
      const found = matchRequest(all, wanted);
      if (found.length === 0) throw new ParleyError('not-found', `no request named ${wanted}${selection.api !== undefined || selection.folder !== undefined ? ' among those selected' : ''}.`);
      if (found.length > 1) throw new ParleyError('ambiguous-request', `${found.length} requests match ${wanted}: ${found.map(requestPath).join(', ')}; give its path (API/folder/name).`);
      chosen.add(found[0]!.id);
    }
    all = all.filter((r) => chosen.has(r.id));
  }
  return all;
}

/** "API/folder/name": how reports name a request. */
export function requestPath(r: OrderedRequest): string {
  return [r.apiName, ...r.folders, r.name].join('/');
}

function matchRequest(requests: OrderedRequest[], wanted: string): OrderedRequest[] {
  const byName = requests.filter((r) => r.name === wanted);
  if (byName.length > 0) return byName;
  const segments = pathSegments(wanted);
  const byPath = requests.filter((r) => sameSegments([...r.folders, r.name], segments) || sameSegments([r.apiName, ...r.folders, r.name], segments));
  if (byPath.length > 0) return byPath;
  return requests.filter((r) => r.id === wanted);
}

function pathSegments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function startsWith(path: string[], prefix: string[]): boolean {
  return prefix.length > 0 && prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
}

function sameSegments(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
