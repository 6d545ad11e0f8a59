/**
 * Open editor tabs. A tab is identified by what it shows, so opening it twice focuses it.
 * As in VS Code, a single click in the sidebar opens a preview tab (italic title) that the next
 * single click replaces; a double click, or the first edit, keeps it.
 */
import { computed, effect, signal } from '@preact/signals';
import { dirtyKeys, dropDraft } from './drafts.js';

export type TabKind = 'request' | 'api' | 'folder' | 'project' | 'mock' | 'environments' | 'preferences' | 'welcome' | 'import' | 'history' | 'compare' | 'cookies' | 'http-log' | 'runner';

export interface Tab {
  id: string;
  kind: TabKind;
  project: string;
  itemId: string;
  title: string;
  /** Method badge for request tabs. */
  method?: string;
  /**
   * A request tab's kind (protocol/kinds/) when it is not HTTP, as its tree row names it: the tab
   * opens its kind's editor and draft by it, without waiting for its project's tree.
   */
  requestKind?: string;
  /** Replaced by the next preview open until it is kept. */
  preview?: boolean;
}

export const tabs = signal<Tab[]>([]);
export const activeTabId = signal<string | null>(null);
export const activeTab = computed(() => tabs.value.find((t) => t.id === activeTabId.value) ?? null);
/** Tabs with unsaved edits, by tab id (each editor's draft says). */
export const dirtyTabs = dirtyKeys;

export function tabId(kind: TabKind, project: string, itemId: string): string {
  return `${kind}:${project}:${itemId}`;
}

/** The tab of a request, from its tree row (or the request just made): it carries the request's kind. */
export function requestTab(project: string, request: { id: string; name: string; method: string; requestKind?: string | undefined }): Omit<Tab, 'id' | 'preview'> {
  const { requestKind } = request;
  return { kind: 'request', project, itemId: request.id, title: request.name, method: request.method, ...(requestKind && requestKind !== 'http' ? { requestKind } : {}) };
}

/** Opens (or focuses) a tab; `preview` opens it in the preview slot, replacing what was there. */
export function openTab(tab: Omit<Tab, 'id' | 'preview'>, options: { preview?: boolean } = {}): void {
  const list = tabs.value;
  // By what it shows: a folder's tab keeps its id when its folder is renamed or moved (retargetTabs).
  const existing = list.find((t) => t.kind === tab.kind && t.project === tab.project && t.itemId === tab.itemId);
  let id = existing?.id ?? tabId(tab.kind, tab.project, tab.itemId);
  // A followed tab holds the id its folder's old path made: a new folder there gets another.
  for (let n = 2; !existing && list.some((t) => t.id === id); n++) id = `${tabId(tab.kind, tab.project, tab.itemId)}#${n}`;
  if (existing) {
    if (existing.preview && !options.preview) keepTab(id);
  } else {
    const opened: Tab = { ...tab, id, ...(options.preview ? { preview: true } : {}) };
    const replaced = options.preview ? list.find((t) => t.preview && !dirtyTabs.value.has(t.id)) : undefined;
    if (replaced) {
      tabs.value = list.map((t) => (t === replaced ? opened : t));
      forget(replaced.id);
    } else tabs.value = [...list, opened];
  }
  activeTabId.value = id;
}

/** Makes a preview tab a kept one. */
export function keepTab(id: string): void {
  if (!tabs.value.some((t) => t.id === id && t.preview)) return;
  tabs.value = tabs.value.map((t) => (t.id === id ? { ...t, preview: false } : t));
}

// The first edit keeps a preview tab, so an edit is never replaced by the next click.
effect(() => {
  for (const id of dirtyKeys.value) keepTab(id);
});

const closeListeners = new Set<(id: string) => void>();
export function onTabClosed(listener: (id: string) => void): void {
  closeListeners.add(listener);
}

function forget(id: string): void {
  for (const listener of closeListeners) listener(id);
  dropDraft(id);
}

/** Removes a tab at once, edits and all: `closeTab` in draft-actions.ts asks first. */
export function discardTab(id: string): void {
  const list = tabs.value;
  const index = list.findIndex((t) => t.id === id);
  if (index < 0) return;
  forget(id);
  const next = list.filter((t) => t.id !== id);
  tabs.value = next;
  if (activeTabId.value === id) activeTabId.value = next[Math.min(index, next.length - 1)]?.id ?? null;
}

/**
 * A folder's id is its path: when folders are renamed or moved (`moved`: each folder's id before
 * and after), the tabs of them and of the folders inside them follow, keeping their tab id and
 * so their draft; the title is the folder's new name.
 */
export function retargetTabs(project: string, moved: readonly { from: string; to: string }[]): void {
  const map = (id: string) => {
    for (const { from, to } of moved) {
      if (id === from) return to;
      if (id.startsWith(`${from}/`)) return to + id.slice(from.length);
    }
    return id;
  };
  let changed = false;
  const next = tabs.value.map((t) => {
    if (t.kind !== 'folder' || t.project !== project) return t;
    const itemId = map(t.itemId);
    if (itemId === t.itemId) return t;
    changed = true;
    return { ...t, itemId, title: itemId.slice(itemId.lastIndexOf('/') + 1) };
  });
  if (changed) tabs.value = next;
}

export function retitleTab(id: string, title: string, method?: string): void {
  tabs.value = tabs.value.map((t) => (t.id === id ? { ...t, title, ...(method ? { method } : {}) } : t));
}

/** The tab `step` places after (or before) the active one, wrapping around. */
export function cycleTab(step: 1 | -1): void {
  const list = tabs.value;
  if (list.length === 0) return;
  const index = list.findIndex((t) => t.id === activeTabId.value);
  activeTabId.value = list[(index + step + list.length) % list.length]!.id;
}
