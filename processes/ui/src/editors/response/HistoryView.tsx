/** This request's past sends, newest first, each with the contract chip it got: re-send one, copy it, compare two. */
import { resendInTab, type RequestTabState } from '../../state/request-tabs.js';
import { HistoryList } from '../../history/HistoryList.js';

export function HistoryView({ state }: { state: RequestTabState }) {
  return (
    <HistoryList
      project={state.tab.project}
      requestId={state.tab.itemId}
      refreshKey={state.exchange.value ?? state.error.value}
      resend={(entry) => resendInTab(state, entry.id)}
    />
  );
}
