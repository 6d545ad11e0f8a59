/** Which editor shows which kind of tab; each feature registers its own. */
import type { ComponentType } from 'preact';
import type { Draft } from '../state/drafts.js';
import type { Tab, TabKind } from '../state/tabs.js';

export type EditorProps = { tab: Tab };
export const editors = new Map<TabKind, ComponentType<EditorProps>>();

/**
 * How each kind of tab with a document opens its draft without its editor showing: what a restored
 * session does for every tab with an unsaved edit, so each is dirty (and kept, and asked about on
 * close) before its tab is first shown.
 */
export const draftOpeners = new Map<TabKind, (tab: Tab) => Draft<unknown>>();

export function registerEditor(kind: TabKind, component: ComponentType<EditorProps>, openDraft?: (tab: Tab) => Draft<unknown>): void {
  editors.set(kind, component);
  if (openDraft) draftOpeners.set(kind, openDraft);
}
