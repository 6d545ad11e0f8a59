/** The app-wide History view: every send of a project, newest first, searchable; open, re-send and compare entries. */
import type { HistorySummary, ResendResult } from '../../../../protocol/model/history.js';
import type { EditorProps } from '../editors/registry.js';
import { projectByRoot } from '../state/app.js';
import { requestTabState, resendInTab } from '../state/request-tabs.js';
import { call } from '../state/rpc.js';
import { openTab, requestTab, tabId, tabs } from '../state/tabs.js';
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
      <HistoryList project={tab.project} resend={(entry) => resendInRequestTab(tab.project, entry)} />
    </div>
  );
}

/**
 * A re-send goes through its request's editor, opened if need be (through the draft as edited when
 * it was open): the response lands there, and an event stream streams there live with its Stop.
 */
async function resendInRequestTab(project: string, entry: HistorySummary): Promise<ResendResult> {
  const item = projectByRoot(project)?.items.find((i) => i.id === entry.requestId);
  const opened = () => tabs.value.find((t) => t.id === tabId('request', project, entry.requestId));
  if (item?.kind === 'request') openTab(requestTab(project, item));
  const tab = item?.kind === 'request' ? opened() : undefined;
  if (tab) return resendInTab(requestTabState(tab), entry.id);
  const result = await call('history.resend', { project, id: entry.id });
  toast('info', `Re-sent: ${result.exchange.response.status} ${result.exchange.response.statusText}.`);
  return result;
}
