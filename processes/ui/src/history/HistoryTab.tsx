/** The app-wide History view: every send of a project, newest first, searchable; open, re-send and compare entries. */
import type { HistorySummary, ResendResult } from '../../../../protocol/model/history.js';
import type { EditorProps } from '../editors/registry.js';
import { projectByRoot } from '../state/app.js';
import { requestTabState } from '../state/request-tabs.js';
import { openTab, tabId, tabs } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { HistoryList } from './HistoryList.js';

export function HistoryTab({ tab }: EditorProps) {
  const tree = projectByRoot(tab.project);
  return (
    <div class="editor history-editor">
      <header class="editor-header">
        <h2>History</h2>
        <span class="muted">{tree?.name ?? tab.project}: every send of the project, newest first</span>
      </header>
      <HistoryList project={tab.project} draft={(requestId) => openDraftOf(tab.project, requestId)} onResent={(result, entry) => showInRequestTab(tab.project, entry, result)} />
    </div>
  );
}

/** The open editor's draft of a request, when it has one: a re-send goes through the request as edited. */
export function openDraftOf(project: string, requestId: string) {
  const open = tabs.value.find((t) => t.id === tabId('request', project, requestId));
  return open ? requestTabState(open).draft.value : null;
}

/** A re-send's response lands in its request's editor, opened if need be. */
function showInRequestTab(project: string, entry: HistorySummary, result: ResendResult): void {
  const item = projectByRoot(project)?.items.find((i) => i.id === entry.requestId);
  if (item?.kind !== 'request') {
    toast('info', `Re-sent: ${result.exchange.response.status} ${result.exchange.response.statusText}.`);
    return;
  }
  openTab({ kind: 'request', project, itemId: item.id, title: item.name, method: item.method });
  const opened = tabs.value.find((t) => t.id === tabId('request', project, item.id));
  if (!opened) return;
  const state = requestTabState(opened);
  state.error.value = null;
  state.exchange.value = result.exchange;
  state.responseView.value = 'body';
}
