/**
 * The request kinds in the page, in protocol/kinds/' order: a request tab shows its kind's
 * editor, found by the kind its tree item names.
 */
import { projectByRoot } from '../state/app.js';
import type { EditorProps } from '../editors/registry.js';
import { registerEditor } from '../editors/registry.js';
import { httpView } from './http/index.js';
import { websocketView } from './websocket/index.js';
import { grpcView } from './grpc/index.js';
import type { KindView } from './kind.js';

const VIEWS: readonly KindView[] = [httpView, websocketView, grpcView];
const byId = new Map(VIEWS.map((view) => [view.id, view]));

/** The kind of the request a tab shows, from its row in the project's tree (HTTP when it names none). */
export function tabRequestKind(tab: EditorProps['tab']): string {
  const item = projectByRoot(tab.project)?.items.find((i) => i.id === tab.itemId);
  return (item?.kind === 'request' ? item.requestKind : undefined) ?? 'http';
}

function RequestTab({ tab }: EditorProps) {
  const kind = tabRequestKind(tab);
  const view = byId.get(kind);
  if (!view) return <div class="pane-message">This release of Parley has no editor for {kind} requests.</div>;
  return <view.Editor key={kind} tab={tab} />;
}

/** The request tab's Mod+Enter: its kind's Send or Connect (Stop or Disconnect while it runs). */
export function sendOrStopTab(tab: EditorProps['tab']): void {
  byId.get(tabRequestKind(tab))?.sendOrStop(tab);
}

export function registerRequestKinds(): void {
  // A restored tab whose project's tree is not loaded yet opens as HTTP, the kind most requests are.
  registerEditor('request', RequestTab, (tab) => (byId.get(tabRequestKind(tab)) ?? httpView).draft(tab));
}
