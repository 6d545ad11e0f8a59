/** Open editor tabs. A tab is identified by what it shows, so opening it twice focuses it. */
import { computed, signal } from '@preact/signals';

export type TabKind = 'request' | 'api' | 'project' | 'mock' | 'environments' | 'preferences' | 'welcome' | 'import' | 'cookies';

export interface Tab {
  id: string;
  kind: TabKind;
  project: string;
  itemId: string;
  title: string;
  /** Method badge for request tabs. */
  method?: string;
}

export const tabs = signal<Tab[]>([]);
export const activeTabId = signal<string | null>(null);
export const activeTab = computed(() => tabs.value.find((t) => t.id === activeTabId.value) ?? null);
/** Tabs with unsaved edits, by tab id. */
export const dirtyTabs = signal<Set<string>>(new Set());

export function tabId(kind: TabKind, project: string, itemId: string): string {
  return `${kind}:${project}:${itemId}`;
}

export function openTab(tab: Omit<Tab, 'id'>): void {
  const id = tabId(tab.kind, tab.project, tab.itemId);
  if (!tabs.value.some((t) => t.id === id)) tabs.value = [...tabs.value, { ...tab, id }];
  activeTabId.value = id;
}

const closeListeners = new Set<(id: string) => void>();
export function onTabClosed(listener: (id: string) => void): void {
  closeListeners.add(listener);
}

export function closeTab(id: string): void {
  for (const listener of closeListeners) listener(id);
  const list = tabs.value;
  const index = list.findIndex((t) => t.id === id);
  if (index < 0) return;
  const next = list.filter((t) => t.id !== id);
  tabs.value = next;
  if (activeTabId.value === id) activeTabId.value = next[Math.min(index, next.length - 1)]?.id ?? null;
  setDirty(id, false);
}

export function retitleTab(id: string, title: string, method?: string): void {
  tabs.value = tabs.value.map((t) => (t.id === id ? { ...t, title, ...(method ? { method } : {}) } : t));
}

export function setDirty(id: string, dirty: boolean): void {
  const has = dirtyTabs.value.has(id);
  if (has === dirty) return;
  const next = new Set(dirtyTabs.value);
  if (dirty) next.add(id);
  else next.delete(id);
  dirtyTabs.value = next;
}
