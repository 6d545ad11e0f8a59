/**
 * The order of a project's tree, as the sidebar shows it, `parley run` runs it and the reports
 * list it: the APIs in their order, then depth first through each API, each parent's folders and
 * requests in theirs (`compareSiblings`, order-keys.ts: explicit keys, else by name as before).
 */
import type { ProjectTree, TreeItem } from '../model/project.js';
import { compareSiblings } from './order-keys.js';

export type ChildItem = Extract<TreeItem, { kind: 'folder' | 'request' }>;
export type ApiItem = Extract<TreeItem, { kind: 'api' }>;

/** Each parent's folders and requests in sibling order; the APIs in theirs; the mocks. */
export function childrenByParent(tree: ProjectTree): { children: Map<string, ChildItem[]>; roots: ApiItem[]; mocks: TreeItem[] } {
  const children = new Map<string, ChildItem[]>();
  const roots: ApiItem[] = [];
  const mocks: TreeItem[] = [];
  for (const item of tree.items) {
    if (item.kind === 'api') roots.push(item);
    else if (item.kind === 'mock') mocks.push(item);
    else {
      let list = children.get(item.parent);
      if (!list) children.set(item.parent, (list = []));
      list.push(item);
    }
  }
  for (const list of children.values()) list.sort(compareSiblings);
  roots.sort(compareSiblings);
  return { children, roots, mocks };
}

export interface OrderedRequest {
  id: string;
  name: string;
  apiId: string;
  apiName: string;
  /** Folder names from the API down ([] at the API's top). */
  folders: string[];
}

/** Every request of the tree in the sidebar's order, with the API and folders it sits in. */
export function requestsInTreeOrder(tree: ProjectTree): OrderedRequest[] {
  const { children, roots } = childrenByParent(tree);
  const out: OrderedRequest[] = [];
  for (const api of roots) {
    const walk = (parent: string, folders: string[]) => {
      for (const item of children.get(parent) ?? []) {
        if (item.kind === 'folder') walk(item.id, [...folders, item.name]);
        else out.push({ id: item.id, name: item.name, apiId: api.id, apiName: api.name, folders });
      }
    };
    walk(api.id, []);
  }
  return out;
}

/** The project row's id in the sidebar (and a runner's scope for the whole project). */
export const PROJECT_SCOPE = '@project';

/**
 * The requests under `scope` in the tree's order: the whole project (PROJECT_SCOPE), an API's, or
 * a folder's with its subfolders'. Null when the tree has no such API or folder.
 */
export function requestsUnder(tree: ProjectTree, scope: string): OrderedRequest[] | null {
  const all = requestsInTreeOrder(tree);
  if (scope === PROJECT_SCOPE) return all;
  // Ids are unique within a kind: a folder's parents and a request's are kept apart.
  const folderParent = new Map<string, string>();
  const requestParent = new Map<string, string>();
  let found = false;
  for (const item of tree.items) {
    if (item.kind === 'folder') folderParent.set(item.id, item.parent);
    else if (item.kind === 'request') requestParent.set(item.id, item.parent);
    if (item.id === scope && (item.kind === 'api' || item.kind === 'folder')) found = true;
  }
  if (!found) return null;
  return all.filter((r) => {
    for (let at = requestParent.get(r.id); at !== undefined; at = folderParent.get(at)) if (at === scope) return true;
    return false;
  });
}

const KIND_RANK: Record<TreeItem['kind'], number> = { api: 0, folder: 1, request: 2, mock: 3 };
/** `localeCompare`'s order (the default locale), without building a collator per call. */
const byName = new Intl.Collator().compare;

/**
 * The order a tree's flat list of items is kept in, by the store's trees and by the page applying
 * deltas (where a delta's row goes; what the sidebar shows is `childrenByParent`'s order):
 * APIs, folders, requests, mocks; APIs, requests and mocks by name, folders by path (their id is
 * the API's id and the path). Names the collator counts equal (`Café` composed and decomposed, or
 * the same name twice) go by their code units, then by id, so both sides place them alike.
 */
export function compareTreeItems(a: TreeItem, b: TreeItem): number {
  if (a.kind !== b.kind) return KIND_RANK[a.kind] - KIND_RANK[b.kind];
  if (a.kind !== 'folder') {
    const named = byName(a.name, b.name) || codeUnits(a.name, b.name);
    if (named !== 0) return named;
  }
  return codeUnits(a.id, b.id);
}

function codeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An item's identity in a tree: ids are unique within a kind. */
export function treeItemKey(item: { kind: TreeItem['kind']; id: string }): string {
  return `${item.kind}\0${item.id}`;
}
