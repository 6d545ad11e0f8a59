/** The page's part of a request kind (ARCHITECTURE.md, "Request kinds"): the editor a request tab of that kind shows. */
import type { ComponentType } from 'preact';
import type { EditorProps } from '../editors/registry.js';
import type { Draft } from '../state/drafts.js';

export interface KindView {
  /** The kind's id in protocol/kinds/. */
  id: string;
  /** The request editor with its response pane. */
  Editor: ComponentType<EditorProps>;
  /** The tab's draft, opened without the editor showing (a restored session's unsaved tabs). */
  draft(tab: EditorProps['tab']): Draft<unknown>;
  /** Send (or Connect), or Stop (or Disconnect) when it runs: the request tab's Mod+Enter. */
  sendOrStop(tab: EditorProps['tab']): void;
}
