/** HTTP in the page: the request editor (method, URL, params, body, headers, auth, assertions, settings) and its response pane. */
import { RequestEditor } from '../../editors/request/RequestEditor.js';
import type { KindView } from '../kind.js';
import { requestTabState, send, stop } from '../../state/request-tabs.js';
import type { Draft } from '../../state/drafts.js';

export const httpView: KindView = {
  id: 'http',
  Editor: RequestEditor,
  draft: (tab) => requestTabState(tab).doc as Draft<unknown>,
  sendOrStop: (tab) => {
    const state = requestTabState(tab);
    if (state.sending.value) stop(state);
    else void send(state);
  },
};
