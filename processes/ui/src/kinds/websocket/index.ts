/** WebSocket in the page (docs/websocket.md): the request's editor with Connect / Disconnect, the composer and the session's messages. */
import type { Draft } from '../../state/drafts.js';
import type { KindView } from '../kind.js';
import { WebSocketEditor } from './WebSocketEditor.js';
import { connect, disconnect, socketTabState } from './socket-tabs.js';

export const websocketView: KindView = {
  id: 'websocket',
  Editor: WebSocketEditor,
  draft: (tab) => socketTabState(tab).doc as Draft<unknown>,
  sendOrStop: (tab) => {
    const state = socketTabState(tab);
    if (state.sending.value) disconnect(state);
    else void connect(state);
  },
};
