/** Which editor shows which kind of tab; each feature registers its own. */
import type { ComponentType } from 'preact';
import type { Tab, TabKind } from '../state/tabs.js';

export type EditorProps = { tab: Tab };
export const editors = new Map<TabKind, ComponentType<EditorProps>>();

export function registerEditor(kind: TabKind, component: ComponentType<EditorProps>): void {
  editors.set(kind, component);
}
