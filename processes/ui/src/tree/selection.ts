/**
 * The sidebar's selection for tree edits: the rows picked with Ctrl (Cmd) and Shift clicks, on
 * top of the one focused row (`selectedKey`, state/tree.ts). Edits act on the picked rows of one
 * project when the focused row is among them, else on the focused row alone.
 */
import { signal } from '@preact/signals';
import type { TreeRef } from '../../../../protocol/model/project.js';
import { projects } from '../state/app.js';
import { selectedKey } from '../state/tree.js';
import { retargetTabs } from '../state/tabs.js';
import { rowKey, type Row } from '../components/tree-rows.js';

export interface Picked extends TreeRef {
  project: string;
  name: string;
}

/** Picked rows by row key. */
export const picked = signal<Map<string, Picked>>(new Map());
/** Where a Shift click's range starts. */
let anchor: string | null = null;

/** Whether the sidebar (not an editor) is where the user last was: its keys (Alt+Up) act only then. */
export const treeActive = signal(false);

export function pickedOf(row: Row): Picked | null {
  const item = row.item;
  if (item.kind !== 'api' && item.kind !== 'folder' && item.kind !== 'request') return null;
  return { kind: item.kind, id: item.id, project: row.project, name: item.name };
}

/** A click on `row`: alone, toggled into the picked ones (Ctrl/Cmd) or a range from the anchor over `rows` (Shift). */
export function clickPick(row: Row, rows: readonly Row[], mode: 'one' | 'toggle' | 'range'): void {
  const one = pickedOf(row);
  if (mode === 'one' || !one) {
    picked.value = one ? new Map([[row.key, one]]) : new Map();
    anchor = row.key;
    return;
  }
  const next = new Map([...picked.value].filter(([, p]) => p.project === row.project));
  if (mode === 'toggle') {
    if (next.has(row.key)) next.delete(row.key);
    else next.set(row.key, one);
    anchor = row.key;
  } else {
    const from = rows.findIndex((r) => r.key === (anchor ?? selectedKey.value));
    const to = rows.indexOf(row);
    const [low, high] = from < 0 ? [to, to] : [Math.min(from, to), Math.max(from, to)];
    next.clear();
    for (const r of rows.slice(low, high + 1)) {
      const p = r.project === row.project ? pickedOf(r) : null;
      if (p) next.set(r.key, p);
    }
  }
  picked.value = next;
}

/** The items an edit acts on: the picked ones when `key` (the focused row) is one of them, else that row's item. */
export function actedOn(key: string | null = selectedKey.value): Picked[] {
  if (key === null) return [];
  if (picked.value.has(key) && picked.value.size > 1) return [...picked.value.values()].filter((p) => stillThere(p));
  const one = picked.value.get(key) ?? itemAt(key);
  return one && stillThere(one) ? [one] : [];
}

/** The item a row key names, from the trees held. */
export function itemAt(key: string): Picked | null {
  for (const tree of projects.value) {
    const prefix = rowKey(tree.root, '');
    if (!key.startsWith(prefix)) continue;
    const id = key.slice(prefix.length);
    const item = tree.items.find((i) => i.id === id && i.kind !== 'mock');
    if (item && item.kind !== 'mock') return { kind: item.kind, id: item.id, project: tree.root, name: item.name };
  }
  return null;
}

function stillThere(p: Picked): boolean {
  return projects.value.some((t) => t.root === p.project && t.items.some((i) => i.kind === p.kind && i.id === p.id));
}

export function clearPicked(): void {
  picked.value = new Map();
  anchor = null;
}

/** Ids that changed (a folder renamed or moved: it and everything in it): the picked, focused and expanded rows follow, and the folders' settings tabs. */
export function followIds(project: string, moved: readonly { from: string; to: string }[], expanded: { value: Set<string> }): void {
  const map = (id: string) => {
    for (const { from, to } of moved) {
      if (id === from) return to;
      if (id.startsWith(`${from}/`)) return to + id.slice(from.length);
    }
    return id;
  };
  const prefix = rowKey(project, '');
  const remap = (key: string) => (key.startsWith(prefix) ? rowKey(project, map(key.slice(prefix.length))) : key);
  expanded.value = new Set([...expanded.value].map(remap));
  if (selectedKey.value) selectedKey.value = remap(selectedKey.value);
  picked.value = new Map([...picked.value].map(([key, p]) => [remap(key), p.project === project ? { ...p, id: map(p.id) } : p]));
  retargetTabs(project, moved);
}
