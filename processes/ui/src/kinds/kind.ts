/** The page's part of a request kind (ARCHITECTURE.md, "Request kinds"): the editor a request tab of that kind shows. */
import type { ComponentType } from 'preact';
import type { EditorProps } from '../editors/registry.js';

export interface KindView {
  /** The kind's id in protocol/kinds/. */
  id: string;
  /** The request editor with its response pane. */
  Editor: ComponentType<EditorProps>;
}
