/**
 * Where a new request goes (an API, or a folder of one) and the picker that shows and changes it:
 * one for every dialog that makes a request (New request, Import cURL). The default is where the
 * user is working: the API or folder of the row selected in the sidebar, else of the active tab.
 */
import type { ProjectTree, TreeItem } from '../../../../protocol/model/project.js';
import { projectByRoot, projects } from '../state/app.js';
import { activeTab } from '../state/tabs.js';
import { selectedKey } from '../state/tree.js';
import { rowKey } from './tree-rows.js';

export interface RequestTarget {
  project: string;
  /** An API id, or a folder id (`<api id>/<folder path>`). */
  parent: string;
  /** "Pet Store / pets", with the project's name first when several projects are open. */
  label: string;
}

/** Every API and folder of the open projects (or of `only`), by label within each project. */
export function requestTargets(only?: string): RequestTarget[] {
  const trees = projects.value.filter((p) => only === undefined || p.root === only);
  const prefix = trees.length > 1;
  return trees.flatMap((tree) => targetsOf(tree, prefix ? `${tree.name}: ` : ''));
}

function targetsOf(tree: ProjectTree, prefix: string): RequestTarget[] {
  const byId = new Map(tree.items.map((i) => [i.id, i]));
  const out: RequestTarget[] = [];
  for (const item of tree.items) {
    if (item.kind === 'api') out.push({ project: tree.root, parent: item.id, label: prefix + item.name });
    if (item.kind === 'folder') {
      const path: string[] = [item.name];
      let up = byId.get(item.parent);
      while (up && up.kind === 'folder') {
        path.unshift(up.name);
        up = byId.get(up.parent);
      }
      out.push({ project: tree.root, parent: item.id, label: `${prefix}${up?.name ?? '?'} / ${path.join(' / ')}` });
    }
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * The target the user is at: the API or folder of the sidebar's selected row (a request's own
 * folder or API), else of the active tab; undefined when neither is in a project's APIs.
 */
export function currentTarget(targets: readonly RequestTarget[]): RequestTarget | undefined {
  const tab = activeTab.value;
  const places = [selectedKey.value, tab ? rowKey(tab.project, tab.itemId) : null];
  for (const key of places) {
    if (!key) continue;
    const at = key.indexOf('::');
    const project = key.slice(0, at);
    const parent = parentOf(projectByRoot(project), key.slice(at + 2));
    const found = parent && targets.find((t) => t.project === project && t.parent === parent);
    if (found) return found;
  }
  return undefined;
}

/** The API or folder an item stands for or sits in. */
function parentOf(tree: ProjectTree | undefined, id: string): string | undefined {
  const item: TreeItem | undefined = tree?.items.find((i) => i.id === id);
  if (!item) return undefined;
  if (item.kind === 'api' || item.kind === 'folder') return item.id;
  return item.kind === 'request' ? item.parent : undefined;
}

const keyOf = (t: RequestTarget) => rowKey(t.project, t.parent);

/** The picker: a select of the targets, labelled for what the dialog does ("Into", "Import into"). */
export function TargetPicker({ targets, value, onChange, label }: { targets: readonly RequestTarget[]; value: RequestTarget; onChange(target: RequestTarget): void; label: string }) {
  return (
    <select aria-label={label} value={keyOf(value)} onChange={(e) => onChange(targets.find((t) => keyOf(t) === (e.target as HTMLSelectElement).value) ?? value)}>
      {targets.map((t) => (
        <option key={keyOf(t)} value={keyOf(t)}>
          {t.label}
        </option>
      ))}
    </select>
  );
}
