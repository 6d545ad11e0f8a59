/**
 * The folder the user is at, for the palette's Folder settings…: the folder selected in the
 * sidebar when the sidebar is where the user is, else the folder of the active tab (a folder's
 * own tab, or the folder a request is in), else the folder selected in the sidebar.
 */
import type { ProjectTree, TreeItem } from '../../../../protocol/model/project.js';
import { projectByRoot } from '../state/app.js';
import { activeTab } from '../state/tabs.js';
import { actedOn, treeActive } from './selection.js';

export type FolderItem = Extract<TreeItem, { kind: 'folder' }>;

/** The folder `itemId` is, or the folder the request `itemId` is in; null for anything else (an API, a request at an API's top). */
export function folderFor(tree: ProjectTree, itemId: string): FolderItem | null {
  const item = tree.items.find((i) => i.id === itemId);
  if (item?.kind === 'folder') return item;
  if (item?.kind !== 'request') return null;
  const parent = tree.items.find((i) => i.id === item.parent);
  return parent?.kind === 'folder' ? parent : null;
}

export function folderInFocus(): { project: string; folder: FolderItem } | null {
  const inTab = () => {
    const tab = activeTab.value;
    const tree = tab ? projectByRoot(tab.project) : undefined;
    const folder = tab && tree ? folderFor(tree, tab.itemId) : null;
    return folder ? { project: tree!.root, folder } : null;
  };
  const inTree = () => {
    const picked = actedOn();
    const tree = picked.length === 1 ? projectByRoot(picked[0]!.project) : undefined;
    const folder = tree ? folderFor(tree, picked[0]!.id) : null;
    return folder ? { project: tree!.root, folder } : null;
  };
  return treeActive.value ? (inTree() ?? inTab()) : (inTab() ?? inTree());
}
